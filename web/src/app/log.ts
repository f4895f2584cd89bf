/**
 * The game log of one seat (or a spectator) at one table, and what the table's memory
 * rule lets it show (RULES.md section 9): with strict memory, what happened since the
 * seat's last decision, from the start of the last turn in which it chose a card (a
 * corner stop or a computer's move for it decides nothing, so every take is seen before
 * the seat chooses again); a spectator follows the seat to move; with casual memory the
 * whole game. Only what may be shown is kept in the browser's storage.
 */
import type { GameEvent } from "../lib/protocol";

export interface LogEntry {
  kind: string;
  seat?: number;
  text: string;
  row?: number;
  col?: number;
  refill?: [number, number];
  /** The log index at which the turn of this entry began. */
  start?: number;
  /** A take the seat chose (false: a computer moved for it after a time-out). */
  decided?: boolean;
  /** A take of the game's last card that its taker discarded (kept out of the kettle). */
  discarded?: boolean;
  /** A take whose boom hit kettles: what each lost, in words. */
  booms?: string[];
}

interface Saved {
  log: LogEntry[];
  /** The state version of the last update logged (absent in logs saved before it). */
  version?: number;
  turnStart: number;
  turnSeat: number | null;
}

export class GameLog {
  entries: LogEntry[] = [];
  /** The state version of the last update logged (-1: not known). */
  version = -1;
  private turnStart = 0;
  private turnSeat: number | null = null;

  /** Log the events of one update, each in `words` (null: not logged); returns the
   * entries added, the take among them (with the slot its refill filled and what its
   * boom hit), and the last move among them: that take, or a corner stop after it. A
   * take of a seat in `computer` (a computer plays it now: away, or resigned with three
   * players), or one the update says a computer made (`byComputer`, 1.4), decides
   * nothing for it. */
  add(
    events: readonly GameEvent[],
    words: (ev: GameEvent) => string | null,
    computer: ReadonlySet<number> = new Set(),
    byComputer = false,
  ): { added: LogEntry[]; took: LogEntry | null; move: LogEntry | null } {
    const added: LogEntry[] = [];
    let took: LogEntry | null = null;
    let move: LogEntry | null = null;
    let timedOut = false; // a computer moved for the seat: the take decided nothing
    for (const ev of events) {
      const seat = "seat" in ev ? ev.seat : undefined;
      if (ev.kind === "turn_passed" || (ev.kind === "moved" && this.turnSeat !== ev.seat)) {
        this.turnSeat = ev.seat;
        this.turnStart = this.entries.length;
      }
      if (ev.kind === "timed_out") timedOut = true;
      const text = words(ev);
      if (text === null) continue;
      const entry: LogEntry = { kind: ev.kind, seat, text, start: this.turnStart };
      if (ev.kind === "took") {
        entry.row = ev.row;
        entry.col = ev.col;
        entry.decided = !timedOut && !byComputer && !computer.has(ev.seat);
        took = entry;
      }
      if (ev.kind === "took" || ev.kind === "passed_corner") move = entry;
      if (ev.kind === "exploded" && took) (took.booms ??= []).push(text);
      if (ev.kind === "refilled" && took) took.refill = [ev.row, ev.col];
      if (ev.kind === "discarded" && took) took.discarded = true;
      this.entries.push(entry);
      added.push(entry);
    }
    return { added, took, move };
  }

  /** A line that is no move: a resignation, a seat taken over, a note. */
  note(kind: string, text: string, seat?: number): void {
    this.entries.push({ kind, seat, text, start: this.turnStart });
  }

  /** The entries `seat` may see (null: a spectator, who follows `toMove`). */
  visible(seat: number | null, toMove: number | null, casual: boolean): LogEntry[] {
    if (casual && seat !== null) return this.entries;
    const i = this.lastDecision(seat ?? toMove ?? 0);
    return i < 0 ? this.entries : this.entries.slice(this.entries[i].start ?? 0);
  }

  /** What happened since `seat`'s last take: from the next seat's move on. */
  since(seat: number): LogEntry[] {
    const log = this.entries;
    const i = this.lastDecision(seat);
    let j = i + 1;
    if (i >= 0) while (j < log.length && !(log[j].kind === "moved" && log[j].seat !== seat)) j++;
    return log.slice(Math.max(0, j));
  }

  lastTook(): LogEntry | null {
    return [...this.entries].reverse().find((e) => e.kind === "took") ?? null;
  }

  /** The last move: a take, or a corner stop. */
  lastMove(): LogEntry | null {
    return (
      [...this.entries].reverse().find((e) => e.kind === "took" || e.kind === "passed_corner") ??
      null
    );
  }

  /** What may be kept for `seat` (the visible entries, their indices shifted); for a
   * spectator (null), who follows the seat to move, what any of the `players` seats may
   * see. */
  save(seat: number | null, casual: boolean, players = 3): Saved {
    const seen = (s: number) => this.entries.length - this.visible(null, s, casual).length;
    const offset =
      seat !== null ? seen(seat) : Math.min(...Array.from({ length: players }, (_, s) => seen(s)));
    const keep = this.entries.slice(offset);
    return {
      log: keep.map((e) => ({ ...e, start: Math.max(0, (e.start ?? 0) - offset) })),
      version: this.version,
      turnSeat: this.turnSeat,
      turnStart: Math.max(0, this.turnStart - offset),
    };
  }

  /** A log as `save` kept it (an unreadable one: empty). */
  static load(data: unknown): GameLog {
    const log = new GameLog();
    const saved = data as Partial<Saved> | null;
    if (saved && Array.isArray(saved.log)) {
      log.entries = saved.log;
      log.turnStart = saved.turnStart ?? 0;
      log.turnSeat = saved.turnSeat ?? null;
      log.version = typeof saved.version === "number" ? saved.version : -1;
    }
    return log;
  }

  private lastDecision(seat: number): number {
    const log = this.entries;
    let i = log.length - 1;
    while (i >= 0 && !(log[i].kind === "took" && log[i].seat === seat && log[i].decided !== false))
      i--;
    return i;
  }
}
