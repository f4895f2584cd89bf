"""The waiting screen: who sits where before the game starts, the table's terms, how
others join, and the keys.

Apart from the game screen because it has its own facts (the listing, the invite code)
and no board.
"""

from __future__ import annotations

from collections.abc import Sequence

from client.i18n import _, ngettext
from protocol import messages as m

from .render import Line, names_a_bot, seat_name, shown_name, wrap, wrap_items

__all__ = ["table_terms", "waiting_lines"]


def table_terms(table: m.TableSummary) -> str:
    """A listed table's terms in a few words: rated, players, variant, memory, hints,
    clock."""
    o = table.options
    terms = [_("rated")] if table.rated else []
    terms += [ngettext("{n} player", "{n} players", o.players).format(n=o.players)]
    terms += [_("recipes")] if o.recipes else []
    terms += [_("casual memory")] if o.memory == "casual" else []
    terms += [_("hints on")] if o.hints else []
    move = table.timing.move if table.timing is not None else None
    if move:
        per_move = _("{n} s a move") if move < 120 else _("{n} min a move")
        terms.append(per_move.format(n=move if move < 120 else move // 60))
    terms += [_("private")] if table.private else []
    return ", ".join(terms)


def waiting_lines(
    table_id: str,
    width: int,
    *,
    seats: Sequence[m.SeatInfo],
    listing: Sequence[m.TableSummary],
    started: bool,
    invite: str | None,
    allow_lobby: bool,
    chat: Sequence[Line] = (),
) -> list[Line]:
    """The waiting screen under the header, ``width`` wide (``started``: the game has
    begun and its first view is on its way)."""
    title = (
        _("The game has started; the board is on its way...")
        if started
        else _("Waiting for players to sit down...")
    )
    lines: list[Line] = [[], [("bold", title)]]
    for s in seats:
        how = _("bot") if s.bot else _("ready") if s.ready else _("joined") if s.name else _("free")
        who = seat_name(s, shown_name(s) or "-") if s.name else "-"
        said = f" ({how})" if not (s.bot and names_a_bot(who)) else ""  # not "easy bot (bot)"
        seat = _("seat {number}:").format(number=s.seat + 1)
        lines.append([("", f"  {seat} {who}{said}")])
    listed = next((tb for tb in listing if tb.id == table_id), None)
    if listed is not None:
        lines.append([("", f"  {table_terms(listed)}")])
    lines.append([])
    if invite:  # a private table is not listed: only its id and code find it
        lines.append(
            [
                (
                    "",
                    _(
                        "A private table, not in the others' lobby list: they press p there, "
                        "with the table id {table} and the invite code"
                    ).format(table=table_id)
                    + " ",
                ),
                ("bold", invite),
                ("", "."),
            ]
        )
    else:
        said = _("Others join from their lobby, or with the table id {table}.")
        lines.append([("", said.format(table=table_id))])
    keys = [_("?: help"), _("c: chat"), *([_("Esc: lobby")] if allow_lobby else []), _("q: quit")]
    lines += [[], *wrap_items(keys, width)]
    lines += [[], *chat] if chat else []
    return [piece for line in lines for piece in wrap(line, width)]
