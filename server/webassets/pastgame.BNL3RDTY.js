import{a,b}from"./chunk.YZPCEEBK.js";import"./chunk.SG7I5KAS.js";import"./chunk.INCX62DZ.js";export{a as openReplay,b as renderReplay};
