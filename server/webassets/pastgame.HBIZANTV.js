import{a,b}from"./chunk.VVGXTREW.js";import"./chunk.CA5KXAI4.js";import"./chunk.OEB3PPXZ.js";export{a as openReplay,b as renderReplay};
