/** The board's geometry (RULES.md section 2): pawn spaces, the lines they face, movement. */

export const SPACES = 20;
export const CORNER_SPACES = [0, 5, 10, 15];

/** Where a pawn on `start` stops after `steps` spaces clockwise, jumping the spaces of
 * the `others` pawns without counting them (RULES.md 4.1): the space and those jumped. */
export function walk(start: number, steps: number, others: readonly number[]): [number, number[]] {
  let pos = start;
  const skipped: number[] = [];
  while (steps > 0) {
    pos = (pos + 1) % SPACES;
    if (others.includes(pos)) skipped.push(pos);
    else steps -= 1;
  }
  return [pos, skipped];
}

/** The line a pawn on `space` takes from (`col1`..`col4`, `row1`..`row4`), or null at a
 * corner. */
export function lineOf(space: number): string | null {
  if (space % 5 === 0) return null;
  if (space < 5) return `col${space}`;
  if (space < 10) return `row${space - 5}`;
  if (space < 15) return `col${15 - space}`;
  return `row${20 - space}`;
}

/** The cell beside the grid where a pawn on `space` stands, in an 8 x 8 frame whose
 * rows and columns 1..6 are the grid: [row, col]. */
export function spaceCell(space: number): [number, number] {
  if (space <= 5) return [0, space + 1];
  if (space < 10) return [space - 4, 7];
  if (space <= 15) return [7, 16 - space];
  return [21 - space, 0];
}

/** The grid slots [row, col] of a line. */
export function lineCells(line: string): [number, number][] {
  const n = Number(line.slice(3));
  const cells: [number, number][] = [];
  for (let i = 0; i < 6; i++) cells.push(line.startsWith("col") ? [i, n] : [n, i]);
  return cells;
}
