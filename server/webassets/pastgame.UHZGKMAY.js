import{a,b}from"./chunk.IWYTRIO4.js";import"./chunk.FFBIBTYG.js";import"./chunk.GFNAQ6GZ.js";export{a as openReplay,b as renderReplay};
