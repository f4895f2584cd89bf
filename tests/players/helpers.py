"""Helpers of the players' tests: a server on a real store, signed-in clients, and
rated games stored through the store's own path."""

from __future__ import annotations

import asyncio
import itertools
import random
import secrets
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

from server.app import Server, ServerConfig
from server.core.life import TableLife
from server.lobby import NO_QUOTAS
from server.players.hashing import NO_ADDRESS_BOUNDS
from server.players.ratings import OWN_TAKES
from server.store import Store, open_store
from server.store.players import StoredPlayer
from shared.options import Options
from shared.record import Record
from tests.server.wsclient import WsClient, random_take

_tables = itertools.count(1)

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


async def registered(store: Store, n: int, prefix: str = "bench") -> list[str]:
    """``n`` players registered straight in ``store`` (no secret to check): their ids."""
    ids = []
    for i in range(n):
        p = StoredPlayer(f"{prefix}{i:05d}", f"{prefix} player {i:05d}", f"{prefix} {i}", 1.0e9 + i)
        assert await store.add_player(p, "scrypt$bench")
        ids.append(p.id)
    return ids


def result(places: Sequence[int], ending: str = "played_out") -> dict[str, Any]:
    """A stored result (``GameResult.to_dict``) with ``places``."""
    winners = [] if ending == "abandoned" else [s for s, p in enumerate(places) if p == 1]
    return {
        "ending": ending,
        "winners": winners,
        "places": list(places),
        "totals": [100 - 10 * p for p in places],
        "resigned": [],
        "replaced": [],
        "timed_out": [],
        "claimed_by": None,
    }


async def stored_game(
    store: Store,
    player_ids: Sequence[str],
    places: Sequence[int],
    *,
    ending: str = "played_out",
    rated: bool = True,
    names: Sequence[str] | None = None,
    own: Sequence[int] | None = None,
    result_of: dict[str, Any] | None = None,
    private: bool = False,
    finish: bool = True,
) -> str:
    """A game of ``player_ids`` (seat order) stored as a server stores one, linked to
    its players and finished with ``places`` (or ``result_of``), each seat's person
    having made ``own`` takes itself (by default enough for the game to count): its
    rating follows by the store's own path (``finish``, then the players' listener).
    Returns the table id. ``finish`` false leaves it started, for the caller to finish
    (``result``)."""
    table_id = f"g{next(_tables)}x{secrets.token_hex(3)}"
    n = len(player_ids)
    options = Options(players=n, seed=len(table_id))
    await store.create_table(table_id, f"game {table_id}", options, private, None, rated=rated)
    for seat, pid in enumerate(player_ids):
        name = names[seat] if names else f"p{seat}"
        await store.set_seat(table_id, seat, name, secrets.token_hex(8), None, player=pid)
    own = [OWN_TAKES] * n if own is None else list(own)
    await store.start_game(table_id, Record.new(options), TableLife(own=tuple(own)).to_dict())
    if finish:
        await store.finish(table_id, result_of or result(places, ending))
    return table_id


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
