"""The waiting screen: who sits where before the game starts, the table's terms, how
others join, and the keys.

Apart from the game screen because it has its own facts (the listing, the invite code)
and no board.
"""

from __future__ import annotations

from collections.abc import Sequence

from protocol import messages as m

from .render import Line, names_a_bot, seat_name, wrap, wrap_items

__all__ = ["table_terms", "waiting_lines"]


def table_terms(table: m.TableSummary) -> str:
    """A listed table's terms in a few words: rated, players, variant, memory, clock."""
    o = table.options
    terms = ["rated"] if table.rated else []
    terms += [f"{o.players} players"]
    terms += ["recipes"] if o.recipes else []
    terms += ["casual memory"] if o.memory == "casual" else []
    move = table.timing.move if table.timing is not None else None
    terms += [f"{move} s a move" if move < 120 else f"{move // 60} min a move"] if move else []
    terms += ["private"] if table.private else []
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
        "The game has started; the board is on its way..."
        if started
        else "Waiting for players to sit down..."
    )
    lines: list[Line] = [[], [("bold", title)]]
    for s in seats:
        how = "bot" if s.bot else "ready" if s.ready else "joined" if s.name else "free"
        who = seat_name(s, s.name) if s.name else "-"
        said = f" ({how})" if not (s.bot and names_a_bot(who)) else ""  # not "easy bot (bot)"
        lines.append([("", f"  seat {s.seat + 1}: {who}{said}")])
    listed = next((tb for tb in listing if tb.id == table_id), None)
    if listed is not None:
        lines.append([("", f"  {table_terms(listed)}")])
    lines.append([])
    if invite:  # a private table is not listed: only its id and code find it
        lines.append(
            [
                ("", "A private table, not in the others' lobby list: they press p there, "),
                ("", f"with the table id {table_id} and the invite code "),
                ("bold", invite),
                ("", "."),
            ]
        )
    else:
        lines.append([("", f"Others join from their lobby, or with the table id {table_id}.")])
    keys = ["?: help", "c: chat", *(["Esc: lobby"] if allow_lobby else []), "q: quit"]
    lines += [[], *wrap_items(keys, width)]
    lines += [[], *chat] if chat else []
    return [piece for line in lines for piece in wrap(line, width)]
