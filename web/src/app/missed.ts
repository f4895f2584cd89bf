/**
 * The moves missed while the page was away (protocol 1.4's `missed`), as updates to show
 * one after the other at the pace of live moves, as if the person had watched: the grid
 * with each take's mark, the line under it, the log's lines, and then the decision.
 *
 * A missed step carries only the events that led to its state. Its view is made here,
 * backward from the view the page holds now, each later step's events undone in turn: a
 * take puts its card back in its slot and out of its kettle, a refill empties the slot
 * and gives the card back to the deck, a boom gives the card back to the kettle it left,
 * a pawn goes back. What the events do not say stays as it is now: the clocks, and the
 * top card under a take that the page never saw (one a boom uncovered, or one from
 * before a reload); such a kettle shows its later top card until the step that shows it.
 */
import type { GameEvent, GameView, MissedMsg, MissedStep, UpdateMsg } from "../lib/protocol";

/** The steps of `m` up to `now` (the fresh view this page holds), each with its view;
 * the last one is `now` itself, with its step's events. `old`: the view the page showed
 * before it was away (state `m.since`), if it still has it. */
export function missedUpdates(m: MissedMsg, now: UpdateMsg, old: GameView | null): UpdateMsg[] {
  const steps = (m.steps ?? []).filter(
    (s) => s.state_version > m.since && s.state_version <= now.state_version,
  );
  if (!steps.length || steps[steps.length - 1].state_version !== now.state_version) return [];
  const out: UpdateMsg[] = [];
  let view = now.view;
  for (let k = steps.length - 1; k >= 0; k--) {
    const s = steps[k];
    out.push({
      ...(k === steps.length - 1 ? now : { type: "update", state_version: s.state_version }),
      view,
      events: s.events ?? [],
      by_computer: s.by_computer ?? false,
    });
    view = undo(view, s.events ?? [], steps.slice(0, k), old);
  }
  return out.reverse();
}

/** The view before `events` (those of one step), `earlier` the steps before it. */
function undo(
  v: GameView,
  events: readonly GameEvent[],
  earlier: readonly MissedStep[],
  old: GameView | null,
): GameView {
  const grid = v.grid.map((row) => [...row]);
  const pawns = [...v.pawns];
  const kettles = v.kettles.map((k) => ({ ...k, cards: k.cards ? [...k.cards] : k.cards }));
  let deck = v.deck_size;
  let removed = [...v.removed];
  const discarded = events.some((e) => e.kind === "discarded");
  for (const ev of [...events].reverse()) {
    if (ev.kind === "refilled") {
      grid[ev.row][ev.col] = null;
      deck += 1;
    } else if (ev.kind === "took") {
      grid[ev.row][ev.col] = ev.card;
      const k = kettles[ev.seat];
      if (k && !discarded) {
        k.count = Math.max(0, k.count - 1);
        k.top = topBefore(ev.seat, earlier, old) ?? k.top;
        if (k.cards) k.cards = k.cards.filter((c) => c !== ev.card);
      }
    } else if (ev.kind === "discarded") {
      removed = removed.filter((c) => c !== ev.card);
    } else if (ev.kind === "exploded") {
      const k = kettles[ev.target];
      if (k) {
        k.count += 1;
        k.top = ev.card;
        if (k.cards) k.cards = [...k.cards, ev.card];
      }
      if (ev.to === "removed") removed = removed.filter((c) => c !== ev.card);
      else deck -= 1;
    } else if (ev.kind === "moved") pawns[ev.seat] = ev.from_space;
  }
  const toMove = turnAfter(earlier) ?? old?.to_move ?? firstSeat(events);
  return {
    ...v,
    grid,
    pawns,
    kettles,
    deck_size: deck,
    removed,
    to_move: toMove,
    takes: null,
    choices: [],
    explodable: [],
    line: null,
    turn_in_row: 1,
    game_over: false,
    result: null,
    scores: null,
    winners: [],
    clock: v.clock ? { ...v.clock, running: toMove } : v.clock,
  };
}

/** `seat`'s top card before its take: the card of its take before (if no boom took it
 * away since), or the old view's when the steps hold none (null: not known). */
function topBefore(
  seat: number,
  earlier: readonly MissedStep[],
  old: GameView | null,
): string | null {
  for (let k = earlier.length - 1; k >= 0; k--) {
    const events = earlier[k].events ?? [];
    for (let i = events.length - 1; i >= 0; i--) {
      const ev = events[i];
      if (ev.kind === "exploded" && ev.target === seat) return null; // what it uncovered
      if (ev.kind === "took" && ev.seat === seat) return ev.card;
    }
  }
  return old?.kettles[seat]?.top ?? null;
}

/** The seat whose turn the last of `steps` passed to (null: none). */
function turnAfter(steps: readonly MissedStep[]): number | null {
  for (let k = steps.length - 1; k >= 0; k--) {
    const events = steps[k].events ?? [];
    for (let i = events.length - 1; i >= 0; i--) {
      const ev = events[i];
      if (ev.kind === "turn_passed") return ev.seat;
    }
  }
  return null;
}

function firstSeat(events: readonly GameEvent[]): number | null {
  const ev = events.find((e) => e.kind === "took" || e.kind === "moved");
  return ev && "seat" in ev ? ev.seat : null;
}
