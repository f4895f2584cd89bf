/** The Kupferkessel Co. protocol client library: `KupferkesselClient` and every message type. */
export * from "./client";
export * from "./geometry";
export * from "./protocol";
export * from "./replay";
