"""Helpers of the players' tests: a server on a real store, signed-in clients (rated
games stored through the store's own path are ``bench/stored.py``'s)."""

from __future__ import annotations

import asyncio
import random
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from server.app import Server, ServerConfig
from server.lobby import NO_QUOTAS
from server.players.hashing import NO_ADDRESS_BOUNDS
from server.store import open_store
from server.store.players import StoredPlayer
from tests.server.wsclient import FEW_SAMPLES, WsClient, random_take

INVISIBLE = {
    "zero width space": "\u200b",
    "zero width non-joiner": "\u200c",
    "zero width joiner": "\u200d",
    "word joiner": "\u2060",
    "byte order mark": "\ufeff",
    "soft hyphen": "\u00ad",
    "combining grapheme joiner": "\u034f",
    "Mongolian vowel separator": "\u180e",
    "Hangul filler": "\u3164",
    "Hangul choseong filler": "\u115f",
    "halfwidth Hangul filler": "\uffa0",
    "braille blank": "\u2800",
    "variation selector 16": "\ufe0f",
    "variation selector 17": "\U000e0100",
    "tag letter A": "\U000e0041",
    "left-to-right mark": "\u200e",
    "right-to-left mark": "\u200f",
    "Arabic letter mark": "\u061c",
    "left-to-right isolate": "\u2066",
    "right-to-left isolate": "\u2067",
    "first strong isolate": "\u2068",
    "pop directional isolate": "\u2069",
    "right-to-left override": "\u202e",
    "left-to-right override": "\u202d",
    "invisible times": "\u2062",
    "line separator": "\u2028",
    "private use": "\ue000",
}
"""Characters that show nothing (or reorder what follows), each a way to make a second
name read as a registered one."""


@asynccontextmanager
async def stored_server(url: str, **config: Any) -> AsyncIterator[Server]:
    """A started server on 127.0.0.1 keeping everything in the store at ``url``."""
    config.setdefault("quotas", NO_QUOTAS)
    config.setdefault("signin", NO_ADDRESS_BOUNDS)  # and sign-ins too
    config.setdefault("analysis", FEW_SAMPLES)  # and analyses, quick ones
    server = Server(ServerConfig(port=0, host="127.0.0.1", **config), open_store(url))
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


def new_secret() -> str:
    return secrets.token_urlsafe(32)


async def signed_in(port: int, name: str, secret: str, *, register: bool = False) -> WsClient:
    """A 1.2 connection signed in (or registered, then signed in) as ``name``."""
    client = await WsClient.open(port, f"c-{name}", (1, 2))
    answer = await client.request("register" if register else "sign_in", name=name, secret=secret)
    assert answer.type == "signed_in", answer
    return client


async def take_if_mine(client: WsClient, seat: int) -> bool:
    """One take for ``seat`` if it is to move on the client's newest view; whether it
    was made (a time-out may have moved first: then the server says ``stale_state``)."""
    msg = client.latest_view()
    if msg is None or msg.view.game_over or msg.view.to_move != seat or not msg.view.takes:
        return False
    fields = random_take(msg.view, random.Random(msg.state_version))
    ack = await client.request("take", **{**fields, "state_version": msg.state_version})
    return bool(ack.type == "ack")


async def own_takes(seats: list[WsClient], n: int) -> None:
    """Each seat's person (``seats[i]``, a client of seat ``i``) makes ``n`` takes
    itself, whoever is to move moving (a take may earn its seat another): what makes a
    rated game count (``server.players.ratings.OWN_TAKES``)."""
    made = [0] * len(seats)
    async with asyncio.timeout(60):
        while min(made) < n:
            version = max(c.latest_view().state_version for c in seats)
            for c in seats:
                await c.wait_until(lambda c=c, v=version: c.latest_view().state_version >= v)
            mover = seats[0].latest_view().view.to_move
            if await take_if_mine(seats[mover], mover):
                made[mover] += 1


HISTORY = [  # (seats as player numbers, places, ending)
    ((0, 1), (1, 2), "played_out"),
    ((1, 2, 0), (1, 1, 3), "played_out"),
    ((2, 0), (1, 2), "resigned"),
    ((0, 1, 2), (2, 1, 3), "timed_out"),
    ((3, 0), (1, 2), "abandoned"),  # counts nothing
    ((1, 3), (2, 1), "claimed"),
    ((3, 2, 1), (3, 2, 1), "played_out"),
]


async def stored_players(store: object, n: int) -> list[StoredPlayer]:
    out = []
    for i in range(n):
        p = StoredPlayer(secrets.token_hex(6), f"key{i}", f"P{i}", 1000.0 + i)
        assert await store.add_player(p, "scrypt$x")  # type: ignore[attr-defined]
        out.append(p)
    return out
