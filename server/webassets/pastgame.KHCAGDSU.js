import{a,b}from"./chunk.5KWEF4C7.js";import"./chunk.3JF6EGSM.js";import"./chunk.B6ZCZITQ.js";export{a as openReplay,b as renderReplay};
