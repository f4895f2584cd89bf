"""Taking a seat: take back a kept one, or join and say ready; and which kept seat to
take back.

Shared by the lobby and the command line (``join --table``), so a seat is taken the
same way however the player got there.
"""

from __future__ import annotations

from collections.abc import Sequence

from protocol import messages as m

from ..lib import BadToken, Client

__all__ = ["seat_to_resume", "sit_down"]


async def sit_down(
    client: Client,
    table: str,
    player: str,
    *,
    invite: str | None = None,
    seat: int | None = None,
    resume_seat: int | None = None,
) -> None:
    """Sit at ``table``: take back a seat whose token is kept (``resume_seat``, or any
    of ``player``'s), or join (at ``seat``, or the first free one) and say ready. A kept
    token the server no longer knows (the seat was left before the game, the server
    lost its games) is forgotten, and the player joins instead. A signed-in player
    (1.2) whose seat it is takes it back without a token."""
    if client.held_seat(table) is not None and not client.saved_table(table, player):
        await client.rejoin(table)
        return
    if client.saved_table(table, player):
        try:
            await client.resume(table, player, resume_seat)
            return
        except BadToken:
            pass
    await client.join(table, player, invite=invite, seat=seat)
    await client.ready()


def seat_to_resume(
    client: Client, listing: Sequence[m.TableSummary], table: str, player: str
) -> int | None:
    """Of the seats at ``table`` kept for ``player``, one nobody is connected to (two
    terminals of one user must not take each other's seat); None: any."""
    saved = client.saved_seats(table, player)
    listed = next((tb for tb in listing if tb.id == table), None)
    for seat in saved:
        info = listed.seats[seat] if listed and seat < len(listed.seats) else None
        if info is None or not info.connected:
            return seat
    return saved[0] if saved else None
