"""Taking a kept seat back from the lobby (``client.ui.seating``): a client started again
in the same data directory finds its seat even under another ``--name``, but never takes
a seat that a terminal still holds."""

from __future__ import annotations

import asyncio

from client.lib import Client
from client.ui.seating import seat_to_resume, take_seat
from protocol import messages as m


async def listed_with(client: Client, table: str, connected: bool) -> list[m.TableSummary]:
    """The lobby's listing once it shows seat 0 of ``table`` (dis)connected."""
    async with asyncio.timeout(10):
        while True:
            listing = await client.list_tables()
            mine = next(tb for tb in listing if tb.id == table)
            if mine.seats[0].connected == connected:
                return listing
            await asyncio.sleep(0.05)


async def test_a_seat_kept_under_another_name_is_taken_back_once_free(url: str) -> None:
    ann = Client(url, name="Ann", protocol=m.PROTOCOL_VERSION)  # tokens kept on disk
    await ann.connect()
    created = await ann.create_table(
        "t", m.TableOptions(seed=5), bots=[(1, "easy")], player="Ann", seat=0
    )
    table = created.table.id
    await ann.ready()
    root = Client(url, name="Root", protocol=m.PROTOCOL_VERSION)  # no --name this time
    await root.connect()
    try:
        # Ann's terminal is still there: the seat is not for the taking
        listing = await listed_with(root, table, connected=True)
        assert seat_to_resume(root, listing, table, "Root") is None
        await ann.close()
        listing = await listed_with(root, table, connected=False)
        assert seat_to_resume(root, listing, table, "Root") == 0
        await take_seat(root, table, "Root")  # join --table, as from the lobby
        assert (root.table, root.seat) == (table, 0)
        async with asyncio.timeout(10):
            while root.view is None:
                await asyncio.sleep(0.02)
        listing = await listed_with(root, table, connected=True)
        seats = next(tb for tb in listing if tb.id == table).seats
        assert [s.name for s in seats] == ["Ann", seats[1].name]  # taken back, not joined
        assert root.view.seat == 0
    finally:
        await root.close()
