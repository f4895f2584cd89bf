"""The analysis of a game (``shared.analysis``) as plain text, for ``kupferkessel replay
FILE --analyse``: one line per decision, a summary per seat and a small graph of each
seat's expected margin. Seats and moves are counted from 1, as everything the commands
print counts them; the JSON keeps the indices from 0."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TextIO

from shared.analysis import Analysis, Decision, SeatSummary
from shared.game import Take

GRAPH_HEIGHT = 11
GRAPH_WIDTH = 60  # moves beyond this share a column


def seat_name(analysis: Analysis, seat: int) -> str:
    return f"{analysis.colours[seat].capitalize()} (seat {seat + 1})"


def take_words(analysis: Analysis, take: Take, listed: Sequence[Take]) -> str:
    """``take`` in a few words: the card, and what it did beyond landing on the kettle
    (``listed``: every legal take of that decision, to tell a declined symbol)."""
    same_card = [t for t in listed if t.card == take.card]
    if any(not t.keep for t in same_card):  # the card that ends the game
        return f"{take.card}, {'kept' if take.keep else 'discarded'}, ends"
    if take.special and take.targets:
        hit = " and ".join(analysis.colours[s].capitalize() for s in take.targets)
        return f"{take.card} hitting {hit}"
    if take.special:
        return f"{take.card} + extra turn"
    if len(same_card) > 1:
        return f"{take.card}, symbol unused"
    return take.card


def write_analysis(analysis: Analysis, out: TextIO, source: str) -> None:
    """The whole analysis of ``source`` (a file name) as text."""
    w = out.write
    w(
        f"Analysis of {source}: the expert's search over {analysis.budget} sampled deals a"
        f" decision (seed {analysis.seed}),\nfrom what each seat knew then. Values are the"
        " expected final margin: own total minus the best other total.\n"
    )
    marks = ", ".join(f"{name} from {least:g}" for name, least in reversed(analysis.thresholds))
    w(f"Marks by points lost: {marks}.\n\n")
    name_width = max(len(seat_name(analysis, s)) for s in range(analysis.players))
    w(f"{'move':>4}  {'player':<{name_width}}  {'take':<34} {'expert':<34} {'cost':>12}\n")
    for d in analysis.decisions:
        listed = [t.take for t in d.takes]
        mine = take_words(analysis, d.take, listed)
        best = "same" if d.best == d.take else take_words(analysis, d.best, listed)
        cost = f"{d.cost:.1f} ±{d.noise:.1f}" if d.cost else "0"
        w(
            f"{d.ply + 1:>4}  {seat_name(analysis, d.seat):<{name_width}}  {mine:<34}"
            f" {best:<34} {cost:>12}  {d.mark or ''}".rstrip()
            + "\n"
        )
    by_ply = {d.ply: d for d in analysis.decisions}
    for summary in analysis.summaries:
        w("\n")
        _write_summary(analysis, summary, by_ply, out)
    if analysis.decisions:
        w("\n")
        write_graph(analysis, out)


def _write_summary(
    analysis: Analysis, s: SeatSummary, by_ply: dict[int, Decision], out: TextIO
) -> None:
    w = out.write
    each = f" ({s.lost / s.decisions:.1f} a decision)" if s.decisions else ""
    w(
        f"{seat_name(analysis, s.seat)}: {_count(s.decisions, 'decision', 'decisions')},"
        f" {s.lost:.1f} points lost"
        f"{each}; {_count(s.inaccuracies, 'inaccuracy', 'inaccuracies')},"
        f" {_count(s.mistakes, 'mistake', 'mistakes')},"
        f" {_count(s.blunders, 'blunder', 'blunders')}\n"
    )
    if s.best is not None:
        d = by_ply[s.best]
        words = take_words(analysis, d.take, [t.take for t in d.takes])
        w(f"  best decision: move {d.ply + 1}, {words} ({d.edge:.1f} better than any other)\n")
    if s.worst is not None:
        d = by_ply[s.worst]
        listed = [t.take for t in d.takes]
        w(
            f"  worst decision: move {d.ply + 1}, {take_words(analysis, d.take, listed)}"
            f", cost {d.cost:.1f} (the expert: {take_words(analysis, d.best, listed)})\n"
        )
    if s.final is not None:
        w(f"  final margin: {s.final:+d}\n")


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def write_graph(analysis: Analysis, out: TextIO) -> None:
    """Each analysed seat's expected margin after each of its decisions, plotted with
    the seat's number against the move (several seats in one cell: ``*``)."""
    points = [(p, v, s.seat) for s in analysis.summaries for p, v in s.series]
    moves = max(p for p, _, _ in points) + 1
    top = max(0.0, max(v for _, v, _ in points))
    bottom = min(0.0, min(v for _, v, _ in points))
    span = (top - bottom) or 1.0
    width = min(moves, GRAPH_WIDTH)

    def row(v: float) -> int:
        return round((top - v) / span * (GRAPH_HEIGHT - 1))

    grid = [[" "] * width for _ in range(GRAPH_HEIGHT)]
    grid[row(0.0)] = ["-"] * width
    for ply, value, seat in points:
        r, c = row(value), ply * width // moves
        mark = str(seat + 1)
        grid[r][c] = mark if grid[r][c] in (" ", "-", mark) else "*"
    labels = {0: f"{top:+.0f}", row(0.0): "0", GRAPH_HEIGHT - 1: f"{bottom:+.0f}"}
    key = ", ".join(f"{s.seat + 1} {seat_name(analysis, s.seat)}" for s in analysis.summaries)
    out.write(f"Expected margin after each decision, by move ({key}):\n")
    for r, cells in enumerate(grid):
        out.write(f"{labels.get(r, ''):>5} |{''.join(cells).rstrip()}\n")
    out.write(f"{'':>5} +{'-' * width}\n")
    last = str(moves)
    scale = "1" + last.rjust(width - 1) if width > len(last) + 1 else f"1-{last}"
    out.write(f"{'move':>5}  {scale}\n")
