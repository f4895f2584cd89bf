"""The end of a game on the table screen: the score table (paged with Up/Down), the
result of a game that ended before its last card, and the rematch line.

Drawn from what the table screen hands in (the view, the seats, the names), so the
end reads alike for players and spectators and can be tested without a terminal.
"""

from __future__ import annotations

from collections.abc import Sequence

from protocol import messages as m

from .render import Cards, Line, render_scores, seat_label, seat_status, wrap, wrap_items

__all__ = ["ended_lines", "rematch_line", "score_lines"]


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
) -> tuple[list[Line], int]:
    """The final score table in ``rows`` lines from line ``scroll`` on, the keys and
    the ``rematch`` line at the bottom; and the scroll kept within the table. When the
    table does not fit, its TOTAL line stays in sight above "more lines": who won by
    how much is never a page away."""
    body = render_scores(view, cards, catalogue, names, width)
    keys = ["g: show the board", "v: review the game", "Up/Down: scroll", "?: help"]
    keys += ["Enter/q: back to the lobby"] if allow_lobby else ["q: quit"]
    foot = wrap_items(keys, width)
    if rematch is not None:
        foot = wrap([("bold", rematch)], width) + foot
    room = rows - len(foot)
    if len(body) > room:
        scroll = max(0, min(scroll, len(body) - room + 1))
        end = scroll + room - 1
        total = next((i for i, line in enumerate(body) if _is_total(line)), None)
        shown = body[scroll:end]
        if total is not None and not scroll <= total < end and len(shown) > 1:
            end -= 1  # the TOTAL line takes the window's last line
            shown = [*body[scroll:end], body[total]]
        rest = len(body) - end - (total is not None and total >= end)
        words = f"{rest} more line{'s' if rest != 1 else ''} (Down)" if rest else "end (Up: back)"
        more: Line = [("fg:#808080 italic", words)]
        body = [*shown, more]
    else:
        scroll = 0
    return body + [[] for _ in range(room - len(body))] + foot, scroll


def _is_total(line: Line) -> bool:
    return bool(line) and line[0][1].startswith("TOTAL")


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
    names = [s.name for s in seats]
    lines: list[Line] = [[], [("bold", ended)]]
    if view.players == 2:
        still = [s for s in seats if not s.resigned]
        if len(still) == 1:
            lines.append([("bold", f"Winner: {seat_label(view.colours, still[0].seat, names)}")])
    lines.append([])
    for s in seats:
        how = seat_status(s)[1]
        lines.append([("", f"  {seat_label(view.colours, s.seat, names)}: {how}")])
    lines.append([("fg:#808080", "  (no score: the game was not played to its end)")])
    keys = ["g: the board as it was", "c: chat", "?: help"]
    keys += ["Enter/q: back to the lobby"] if allow_lobby else ["Enter/q: quit"]
    body = [piece for line in lines for piece in wrap(line, width)]
    foot = [[], *wrap_items(keys, width)]
    return body[: rows - len(foot)] + [[] for _ in range(rows - len(foot) - len(body))] + foot


def rematch_line(view: m.GameView, seats: Sequence[m.SeatInfo], asked_by_me: bool) -> str:
    """Who has asked for a rematch, and the key to ask or withdraw."""
    names = [s.name for s in seats]
    asked = [seat_label(view.colours, s.seat, names) for s in seats if s.rematch]
    line = "Rematch (same people, colours move on): "
    line += f"asked by {', '.join(asked)}. " if asked else "nobody has asked yet. "
    return line + ("r: withdraw" if asked_by_me else "r: ask for it")
