import{a,b}from"./chunk.UVNSVH4A.js";import"./chunk.524FMLEA.js";import"./chunk.B6ZCZITQ.js";export{a as openReplay,b as renderReplay};
