"""The analysis of a game (``shared.analysis``) as plain text, for ``kupferkessel replay
FILE --analyse``: one line per decision, a summary per seat and a small graph of each
seat's expected margin, in the language spoken, cards in the card data's words. Seats
and moves are counted from 1, as everything the commands print counts them; the JSON
keeps the indices from 0 and the card ids."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TextIO

from client.i18n import N_, _, fmt_list, fmt_number, ngettext
from shared.analysis import Analysis, Decision, SeatSummary
from shared.game import Take

from ..ui.render.cards import colour_word
from .words import card_words, seat_words

GRAPH_HEIGHT = 11
GRAPH_WIDTH = 60  # moves beyond this share a column

MARK_WORDS = {
    "inaccuracy": N_("inaccuracy"),
    "mistake": N_("mistake"),
    "blunder": N_("blunder"),
}
"""A decision's mark (``shared.analysis.MARKS``) as a word."""


def mark_word(mark: str) -> str:
    return _(MARK_WORDS[mark]) if mark in MARK_WORDS else mark


def seat_name(analysis: Analysis, seat: int) -> str:
    return seat_words(analysis.colours, seat)


def take_words(analysis: Analysis, take: Take, listed: Sequence[Take]) -> str:
    """``take`` in a few words: the card, and what it did beyond landing on the kettle
    (``listed``: every legal take of that decision, to tell a declined symbol)."""
    card = card_words(take.card)
    same_card = [t for t in listed if t.card == take.card]
    if any(not t.keep for t in same_card):  # the card that ends the game
        said = _("{card}, kept, ends") if take.keep else _("{card}, discarded, ends")
    elif take.special and take.targets:
        hit = fmt_list(colour_word(analysis.colours[s]) for s in take.targets)
        return _("{card} hitting {who}").format(card=card, who=hit)
    elif take.special:
        said = _("{card} + extra turn")
    elif len(same_card) > 1:
        said = _("{card}, symbol unused")
    else:
        return card
    return said.format(card=card)


def write_analysis(analysis: Analysis, out: TextIO, source: str) -> None:
    """The whole analysis of ``source`` (a file name) as text."""
    w = out.write
    head = _(
        "Analysis of {source}: the expert's search over {budget} sampled deals a decision"
        " (seed {seed}), from what each seat knew then. Values are the expected final"
        " margin: own total minus the best other total."
    )
    w(head.format(source=source, budget=analysis.budget, seed=analysis.seed) + "\n")
    marks = fmt_list(
        _("{mark} from {points}").format(mark=mark_word(name), points=fmt_number(least, 0))
        for name, least in reversed(analysis.thresholds)
    )
    w(_("Marks by points lost: {marks}.").format(marks=marks) + "\n\n")
    rows = []
    for d in analysis.decisions:
        listed = [t.take for t in d.takes]
        mine = take_words(analysis, d.take, listed)
        best = _("same") if d.best == d.take else take_words(analysis, d.best, listed)
        cost = f"{fmt_number(d.cost)} ±{fmt_number(d.noise)}" if d.cost else "0"
        rows.append((d, mine, best, cost))
    name_width = max(len(seat_name(analysis, s)) for s in range(analysis.players))
    heads = (_("move"), _("player"), _("take"), _("expert"), _("cost"))
    takes = max([34, len(heads[2]), *(len(r[1]) for r in rows)])
    bests = max([34, len(heads[3]), *(len(r[2]) for r in rows)])
    number = max(4, len(heads[0]))
    w(
        f"{heads[0]:>{number}}  {heads[1]:<{name_width}}  {heads[2]:<{takes}}"
        f" {heads[3]:<{bests}} {heads[4]:>12}\n"
    )
    for d, mine, best, cost in rows:
        mark = mark_word(d.mark) if d.mark else ""
        w(
            f"{d.ply + 1:>{number}}  {seat_name(analysis, d.seat):<{name_width}}  {mine:<{takes}}"
            f" {best:<{bests}} {cost:>12}  {mark}".rstrip()
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
    counts = [
        ngettext("{n} decision", "{n} decisions", s.decisions).format(n=s.decisions),
        _("{points} points lost").format(points=fmt_number(s.lost)),
    ]
    if s.decisions:
        each = fmt_number(s.lost / s.decisions)
        counts[-1] += " " + _("({points} a decision)").format(points=each)
    marks = [
        ngettext("{n} inaccuracy", "{n} inaccuracies", s.inaccuracies).format(n=s.inaccuracies),
        ngettext("{n} mistake", "{n} mistakes", s.mistakes).format(n=s.mistakes),
        ngettext("{n} blunder", "{n} blunders", s.blunders).format(n=s.blunders),
    ]
    w(f"{seat_name(analysis, s.seat)}: {', '.join(counts)}; {', '.join(marks)}\n")
    if s.best is not None:
        d = by_ply[s.best]
        words = take_words(analysis, d.take, [t.take for t in d.takes])
        said = _("best decision: move {move}, {take} ({points} better than any other)")
        w("  " + said.format(move=d.ply + 1, take=words, points=fmt_number(d.edge)) + "\n")
    if s.worst is not None:
        d = by_ply[s.worst]
        listed = [t.take for t in d.takes]
        said = _("worst decision: move {move}, {take}, cost {points} (the expert: {best})")
        w(
            "  "
            + said.format(
                move=d.ply + 1,
                take=take_words(analysis, d.take, listed),
                points=fmt_number(d.cost),
                best=take_words(analysis, d.best, listed),
            )
            + "\n"
        )
    if s.final is not None:
        w("  " + _("final margin: {margin}").format(margin=f"{s.final:+d}") + "\n")


def write_graph(analysis: Analysis, out: TextIO) -> None:
    """Each analysed seat's expected margin after each of its decisions, plotted with
    the seat's number against the move (several seats in one cell: ``*``)."""
    points = [(p, v, s.seat) for s in analysis.summaries for p, v in s.series]
    moves = max(p for p, _v, _s in points) + 1
    top = max(0.0, max(v for _p, v, _s in points))
    bottom = min(0.0, min(v for _p, v, _s in points))
    span = (top - bottom) or 1.0
    width = min(moves, GRAPH_WIDTH)

    def row(v: float) -> int:
        return round((top - v) / span * (GRAPH_HEIGHT - 1))

    grid = [[" "] * width for _r in range(GRAPH_HEIGHT)]
    grid[row(0.0)] = ["-"] * width
    for ply, value, seat in points:
        r, c = row(value), ply * width // moves
        mark = str(seat + 1)
        grid[r][c] = mark if grid[r][c] in (" ", "-", mark) else "*"
    labels = {0: f"{top:+.0f}", row(0.0): "0", GRAPH_HEIGHT - 1: f"{bottom:+.0f}"}
    key = ", ".join(f"{s.seat + 1} {seat_name(analysis, s.seat)}" for s in analysis.summaries)
    said = _("Expected margin after each decision, by move ({key}):").format(key=key)
    out.write(said + "\n")
    for r, cells in enumerate(grid):
        out.write(f"{labels.get(r, ''):>5} |{''.join(cells).rstrip()}\n")
    out.write(f"{'':>5} +{'-' * width}\n")
    last = str(moves)
    scale = "1" + last.rjust(width - 1) if width > len(last) + 1 else f"1-{last}"
    out.write(f"{_('move'):>5}  {scale}\n")
