/**
 * The page in its reader's language: English, German, French, Spanish (and the
 * pseudo-locale `xx`). A sentence is written once, in English, as a gettext message
 * (`_("{who} takes {card}", { who, card })`, fields by name) that Babel's `javascript`
 * extractor puts into `client/i18n/locales/messages.pot` beside the terminal client's;
 * the build turns each language's `.po` into a module of its own
 * (`scripts/po2json.py`), loaded only when that language is chosen. English needs none:
 * its messages are the ids. Plurals by `Intl.PluralRules` (each CLDR category mapped to
 * the catalogue's form), numbers, lists and ordinals by `Intl`; the card data's words
 * (ingredients, colours) come from `shared/data/names.json` through the same modules.
 */
import ENGLISH from "kk-locale:en-words";
import LOAD from "kk-locale:loaders";

export type Forms = string | string[];

/** One language as `scripts/po2json.py` writes it. */
export interface Catalogue {
  language: string;
  plural_index: Record<string, number>;
  messages: Record<string, Forms>;
  contexts: Record<string, Record<string, Forms>>;
  ingredients: Record<string, { name: string; short: string }>;
  colours: Record<string, { name: string; tag: string }>;
}

/** The languages a reader may choose, each in its own words (`Deutsch`). */
export const LANGUAGES: Readonly<Record<string, string>> = ENGLISH.languages;
const PSEUDO = "xx";
const KEY = "kk:lang";

let lang = "en";
let cat: Catalogue = { language: "en", plural_index: {}, messages: {}, contexts: {}, ...ENGLISH };
/** The tag `Intl` formats by: English as the project writes it, the British way. */
let tag = "en-GB";

const known = (code: string | null | undefined): string | null => {
  const c = (code ?? "").toLowerCase().split(/[-_]/)[0];
  return c in LANGUAGES || c === PSEUDO ? c : null;
};

/** The language kept in this browser, else the first of the browser's languages that
 * the page speaks, else English. */
export function chosenLanguage(): string {
  let kept: string | null = null;
  try {
    kept = localStorage.getItem(KEY);
  } catch {
    /* storage disabled: the browser's languages decide */
  }
  return known(kept) ?? navigator.languages.map(known).find((c) => c) ?? "en";
}

/** Keep `code` as this browser's language (the page speaks it from its next load). */
export function keepLanguage(code: string): void {
  try {
    localStorage.setItem(KEY, code);
  } catch {
    /* storage full or disabled */
  }
}

/** Speak the chosen language: its module loaded (English needs none), `<html lang>`
 * set. A module that cannot be loaded leaves the page in English. */
export async function useLanguage(code = chosenLanguage()): Promise<void> {
  if (code !== "en" && LOAD[code]) {
    try {
      cat = (await LOAD[code]()).default;
      lang = code;
      tag = code === PSEUDO ? "en-GB" : code;
    } catch {
      /* offline or an old cached page: English */
    }
  }
  // the pseudo-locale is English made long: a tag screen readers know
  document.documentElement.lang = lang === PSEUDO ? "en-XA" : lang;
}

/** The language spoken now. */
export const language = (): string => lang;

type Fields = Readonly<Record<string, string | number>>;

/** `{field}`s filled by name; numbers as the language writes them. */
function fill(text: string, fields?: Fields): string {
  if (!fields) return text;
  return text.replace(/\{(\w+)\}/g, (all, k: string) => {
    const v = fields[k];
    return v === undefined ? all : typeof v === "number" ? num(v) : v;
  });
}

const first = (f: Forms | undefined): string | undefined => (Array.isArray(f) ? f[0] : f);

/** A message in the language spoken, its fields filled. */
export const _ = (msg: string, fields?: Fields): string =>
  fill(first(cat.messages[msg]) ?? msg, fields);

/** A message kept in a table (`N_`) is translated where it is shown, with `_`. */
export const N_ = (msg: string): string => msg;

/** A message in a context (a word that means two things in English). */
export const pgettext = (ctx: string, msg: string, fields?: Fields): string =>
  fill(first(cat.contexts[ctx]?.[msg]) ?? msg, fields);

/** The `Intl` formatter made by `make` for the language spoken and `options`, made once:
 * making one costs far more than using it, and a table screen formats a hundred numbers
 * (each card's place) every time it is drawn. */
const made = new Map<string, unknown>();
function once<T>(kind: string, options: object | undefined, make: () => T): T {
  const key = `${kind} ${tag} ${JSON.stringify(options ?? {})}`;
  let f = made.get(key) as T | undefined;
  if (f === undefined) made.set(key, (f = make()));
  return f;
}

/** The form for `n` (`{n}` filled with it): the language's plural category picks it. */
export function ngettext(one: string, other: string, n: number, fields?: Fields): string {
  const forms = cat.messages[one];
  const category = once("plural", undefined, () => new Intl.PluralRules(tag)).select(n);
  const text = Array.isArray(forms)
    ? (forms[cat.plural_index[category] ?? 0] ?? forms[0])
    : category === "one"
      ? one
      : other;
  return fill(text, { n, ...fields });
}

/** A number as the language writes it (`2,5`). */
export const num = (n: number, options?: Intl.NumberFormatOptions): string =>
  once("number", options, () => new Intl.NumberFormat(tag, options)).format(n);

/** `A, B und C`: a list as the language joins it (`or`: `A oder B`). */
export const list = (items: readonly string[], or = false): string => {
  const type = or ? "disjunction" : "conjunction";
  return once("list", { type }, () => new Intl.ListFormat(tag, { type })).format(items);
};

/** `05/12/2026, 14:03`: a moment as the language writes it. */
export const moment = (ms: number): string => {
  const options = { dateStyle: "short", timeStyle: "short" } as const;
  return once("date", options, () => new Intl.DateTimeFormat(tag, options)).format(ms);
};

/** `05/12/2026`: a day as the language writes it. */
export const date = (ms: number): string => {
  const options = { dateStyle: "short" } as const;
  return once("date", options, () => new Intl.DateTimeFormat(tag, options)).format(ms);
};

/** `1st`, `1.`, `1er`: a place, by the language's CLDR ordinal category. */
export function ordinal(n: number): string {
  const type = "ordinal";
  const form = once("plural", { type }, () => new Intl.PluralRules(tag, { type })).select(n);
  if (form === "one") return pgettext("ordinal, CLDR category one", "{n}st", { n });
  if (form === "two") return pgettext("ordinal, CLDR category two", "{n}nd", { n });
  if (form === "few") return pgettext("ordinal, CLDR category few", "{n}rd", { n });
  return pgettext("ordinal, CLDR category other", "{n}th", { n });
}

/** An ingredient's name (`short`: the six letters a small cell shows). */
export function ingredient(key: string, short = false): string | null {
  const w = cat.ingredients[key];
  return w ? (short ? w.short : w.name) : null;
}

/** A colour's word (`braun`), lower case; its two-letter tag with `tag`. */
export function colour(key: string, asTag = false): string {
  const w = cat.colours[key];
  return w ? (asTag ? w.tag : w.name) : key;
}
