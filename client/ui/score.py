"""The end of a game on the table screen: the score table (paged with Up/Down), the
result of a game that ended before its last card, and the rematch line.

Drawn from what the table screen hands in (the view, the seats, the names), so the
end reads alike for players and spectators and can be tested without a terminal.
"""

from __future__ import annotations

from collections.abc import Sequence

from client.i18n import N_, _, fmt_number, ngettext
from protocol import messages as m

from .render import (
    Cards,
    Line,
    colour_word,
    render_scores,
    seat_label,
    seat_status,
    shown_name,
    wrap,
    wrap_items,
)

__all__ = ["ENDED", "ended_lines", "rematch_line", "score_lines", "seat_end_lines"]

ENDED = {
    "played_out": N_("played to the end"),
    "resigned": N_("resigned"),
    "timed_out": N_("ran out of time, a computer took over"),
    "claimed": N_("claimed the win"),
    "lost_claim": N_("was away, the win was claimed"),
    "abandoned": N_("left, the game was abandoned"),
}
"""1.4's ``ended`` codes of a seat, in words."""


def score_lines(
    view: m.GameView,
    cards: Cards,
    catalogue: m.Catalogue,
    names: Sequence[str | None],
    width: int,
    rows: int,
    *,
    scroll: int,
    allow_lobby: bool,
    rematch: str | None,
    seats: Sequence[m.SeatInfo] = (),
) -> tuple[list[Line], int]:
    """The final score table in ``rows`` lines from line ``scroll`` on, the keys and
    the ``rematch`` line at the bottom; and the scroll kept within the table. When the
    table does not fit, its TOTAL line stays in sight under "more lines" (who won by
    how much is never a page away), and once the players' names have scrolled away
    their line stays on top."""
    body = render_scores(view, cards, catalogue, names, width) + seat_end_lines(view, seats, width)
    keys = [_("g: show the board"), _("v: review the game"), _("Up/Down: scroll"), _("?: help")]
    keys += [_("Enter/q: back to the lobby")] if allow_lobby else [_("q: quit")]
    foot = wrap_items(keys, width)
    if rematch is not None:
        foot = wrap([("bold", rematch)], width) + foot
    room = rows - len(foot)
    if len(body) > room:
        head = next((i for i, line in enumerate(body) if _starts(line, _("ingredient"))), None)
        total = next((i for i, line in enumerate(body) if _starts(line, _("TOTAL"))), None)
        roomy = room >= 5  # pinning leaves rows for the table itself
        scroll = max(0, min(scroll, len(body) - room + 1 + (head is not None and roomy)))
        # scrolled past the players' names: they stay on top, naming the columns
        top = [body[head]] if roomy and head is not None and scroll > head else []
        window = room - 1 - len(top)  # a line for "more lines"
        pin = roomy and total is not None and not scroll <= total < scroll + window
        end = scroll + window - pin
        rest = len(body) - end - (pin and total is not None and total >= end)
        words = (
            ngettext("{n} more line (Down)", "{n} more lines (Down)", rest).format(n=rest)
            if rest
            else _("end (Up: back)")
        )
        more: Line = [("fg:#808080 italic", words)]
        # the TOTAL line, out of its place, comes after "more lines": the sum of them all
        body = [
            *top,
            *body[scroll:end],
            more,
            *([body[total]] if pin and total is not None else []),
        ]
    else:
        scroll = 0
    return body + [[] for _ in range(room - len(body))] + foot, scroll


def seat_end_lines(view: m.GameView, seats: Sequence[m.SeatInfo], width: int) -> list[Line]:
    """1.4: how the game ended for each seat, the takes a computer made for it and its
    rating's change; nothing when every seat simply played to the end unrated."""
    notable = any(
        (s.ended or "played_out") != "played_out" or s.computer_takes or s.rating_after is not None
        for s in seats
    )
    if not notable:
        return []
    names = [s.name for s in seats]
    lines: list[Line] = [[], [("bold", _("How each seat ended"))]]
    for s in seats:
        ended = s.ended or ""
        said = [_(ENDED[ended]) if ended in ENDED else ended] if ended else []
        if s.computer_takes:
            n = s.computer_takes
            said.append(ngettext("the computer made {n} take", "the computer made {n} takes", n))
            said[-1] = said[-1].format(n=n)
        if s.rating_after is not None:
            before = _("new") if s.rating_before is None else fmt_number(s.rating_before)
            change = s.rating_after - (s.rating_before or 0.0)
            signed = ("+" if change >= 0 else "-") + fmt_number(abs(change))
            said.append(
                _("rating {before} -> {after} ({change})").format(
                    before=before, after=fmt_number(s.rating_after), change=signed
                )
            )
        who = seat_label(view.colours, s.seat, names)
        how = "; ".join(said) or _("played")
        lines += wrap([("", f"  {who}: {how}")], width)
    return lines


def _starts(line: Line, word: str) -> bool:
    return bool(line) and line[0][1].startswith(word)


def ended_lines(
    view: m.GameView,
    ended: str,
    seats: Sequence[m.SeatInfo],
    width: int,
    rows: int,
    *,
    allow_lobby: bool,
) -> list[Line]:
    """The result of a game that ended before its last card (a resignation, told by
    a 1.0 server): who ended it, who sat where, and the way out."""
    names = [shown_name(s) for s in seats]
    lines: list[Line] = [[], [("bold", ended)]]
    if view.players == 2:
        still = [s for s in seats if not s.resigned]
        if len(still) == 1:
            won = seat_label(view.colours, still[0].seat, names)
            lines.append([("bold", _("Winner: {who}").format(who=won))])
    lines.append([])
    for s in seats:
        how = seat_status(s)[1]
        lines.append([("", f"  {seat_label(view.colours, s.seat, names)}: {how}")])
    lines.append([("fg:#808080", "  " + _("(no score: the game was not played to its end)"))])
    keys = [_("g: the board as it was"), _("c: chat"), _("?: help")]
    keys += [_("Enter/q: back to the lobby")] if allow_lobby else [_("Enter/q: quit")]
    body = [piece for line in lines for piece in wrap(line, width)]
    foot = [[], *wrap_items(keys, width)]
    return body[: rows - len(foot)] + [[] for _ in range(rows - len(foot) - len(body))] + foot


def rematch_line(
    view: m.GameView, seats: Sequence[m.SeatInfo], asked_by_me: bool, width: int = 80
) -> str:
    """Who has asked for a rematch, and the key to ask or withdraw; in one line of
    ``width`` in fewer words where the whole would wrap (a row more of the scores)."""
    names = [shown_name(s) for s in seats]
    asked = [seat_label(view.colours, s.seat, names) for s in seats if s.rematch]
    key = _("r: withdraw") if asked_by_me else _("r: ask for it")
    by = _("asked by {who}.").format(who=", ".join(asked))
    line = _("Rematch (same people, colours move on):") + " "
    line += f"{by} " if asked else _("nobody has asked yet.") + " "
    if len(line + key) <= width:
        return line + key
    head = _("Rematch (colours move on):") + " "
    short = f"{by} " if asked else _("nobody asked yet.") + " "
    if len(f"{head}{short}{key}") > width and asked:  # no names
        colours = ", ".join(colour_word(view.colours[s.seat]) for s in seats if s.rematch)
        short = _("asked by {who}.").format(who=colours) + " "
    return f"{head}{short}{key}"
