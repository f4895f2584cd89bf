/**
 * The pace at which other seats' moves are shown, the person's own choice (as on Board
 * Game Arena or lichess): each move stays on screen a moment before the next one shows,
 * so it can be seen and heard; some want that slower, some faster, some not at all. The
 * choice is kept in the browser's storage, for every server, and applies at once, to a
 * move already waiting too.
 */
import { byId, h, replace } from "./dom";
import { N_, _ } from "./i18n";
import { PACE_KEY, prefs } from "./store";

/** Milliseconds between two displayed moves of other seats, per choice. */
export const PACES = { slow: 1500, normal: 900, fast: 300, off: 0 } as const;
export type PaceName = keyof typeof PACES;
export const DEFAULT_PACE: PaceName = "normal";
const NAMES = Object.keys(PACES) as PaceName[];
const WORDS: Record<PaceName, string> = {
  slow: N_("Slow: 1.5 s apart"),
  normal: N_("Normal: 0.9 s apart"),
  fast: N_("Fast: 0.3 s apart"),
  off: N_("Off: at once"),
};
/** More moves than this waiting to be shown: they are shown at a third of the pace
 * until the page has caught up (a spectator sees every move of both players, and would
 * otherwise fall further behind a quick game with every round). */
const CATCH_UP = 3;

/** The kept choice; the default for none, or for one this page does not know. */
export function keptPace(): PaceName {
  const p = prefs.pace();
  return NAMES.find((n) => n === p) ?? DEFAULT_PACE;
}

/** Keeps time between displayed moves of other seats: `due` says how long the next one
 * must still wait, `sleep` waits that long, or less if the pace is changed meanwhile
 * (the caller then asks `due` again, of the new pace). */
export class Pacer {
  name: PaceName = keptPace();
  private lastShown = 0;
  private wake: (() => void) | null = null;

  /** Milliseconds the next other seat's move must still wait, with `waiting` updates
   * queued (0 or less: show it now). */
  due(waiting: number): number {
    const pace = PACES[this.name];
    return this.lastShown + (waiting > CATCH_UP ? pace / 3 : pace) - performance.now();
  }

  /** A move was put on screen now. */
  shown(): void {
    this.lastShown = performance.now();
  }

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        if (this.wake === done) this.wake = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wake = done;
    });
  }

  /** Use the pace `name` from now on (a move waiting is measured again). */
  choose(name: PaceName): void {
    this.name = name;
    this.wake?.();
  }
}

/** The settings' pace control (`#pace` in the page's header): shows the kept choice,
 * keeps and applies a new one, and follows a choice made in another tab. */
export function paceSetting(pacer: Pacer): void {
  const select = byId<HTMLSelectElement>("pace");
  replace(
    select,
    NAMES.map((n) => h("option", { value: n }, _(WORDS[n]))),
  );
  select.value = pacer.name;
  select.addEventListener("change", () => {
    const name = NAMES.find((n) => n === select.value) ?? DEFAULT_PACE;
    prefs.setPace(name);
    pacer.choose(name);
  });
  window.addEventListener("storage", (e) => {
    if (e.key !== PACE_KEY && e.key !== null) return;
    pacer.choose(keptPace());
    select.value = pacer.name;
  });
}

/** The settings panel lies over the top of the page: a tap or click anywhere else closes
 * it, as Esc inside it does (the focus back on its summary), so that a phone need not aim
 * at "Settings" again to see the grid under it. */
export function closeSettingsOutside(): void {
  const settings = byId<HTMLDetailsElement>("settings");
  document.addEventListener(
    "pointerdown",
    (e) => {
      if (settings.open && !settings.contains(e.target as Node)) settings.open = false;
    },
    true,
  );
  settings.addEventListener("keydown", (e) => {
    if (e.key !== "Escape" || !settings.open) return;
    settings.open = false;
    settings.querySelector("summary")?.focus();
  });
}
