"""The words under the board: the clock, who is away, where the chosen card sends the
pawn, the connection's trouble.

Pure functions of what the table screen hands in, so each sentence can be read and
tested on its own; the table screen only puts them under its prompt.
"""

from __future__ import annotations

from collections.abc import Sequence

from client.i18n import N_, _, fmt_list, ngettext
from protocol import messages as m

from .render import colour_word, line_words, seat_label, shown_name, wrap_items
from .table import Landing

__all__ = [
    "NEED_SERVER",
    "away_words",
    "claim_words",
    "clock_lines",
    "clock_words",
    "connection_words",
    "key_words",
    "landing_words",
    "resign_words",
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
        if c.running == me:
            return _("Your clock: {time}.").format(time=clock)
        return _("Clock: {who} {time}.").format(
            who=colour_word(view.colours[c.running]), time=clock
        )
    if c.running == me:
        return _("Your clock: {time} left, then a computer moves for you.").format(time=clock)
    return _("Clock: {who} has {time} left.").format(
        who=seat_label(view.colours, c.running, names), time=clock
    )


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
    merged = f"{time} " + _("You timed out {n} of {limit} in a row, then away.").format(
        n=c.timeouts[me], limit=c.absent_after
    )
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
    text = ngettext(
        "Timed out once: at {limit} in a row, a computer takes your seat.",
        "Timed out {n} in a row: at {limit}, a computer takes your seat.",
        n,
    ).format(n=n, limit=limit)
    return text + (" " + _("Your own take starts the count again.") if width >= 100 else "")


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
    names = [shown_name(s) for s in seats]
    info = seats[v.to_move]
    if replaced_me:
        whole = _("A computer plays your seat (your time ran out): b takes it back.")
        return whole if len(whole) <= width else _("A computer plays your seat: b takes it back.")
    away = [s.seat for s in seats if s.absent and s.seat != me and not s.resigned]
    if away:  # every one of them: a second seat away is news too
        who = fmt_list(seat_label(v.colours, s, names) for s in away)
        # ``w: claim the win`` is on the key line (``key_words``), once
        n = len(away)
        text = ngettext(
            "{who} is away: a computer plays for them.",
            "{who} are away: a computer plays for them.",
            n,
        ).format(who=who)
        whole = ngettext(
            "{who} is away: a computer plays for them until they come back.",
            "{who} are away: a computer plays for them until they come back.",
            n,
        ).format(who=who)
        if len(whole) <= width or len(text) <= width:
            return whole if len(whole) <= width else text
        colours = fmt_list(colour_word(v.colours[s]) for s in away)  # no names
        return ngettext(
            "{who} is away: a computer plays for them.",
            "{who} are away: a computer plays for them.",
            n,
        ).format(who=colours)
    if info.connected or info.bot or info.resigned or v.to_move == me:
        return None
    who = seat_label(v.colours, v.to_move, names)
    said = (  # in one line where the whole would wrap: "Waiting for ..." is above it
        _(
            "{who} is away (the connection is gone): the game waits for them; a "
            "computer takes over if they stay away."
        ).format(who=who),
        _("{who} is away: the game waits, then a computer plays.").format(who=who),
        _("{who} is away: the game waits, then a computer plays.").format(
            who=colour_word(v.colours[v.to_move])
        ),
    )
    return next((text for text in said if len(text) <= width), said[-1])


LANDING: dict[tuple[bool, bool], tuple[str, str, str]] = {
    # (a corner, the wand): the whole, in fewer words, in fewest
    (False, False): (
        N_("This card on top: next turn you move {n}, land by {line}"),
        N_("This card on top: next turn you move {n}, land by {line}"),
        N_("On top: move {n} next turn, by {line}"),
    ),
    (False, True): (
        N_("This card on top: with the wand, at once you move {n}, land by {line}"),
        N_("This card on top: at once (wand) you move {n}, land by {line}"),
        N_("On top: move {n} at once (wand), by {line}"),
    ),
    (True, False): (
        N_("This card on top: next turn you move {n}, land on a corner: a lost turn"),
        N_("This card on top: next turn you move {n}, land on a corner: lost turn"),
        N_("On top: move {n} next turn, a corner: lost turn"),
    ),
    (True, True): (
        N_("This card on top: with the wand, at once you move {n}, land on a corner: a lost turn"),
        N_("This card on top: at once (wand) you move {n}, land on a corner: lost turn"),
        N_("On top: move {n} at once (wand), a corner: lost turn"),
    ),
}
"""Where the card under the cursor sends the pawn, by whether it lands on a corner and
whether the wand moves it at once: the whole sentence, then fewer words."""


def landing_words(land: Landing, width: int = 80) -> tuple[str, str]:
    """The preview of the card under the cursor, with its style (a lost turn stands
    out); in fewer words where the whole does not fit in one line of ``width`` (on a
    small terminal a second line would push the log off the screen)."""
    if land.last:
        return "fg:#87afd7", _("This card is the last of its line: taking it ends the game.")
    style = "fg:#ff8700" if land.line is None else "fg:#87afd7"
    whole, fewer, fewest = LANDING[(land.line is None, land.wand)]
    line = land.line or ""
    text = _(whole).format(n=land.value, line=line_words(line) if line else "")
    text += " " + _("(if you decline the boom)") if land.guess else ""
    if len(text) <= width:
        return style, text
    short_line = line_words(line, short=True) if line else ""
    boom = " " + _("(if no boom)") if land.guess else ""
    short = _(fewer).format(n=land.value, line=short_line) + boom
    shortest = _(fewest).format(n=land.value, line=short_line) + boom
    return style, short if len(short) <= width else shortest


def claim_words(view: m.GameView, me: int, names: Sequence[str | None], width: int) -> str:
    """The question before claiming the win (two players, the other away)."""
    who = seat_label(view.colours, 1 - me, names)
    text = _("Claim the win? {who} is away: the game ends now and you win. y/n")
    text = text.format(who=who)
    short = _("Claim the win? The game ends now: you win. y/n")
    return text if len(text) <= width else short


def resign_words(view: m.GameView | None, seats: Sequence[m.SeatInfo], me: int | None) -> str:
    """The question before resigning: what it does at this table."""
    if view is None or view.players == 2:
        return _("Resign? The game ends now and the other player wins. y/n")
    people = [s for s in seats if s.seat != me and not s.resigned and not s.bot]
    if not people:  # only computers would play on: the server ends the game
        return _(
            "Resign? Only computers would play on: the game ends now, the others "
            "win and you place last. y/n"
        )
    return _("Resign? A computer plays your seat to the end; you place last. y/n")


def connection_words(conn: str, me: int | None, server_stopped: bool) -> str:
    """The prompt while the connection is not there."""
    if server_stopped:  # the host quit: the game may not come back
        return _(
            "The server has stopped: {state}, in case it comes back with the "
            "game (a host that keeps its games). q: quit"
        ).format(state=conn)
    if me is None:
        return _("Not connected to the server: {state}.").format(state=conn)
    return _("Not connected to the server: {state}. Your seat is kept for you.").format(state=conn)


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
    hint: bool = False,
) -> list[str]:
    """The keys that work now, in words: shorter below 100 columns (two lines at 60),
    ``Enter: take`` only while ``choosing`` (a question says its own keys), and the
    symbols' legend only where it takes no line of its own (the help has it); ``H:
    hint`` while a hint may be asked (1.5, a table with hints, our turn). While
    not ``online`` (the connection is gone) only what needs no server: the log, the
    help, quitting."""
    wide = width >= 100
    lobby = [_("Esc: lobby")] if allow_lobby else []
    log = _("PgUp/PgDn, L: log") if wide else _("L: log")
    quit_ = _("q: quit")
    if over:
        back = _("g: result") if ended else _("g: score table")
        out = [_("Enter/q: lobby")] if allow_lobby else [quit_]
        return [back, *([_("v: review the game")] if review else []), log, _("?: help"), *out]
    if not online:
        return [log, _("?: help"), quit_]
    common = [log, _("c: chat"), _("?: help & colours") if wide else _("?: help")]
    if not seated:  # watching, or resigned (a computer plays on)
        return _legend([*common, *lobby, quit_], width)
    extra = [_("w: claim the win")] if claimable else []
    extra += [_("b: back to your seat")] if replaced else []
    extra += [_("H: hint")] if hint else []
    choose = [
        _("arrows/hjkl, 0-5: choose") if wide else _("arrows, 0-5: choose"),
        _("Enter: take"),
    ]
    return _legend([*extra, *(choose if choosing else []), *common, _("R: resign"), quit_], width)


def _legend(items: list[str], width: int) -> list[str]:
    """``items`` and the symbols' legend, unless the legend alone would need a line."""
    boom, wand = _("boom"), _("wand")
    legend = [*items, f"* {boom} ~ {wand}"]
    return legend if len(wrap_items(legend, width)) == len(wrap_items(items, width)) else items
