// The language modules the build makes from the catalogues (scripts/build.mjs: the
// `kk-locale:` plugin runs scripts/po2json.py): English's card words, bundled, one
// module per other language, loaded when chosen, and the loaders of those modules (one
// per language of shared/data/names.json, and the pseudo-locale).
declare module "kk-locale:en-words" {
  import type { Catalogue } from "./i18n";
  const words: Pick<Catalogue, "ingredients" | "colours"> & { languages: Record<string, string> };
  export default words;
}
declare module "kk-locale:loaders" {
  import type { Catalogue } from "./i18n";
  const load: Record<string, () => Promise<{ default: Catalogue }>>;
  export default load;
}
declare module "kk-locale:*" {
  import type { Catalogue } from "./i18n";
  const catalogue: Catalogue;
  export default catalogue;
}
