"""The leak oracle (issue 4, test 2), independent of the server's view code.

Many random games (200, in four shards) are played through the server with
client-chosen seeds. Each game's hidden truth is rebuilt here from the seed
(``Game.deal``) and the acknowledged takes, and every frame every connection received
(raw bytes, unpacked with msgpack, not with our models) is checked against what that
connection may know at that moment (RULES.md section 9): the grid, every kettle's top,
the cards out of the game, and the cards the events of one take name; a seat's own
kettle under casual memory; its own recipes; everything once the game is over. No frame
may carry the seed, and a seat token may appear only in the ``joined`` frame of its own
connection.

Connections speak protocol 1.0, 1.1, 1.4 or 1.5 at random (spectators also 1.1, 1.4 and 1.5 with
combined ``update`` messages; a 1.4 seat that resumes and a 1.4 spectator that comes
late ask what they missed, ``catch_up``, and each step of the ``missed`` may name only
cards its state's events may). 1.5 connections, seats and spectators, ask for the
finished game's analysis: each of its decisions is the take acknowledged at its state
and names only cards its seat could know when it decided. At half the tables hints
are allowed, and 1.5 seats ask for one before some of their takes: each ``hint`` is a
legal take of the asking seat, in the state it names, naming only cards that seat may
know there. A connection never gets a
field or message of a later version than its own; in 1.1,
``takes`` is only ever in the view of the seat to move and is exactly the engine's
legal decisions there, and a ``result`` appears only in a view of the finished game.
"""

from __future__ import annotations

import asyncio
import os
import random

import pytest

from server.app import Server

from ..helpers.leak_oracle import SEEN, check_game, play_one

SOAK = os.environ.get("KK_SOAK") == "1"
GAMES = 1000 if SOAK else 200
SHARDS = 4  # the games in four tests of their own, so that test workers share them out
CONCURRENT = 20


@pytest.mark.slow
@pytest.mark.parametrize("shard", range(SHARDS))
@pytest.mark.long
async def test_leak_oracle(server: Server, shard: int) -> None:
    games = GAMES // SHARDS
    rng = random.Random(20240604 + shard)
    sem = asyncio.Semaphore(CONCURRENT)
    totals = {"games": 0, "frames": 0, "takes": 0, "spectators": 0}
    seen_before = dict(SEEN)

    async def one(seed: float) -> None:
        async with sem:
            played = await play_one(server.port, random.Random(seed))
        totals["frames"] += check_game(played)
        totals["games"] += 1
        totals["takes"] += len(played.takes)
        totals["spectators"] += sum(c.seat is None for c in played.conns)

    await asyncio.gather(*(one(rng.random()) for _ in range(games)))
    seen = {k: SEEN[k] - seen_before[k] for k in SEEN}
    print(f"\nleak oracle, shard {shard}: {totals}, 1.1 checks {seen}")
    assert totals["games"] == games and games * SHARDS >= 200
    assert totals["spectators"] > games // 3
    assert seen["takes"] > games and seen["results"] > games // 4, seen
    assert seen["missed"] > 0, seen  # 1.4's missed steps checked too
    assert seen["analysis"] > 0 and seen["hint"] > 0, seen  # and 1.5's analyses and hints
