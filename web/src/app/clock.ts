/** A seat's clock in words, counted down on the page between two views of the game. */
import type { GameView } from "../lib/protocol";
import { _ } from "./i18n";

/** `1:30 left, running`; `2:45 left, 2:00 of it reserve` on a clock with a reserve.
 * `view` came `performance.now() - viewAt` ms ago: the running clock has gone on since. */
export function clockWords(view: GameView | null, viewAt: number, seat: number): string {
  const clock = view?.clock;
  if (!clock) return "";
  let left = clock.left_ms[seat] ?? 0;
  if (clock.running === seat && !view.game_over)
    left = Math.max(0, left - (performance.now() - viewAt));
  const s = Math.ceil(left / 1000);
  // left_ms is the move's time and the reserve together: the reserve is a part of
  // it (what is left of it once the move's own time is used up), not time on top
  const reserve = Math.min(clock.reserve_ms[seat] ?? 0, left);
  const fields = { time: fmt(s), reserve: fmt(Math.ceil(reserve / 1000)) };
  const said = clock.reserve_ms[seat]
    ? _("{time} left, {reserve} of it reserve", fields)
    : _("{time} left", fields);
  return clock.running === seat ? _("{clock}, running", { clock: said }) : said;
}

/** Every clock on the screen (`data-clock`: its seat) says its time left again; one
 * whose words are the same is left alone (no text replaced, nothing laid out anew). */
export function tickClocks(root: HTMLElement, words: (seat: number) => string): void {
  for (const el of root.querySelectorAll<HTMLElement>("[data-clock]")) {
    const now = words(Number(el.dataset.clock));
    if (el.textContent !== now) el.textContent = now;
  }
}

function fmt(s: number): string {
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}
