"""Helpers of the players' tests: a server on a real store, signed-in clients, and
rated games stored through the store's own path."""

from __future__ import annotations

import itertools
import secrets
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

from server.app import Server, ServerConfig
from server.lobby import NO_QUOTAS
from server.store import Store, open_store
from server.store.players import StoredPlayer
from shared.options import Options
from shared.record import Record
from tests.server.wsclient import WsClient

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
) -> str:
    """A game of ``player_ids`` (seat order) stored as a server stores one, linked to
    its players and finished with ``places``: its rating follows by the store's own
    path (``finish``, then the players' listener). Returns the table id."""
    table_id = f"g{next(_tables)}x{secrets.token_hex(3)}"
    n = len(player_ids)
    options = Options(players=n, seed=len(table_id))
    await store.create_table(table_id, f"game {table_id}", options, False, None, rated=rated)
    for seat, pid in enumerate(player_ids):
        name = names[seat] if names else f"p{seat}"
        await store.set_seat(table_id, seat, name, secrets.token_hex(8), None, player=pid)
    await store.start_game(table_id, Record.new(options))
    await store.finish(table_id, result(places, ending))
    return table_id
