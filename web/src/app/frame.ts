/**
 * The page's frame in the language spoken: the skip link, the header's links and its
 * settings panel, with the choice of language there (kept in this browser; the page
 * loads again in the language chosen, back where it was, a seat included).
 */
import { byId, h, replace } from "./dom";
import type { Screen } from "./host";
import { LANGUAGES, _, keepLanguage, language, pgettext } from "./i18n";

const say = (selector: string, text: string): void => {
  const el = document.querySelector(selector);
  if (el) el.textContent = text;
};

/** The frame's words, and the language setting (`#lang`). */
export function frameWords(): void {
  say(".skip", _("Skip to the game"));
  say("#conn", _("connecting"));
  byId("pages").setAttribute("aria-label", _("Pages"));
  say('#pages a[href="#/"]', _("Lobby"));
  say('#pages a[href="#/help"]', _("How to play"));
  say("#settings summary", _("Settings"));
  say('label[for="pace"]', _("Other players' moves"));
  say(
    "#pace-hint",
    _(
      "How long each move of another seat stays on screen before the next one shows. Kept in this browser.",
    ),
  );
  say('label[for="lang"]', _("Language"));
  // the card taken last is marked by the style sheet (`::after`): its word comes from here
  const last = pgettext("at most 7 letters", "last");
  document.documentElement.style.setProperty("--mark-last", JSON.stringify(last));
  const select = byId<HTMLSelectElement>("lang");
  const codes = Object.keys(LANGUAGES);
  if (!codes.includes(language())) codes.push(language()); // the pseudo-locale, when chosen
  replace(
    select,
    codes.map((c) => h("option", { value: c, lang: c === "xx" ? "en-XA" : c }, LANGUAGES[c] ?? c)),
  );
  select.value = language();
  select.addEventListener("change", () => {
    keepLanguage(select.value);
    location.reload();
  });
}

/** Each screen's name, for the page's title. */
const TITLES: Record<Screen, () => string> = {
  lobby: () => _("Lobby"),
  create: () => _("New table"),
  join: () => _("Join"),
  waiting: () => _("Waiting"),
  table: () => _("At the table"),
  account: () => _("Your player"),
  profile: () => _("Profile"),
  board: () => _("Leaderboard"),
  replay: () => _("Replay"),
};

/** A screen's name, for the page's title. */
export const screenTitle = (screen: Screen): string => TITLES[screen]();
