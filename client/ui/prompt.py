"""The words under the board: the clock, who is away, where the chosen card sends the
pawn, the connection's trouble.

Pure functions of what the table screen hands in, so each sentence can be read and
tested on its own; the table screen only puts them under its prompt.
"""

from __future__ import annotations

from collections.abc import Sequence

from protocol import messages as m

from .render import colour_word, seat_label, wrap_items
from .table import Landing, line_words

__all__ = [
    "NEED_SERVER",
    "away_words",
    "clock_lines",
    "clock_words",
    "connection_words",
    "key_words",
    "landing_words",
    "timeout_words",
]

NEED_SERVER = frozenset({"enter", " ", "c", "R", "w", "b"})
"""The table's keys that only a connected client can act on (take, chat, resign,
claim, back): while the connection is gone they do nothing, and ``key_words`` does not
offer them."""


def clock_words(
    view: m.GameView | None,
    me: int | None,
    names: Sequence[str | None],
    elapsed: float,
    *,
    short: bool = False,
) -> str | None:
    """The running seat's time, ``elapsed`` seconds after the view said it; ``short``:
    the time alone (``Your clock: 0:23.``)."""
    c = view.clock if view is not None and not view.game_over else None
    if view is None or c is None or c.running is None or c.running >= len(c.left_ms):
        return None
    left = max(0.0, c.left_ms[c.running] / 1000 - elapsed)
    clock = f"{int(left) // 60}:{int(left) % 60:02d}"
    if short:
        who = "Your clock" if c.running == me else f"Clock: {colour_word(view.colours[c.running])}"
        return f"{who}: {clock}." if c.running == me else f"{who} {clock}."
    if c.running == me:
        return f"Your clock: {clock} left, then a computer moves for you."
    return f"Clock: {seat_label(view.colours, c.running, names)} has {clock} left."


def clock_lines(
    view: m.GameView | None,
    me: int | None,
    names: Sequence[str | None],
    elapsed: float,
    width: int = 80,
    *,
    merge: bool = False,
) -> list[tuple[str, str]]:
    """The clock line and the time-out warning (``timeout_words``), each with its
    style; ``merge`` (the side panel under the grid: rows are few) both in one line of
    ``width``, in fewer words where the whole does not fit (``Your clock: 0:23. You
    timed out 1 of 3 in a row, then away.``; "you": the clock may be another seat's):
    a second line would push the "since your take" lines off the screen."""
    clock = clock_words(view, me, names, elapsed)
    warning = timeout_words(view, me, width)
    c = view.clock if view is not None else None
    apart = [("fg:#87afd7 bold", clock)] if clock else []
    apart += [("fg:#ff8700 bold", warning)] if warning else []
    if not merge or clock is None or warning is None or c is None or me is None:
        return apart
    time = clock_words(view, me, names, elapsed, short=True)
    merged = f"{time} You timed out {c.timeouts[me]} of {c.absent_after} in a row, then away."
    for text in (f"{clock} {warning}", merged):
        if len(text) <= width:
            return [("fg:#ff8700 bold", text)]
    return apart


def timeout_words(view: m.GameView | None, me: int | None, width: int = 80) -> str | None:
    """The warning for a seat whose time ran out on its last turns (1.2 ``clock.timeouts``):
    how many in a row, and at how many a computer takes the seat, in one line of 60
    columns (wider: what starts the count again). Nothing once the count is 0 or the
    seat is already taken (the away line says so then)."""
    c = view.clock if view is not None and not view.game_over else None
    if c is None or me is None or me >= len(c.timeouts):
        return None
    n, limit = c.timeouts[me], c.absent_after
    if not 0 < n < limit:
        return None
    times = f"once: at {limit} in a row" if n == 1 else f"{n} in a row: at {limit}"
    text = f"Timed out {times}, a computer takes your seat."
    return text + (" Your own take starts the count again." if width >= 100 else "")


