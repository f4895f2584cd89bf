import{a,b}from"./chunk.W24JEW2A.js";import"./chunk.REN35BLO.js";import"./chunk.V34SWMOJ.js";export{a as openReplay,b as renderReplay};
