/**
 * An update split into the moves a person at the table sees one after the other. The
 * server sends one update for a take and what follows it by itself: the next seats'
 * corner stops (or the taker's own, in the extra turn of a wand) (a pawn that stops beside a corner takes nothing, and the turn goes on at
 * once). Shown as one, such a stop would come in the same moment as the take before it,
 * with no pause, and the last move said would still be the take; split, each stop is a
 * move of its own, shown at the pace of a take (`pace.ts`).
 *
 * The view of each step but the last is the update's view with the later steps' pawn
 * moves undone and the turn at the seat whose stop comes next: a corner stop changes
 * nothing else (no card is taken, no kettle changes).
 */
import type { GameEvent, GameView, UpdateMsg } from "../lib/protocol";

/** `u` as the steps to show, in order (`u` itself when it holds one move). */
export function steps(u: UpdateMsg): UpdateMsg[] {
  const events = u.events ?? [];
  if (u.view.game_over) return [u];
  // a step begins where a turn begins (the next seat's, or a wand's extra one) that
  // then stops beside a corner
  const begins = (e: GameEvent) => e.kind === "turn_passed" || e.kind === "extra_turn";
  const starts = [0];
  events.forEach((ev, i) => {
    if (!begins(ev) || i === 0) return;
    const end = events.findIndex((e, j) => j > i && begins(e));
    const turn = events.slice(i, end < 0 ? events.length : end);
    if (turn.some((e) => e.kind === "passed_corner")) starts.push(i);
  });
  if (starts.length === 1) return [u];
  return starts.map((start, k) => {
    const end = starts[k + 1] ?? events.length;
    const later = events.slice(end);
    return {
      ...u,
      re: k === 0 ? u.re : null, // the answer to one's own take is its first step
      events: events.slice(start, end),
      view: later.length ? before(u.view, later) : u.view,
    };
  });
}

/** True when `events` hold a corner stop: a move of its own, paced as a take is. */
export function stopsAtCorner(events: readonly GameEvent[] | null | undefined): boolean {
  return !!events?.some((e) => e.kind === "passed_corner");
}

/** `view` as it was before `later` (turns that take nothing): their pawn moves undone,
 * the turn at the seat the first of them passes to, nothing to take yet. */
function before(view: GameView, later: readonly GameEvent[]): GameView {
  const pawns = [...view.pawns];
  for (const ev of [...later].reverse()) if (ev.kind === "moved") pawns[ev.seat] = ev.from_space;
  const first = later[0];
  const toMove =
    first.kind === "turn_passed" || first.kind === "extra_turn"
      ? first.seat
      : (view.to_move ?? null);
  return {
    ...view,
    pawns,
    to_move: toMove,
    takes: null,
    choices: [],
    explodable: [],
    line: null,
    turn_in_row: 1,
    clock: view.clock ? { ...view.clock, running: toMove } : view.clock,
  };
}