def away_words(
    view: m.GameView | None,
    seats: Sequence[m.SeatInfo],
    me: int | None,
    *,
    replaced_me: bool,
    width: int = 80,
) -> str | None:
    """Who the game waits for, when their connection is gone; who is away while a
    computer plays for them, in one line of ``width`` where the whole does not fit (on
    a small terminal a second line would push the log off the screen)."""
    v = view
    if v is None or v.game_over or v.to_move is None or v.to_move >= len(seats):
        return None
    names = [s.name for s in seats]
    info = seats[v.to_move]
    if replaced_me:
        whole = "A computer plays your seat (your time ran out): b takes it back."
        return whole if len(whole) <= width else "A computer plays your seat: b takes it back."
    away = [s.seat for s in seats if s.absent and s.seat != me and not s.resigned]
    if away:  # every one of them: a second seat away is news too
        who = " and ".join(seat_label(v.colours, s, names) for s in away)
        # ``w: claim the win`` is on the key line (``key_words``), once
        are = "is" if len(away) == 1 else "are"
        text = f"{who} {are} away: a computer plays for them"
        whole = f"{text} until they come back."
        if len(whole) <= width or len(text) < width:
            return whole if len(whole) <= width else f"{text}."
        colours = " and ".join(colour_word(v.colours[s]) for s in away)  # no names
        return f"{colours} {are} away: a computer plays for them."
    if info.connected or info.bot or info.resigned or v.to_move == me:
        return None
    who = seat_label(v.colours, v.to_move, names)
    said = (  # in one line where the whole would wrap: "Waiting for ..." is above it
        f"{who} is away (the connection is gone): the game waits for them; a "
        "computer takes over if they stay away.",
        f"{who} is away: the game waits, then a computer plays.",
        f"{colour_word(v.colours[v.to_move])} is away: the game waits, then a computer plays.",
    )
    return next((text for text in said if len(text) <= width), said[-1])


def landing_words(land: Landing, width: int = 80) -> tuple[str, str]:
    """The preview of the card under the cursor, with its style (a lost turn stands
    out); in fewer words where the whole does not fit in one line of ``width`` (on a
    small terminal a second line would push the log off the screen)."""
    if land.last:
        return "fg:#87afd7", "This card is the last of its line: taking it ends the game."
    style = "fg:#ff8700" if land.line is None else "fg:#87afd7"
    where = f"by {line_words(land.line)}" if land.line else "on a corner: a lost turn"
    when = "with the wand, at once" if land.wand else "next turn"
    text = f"This card on top: {when} you move {land.value}, land {where}"
    text += " (if you decline the boom)" if land.guess else ""
    if len(text) <= width:
        return style, text
    by = f"by {land.line[:3]} {land.line[3:]}" if land.line else "a corner: lost turn"
    when = "at once (wand)" if land.wand else "next turn"
    boom = " (if no boom)" if land.guess else ""
    land_by = f"land {by}" if land.line else f"land on {by}"
    short = f"This card on top: {when} you move {land.value}, {land_by}{boom}"
    shortest = f"On top: move {land.value} {when}, {by}{boom}"
    return style, short if len(short) <= width else shortest


def connection_words(conn: str, me: int | None, server_stopped: bool) -> str:
    """The prompt while the connection is not there."""
    if server_stopped:  # the host quit: the game may not come back
        return (
            f"The server has stopped: {conn}, in case it comes back with the "
            "game (a host that keeps its games). q: quit"
        )
    if me is None:
        return f"Not connected to the server: {conn}."
    return f"Not connected to the server: {conn}. Your seat is kept for you."


def key_words(
    width: int,
    *,
    allow_lobby: bool,
    over: bool,
    ended: bool,
    review: bool,
    seated: bool,
    claimable: bool,
    replaced: bool,
    choosing: bool,
    online: bool = True,
) -> list[str]:
    """The keys that work now, in words: shorter below 100 columns (two lines at 60),
    ``Enter: take`` only while ``choosing`` (a question says its own keys), and the
    symbols' legend only where it takes no line of its own (the help has it). While
    not ``online`` (the connection is gone) only what needs no server: the log, the
    help, quitting."""
    wide = width >= 100
    lobby = ["Esc: lobby"] if allow_lobby else []
    log = "PgUp/PgDn, L: log" if wide else "L: log"
    if over:
        back = "g: result" if ended else "g: score table"
        out = ["Enter/q: lobby"] if allow_lobby else ["q: quit"]
        return [back, *(["v: review the game"] if review else []), log, "?: help", *out]
    if not online:
        return [log, "?: help", "q: quit"]
    common = [log, "c: chat", "?: help & colours" if wide else "?: help"]
    if not seated:  # watching, or resigned (a computer plays on)
        return _legend([*common, *lobby, "q: quit"], width)
    extra = ["w: claim the win"] if claimable else []
    extra += ["b: back to your seat"] if replaced else []
    choose = ["arrows/hjkl, 0-5: choose" if wide else "arrows, 0-5: choose", "Enter: take"]
    return _legend([*extra, *(choose if choosing else []), *common, "R: resign", "q: quit"], width)


def _legend(items: list[str], width: int) -> list[str]:
    """``items`` and the symbols' legend, unless the legend alone would need a line."""
    legend = [*items, "* boom ~ wand"]
    return legend if len(wrap_items(legend, width)) == len(wrap_items(items, width)) else items
