import{a,b}from"./chunk.V46XWAJH.js";import"./chunk.IHANFJTV.js";import"./chunk.B6ZCZITQ.js";export{a as openReplay,b as renderReplay};
