"""Taking a seat: take back a kept one, or join and say ready; and which kept seat to
take back.

Shared by the lobby and the command line (``join --table``), so a seat is taken the
same way however the player got there.
"""

from __future__ import annotations

from collections.abc import Sequence

from protocol import messages as m

from ..lib import BadToken, Client

__all__ = ["seat_to_resume", "sit_down", "take_seat"]


async def sit_down(
    client: Client,
    table: str,
    player: str,
    *,
    invite: str | None = None,
    seat: int | None = None,
    resume_seat: int | None = None,
) -> None:
    """Sit at ``table``: take back a seat whose token is kept (``resume_seat``, whatever
    name it was kept under, or any of ``player``'s), or join (at ``seat``, or the first
    free one) and say ready. A kept token the server no longer knows (the seat was left
    before the game, the server lost its games) is forgotten, and the player joins
    instead. A signed-in player (1.2) whose seat it is takes it back without a token."""
    kept = client.saved_table(table, player) or resume_seat in client.saved_seats(table)
    if client.held_seat(table) is not None and not kept:
        await client.rejoin(table)
        return
    if kept:
        try:
            if resume_seat is None:
                await client.resume(table, player)
            else:  # that seat's token, whatever name it was kept under
                await client.resume(table, None, resume_seat)
            return
        except BadToken:
            pass
    await client.join(table, player, invite=invite, seat=seat)
    await client.ready()


async def take_seat(client: Client, table: str, player: str, *, invite: str | None = None) -> None:
    """Sit at ``table`` straight from the command line (``join --table``) as the lobby
    does: a seat kept in this data directory is taken back, under another name too
    when the server lists it free (``seat_to_resume``)."""
    listing = await client.list_tables() if client.saved_seats(table) else ()
    resume = seat_to_resume(client, listing, table, player)
    await sit_down(client, table, player, invite=invite, resume_seat=resume)


def seat_to_resume(
    client: Client, listing: Sequence[m.TableSummary], table: str, player: str
) -> int | None:
    """Which kept seat at ``table`` to take back: of those kept for ``player``, one
    nobody is connected to (two terminals of one user must not take each other's seat),
    else the first of them; with none kept for ``player``, a seat kept in this data
    directory under another name (the client was started again without the same
    ``--name``) that the listing shows nobody connected to. None: no seat to take back."""
    saved = client.saved_seats(table, player)
    listed = next((tb for tb in listing if tb.id == table), None)

    def info(seat: int) -> m.SeatInfo | None:
        return listed.seats[seat] if listed and seat < len(listed.seats) else None

    for seat in saved:
        got = info(seat)
        if got is None or not got.connected:
            return seat
    if saved:
        return saved[0]
    others = client.saved_seats(table)  # another name's: only a seat shown as free
    return next((s for s in others if (got := info(s)) is not None and not got.connected), None)
