/**
 * Replaying a finished game's record (protocol 1.2's `record`) without the server: the
 * position after each take, by the rules of RULES.md sections 4 and 5 (the forced move,
 * corners, the take, boom and wand, the refill, the game-ending card).
 *
 * A record holds only the deal and the takes; everything else follows from the rules,
 * so a client that shows a past game steps through these frames. The cards' values and
 * symbols come from the server's catalogue (`welcome.catalogue`).
 */
import { lineCells, lineOf, walk } from "./geometry";
import type { Catalogue, GameRecordInfo, RecordActionInfo } from "./protocol";

/** The position after a step, and what that step did. */
export interface ReplayFrame {
  /** 6 x 6 card ids, null for an empty slot or a corner. */
  grid: (string | null)[][];
  /** Each seat's kettle, bottom first (the top is the last). */
  kettles: string[][];
  pawns: number[];
  /** The seat to move next (null once the game is over). */
  toMove: number | null;
  deck: number;
  /** The take that led here: who took which card from where (null: the start). */
  took: { seat: number; card: string; row: number; col: number; keep: boolean } | null;
  /** Cards knocked off kettles by this take's boom: [seat, card]. */
  exploded: [number, string][];
  over: boolean;
}

/** A record action that is not legal in its position. */
export class ReplayError extends Error {
  constructor(
    readonly index: number,
    message: string,
  ) {
    super(`actions[${index}]: ${message}`);
    this.name = "ReplayError";
  }
}

/** Every frame of `record`: the start (after the first forced move), then one per take. */
export function replayRecord(record: GameRecordInfo, catalogue: Catalogue): ReplayFrame[] {
  const info = new Map(catalogue.cards.map((c) => [c.id, c]));
  const value = (id: string) => info.get(id)?.value ?? Number(id.split("-").pop());
  const symbol = (id: string) => info.get(id)?.symbol ?? null;
  const s = record.setup;
  const grid = s.grid.map((row) => [...row]);
  const deck = [...s.deck].reverse(); // the top at the end: pop() draws it
  const kettles = s.kettles.map((k) => [...k]);
  const pawns = [...s.pawns];
  let toMove = s.to_move;
  let inRow = 1;
  let over = false;

  const advance = () => {
    for (;;) {
      const others = pawns.filter((_, seat) => seat !== toMove);
      const top = kettles[toMove][kettles[toMove].length - 1];
      pawns[toMove] = walk(pawns[toMove], value(top), others)[0];
      if (lineOf(pawns[toMove]) !== null) return;
      toMove = (toMove + 1) % pawns.length;
      inRow = 1;
    }
  };
  const count = (line: string) => lineCells(line).filter(([r, c]) => grid[r][c] !== null).length;
  const frame = (took: ReplayFrame["took"], exploded: [number, string][]): ReplayFrame => ({
    grid: grid.map((row) => [...row]),
    kettles: kettles.map((k) => [...k]),
    pawns: [...pawns],
    toMove: over ? null : toMove,
    deck: deck.length,
    took,
    exploded,
    over,
  });

  advance();
  const frames = [frame(null, [])];
  record.actions.forEach((a: RecordActionInfo, i: number) => {
    if (over) throw new ReplayError(i, "the game is over");
    const me = toMove;
    const line = lineOf(pawns[me])!;
    const cell = lineCells(line).find(([r, c]) => grid[r][c] === a.take);
    if (!cell) throw new ReplayError(i, `${a.take} is not in ${line}`);
    const [row, col] = cell;
    const lines = [`col${col}`, `row${row}`].filter((l) => /[1-4]$/.test(l));
    const ending = deck.length === 0 && lines.some((l) => count(l) === 1);
    grid[row][col] = null;
    const keep = a.keep ?? true;
    const exploded: [number, string][] = [];
    if (ending) {
      if (keep) kettles[me].push(a.take);
      over = true;
      frames.push(frame({ seat: me, card: a.take, row, col, keep }, exploded));
      return;
    }
    kettles[me].push(a.take);
    const special = a.special ?? true;
    let extra = false;
    if (special && symbol(a.take) === "explode") {
      const targets = a.targets ?? kettles.map((_, t) => t);
      for (const t of targets) {
        if (t === me || kettles[t].length <= 1) continue;
        const top = kettles[t].pop()!;
        exploded.push([t, top]);
        if (deck.length) deck.unshift(top);
      }
    } else if (special && symbol(a.take) === "wand" && inRow === 1) extra = true;
    if (deck.length) grid[row][col] = deck.pop()!;
    if (extra) inRow = 2;
    else {
      toMove = (me + 1) % pawns.length;
      inRow = 1;
    }
    advance();
    frames.push(frame({ seat: me, card: a.take, row, col, keep: true }, exploded));
  });
  return frames;
}
