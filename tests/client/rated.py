"""A rated game played out by two registered players through the Python client: Ada
signed in from a device code (the terminal's or the page's player on "another device")
and Grace registered on the spot. The terminal and browser tests of protocol 1.2 use
it to give a profile a rated game to list, replay and rank."""

from __future__ import annotations

import asyncio
import contextlib

from client.lib import Client, ServerError
from protocol import messages as m

__all__ = ["play_rated_game"]


async def play_rated_game(url: str, code: str, table_name: str = "Rated evening") -> str:
    """Ada (from ``code``) and Grace play a rated game at ``url`` to its end, each taking
    the first legal take; returns the table id."""
    ada = Client(url, name="Ada", persist_tokens=False, protocol=m.PROTOCOL_VERSION)
    grace = Client(url, name="Grace", persist_tokens=False, protocol=m.PROTOCOL_VERSION)
    await ada.connect()
    await grace.connect()
    try:
        await ada.redeem_code(code)
        await grace.register("Grace")
        options = m.TableOptions()
        created = await ada.create_table(table_name, options, player="Ada", rated=True)
        assert created.table.rated
        await ada.ready()
        await grace.join(created.table.id, "Grace")
        await grace.ready()
        async with asyncio.timeout(120):
            while not (ada.view and ada.view.game_over):
                for c in (ada, grace):
                    v = c.view
                    if v and not v.game_over and v.to_move == c.seat and v.takes:
                        o = v.takes[0]
                        with contextlib.suppress(ServerError):  # decided on an older view
                            await c.take(o.card, special=o.special, targets=o.targets, keep=o.keep)
                await asyncio.sleep(0.01)
        return created.table.id
    finally:
        await ada.close()
        await grace.close()
