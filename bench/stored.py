"""Players and rated games written straight into a store, as a server stores them:
for the benchmarks of the players' pages and ratings, and for the tests of them.

A game goes through the store's own path (``create_table``, ``set_seat``,
``start_game``, ``finish``), so its rating follows by the players' listener as in a
running server; no server, no network.
"""

from __future__ import annotations

import itertools
import secrets
from collections.abc import Sequence
from typing import Any

from server.core.life import TableLife
from server.players.ratings import OWN_TAKES
from server.store import Store
from server.store.players import StoredPlayer
from shared.options import Options
from shared.record import Record

_tables = itertools.count(1)


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
