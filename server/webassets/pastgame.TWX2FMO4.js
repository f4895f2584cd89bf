import{a,b}from"./chunk.3LNYL6LF.js";import"./chunk.OFZWSOFB.js";import"./chunk.V34SWMOJ.js";export{a as openReplay,b as renderReplay};
