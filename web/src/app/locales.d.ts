// The language modules the build makes from the catalogues (scripts/build.mjs: the
// `kk-locale:` plugin runs scripts/po2json.py): English's card words, bundled, and one
// module per other language, loaded when chosen.
declare module "kk-locale:en-words" {
  import type { Catalogue } from "./i18n";
  const words: Pick<Catalogue, "ingredients" | "colours"> & { languages: Record<string, string> };
  export default words;
}
declare module "kk-locale:*" {
  import type { Catalogue } from "./i18n";
  const catalogue: Catalogue;
  export default catalogue;
}
