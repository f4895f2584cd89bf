"""Golden frames of ``server_full``: a new table refused by each limit, on a connection
of protocol 1.0, 1.5 and 1.6. From 1.6 on the error names the limit that refused it
(``limit``: ``lobby``, ``unattended``, ``bots``, ``tables``); a 1.0 to 1.5 client gets
exactly the frames its version's server sent (1.0's and 1.5's recorded on the server of
2026-12-05 before 1.6 existed, 1.6's when it was published).

One server per limit, each with only that limit set; another connection of the same
address (127.0.0.1) fills it first, then the recorded one asks for a table: a table
waiting in the lobby, a game whose only person left (its computer opponent waits for
them), a game of two hard bots (it outlasts the request), the server's one table.
"""

from __future__ import annotations

from typing import Any

import msgpack  # type: ignore[import-untyped]
import pytest

from server.lobby import NO_QUOTAS, Quotas
from tests.helpers.servers import MakeServer

from .golden_frames import Masker, frame_lines, hold_to
from .wsclient import WsClient, create

HARD = [{"seat": 0, "level": "hard"}, {"seat": 1, "level": "hard"}]

LIMITS: dict[str, dict[str, Any]] = {
    "lobby": {"quotas": Quotas(lobby_tables=1, unattended_games=0, bot_games=0)},
    "unattended": {"quotas": Quotas(lobby_tables=0, unattended_games=1, bot_games=0)},
    "bots": {"quotas": Quotas(lobby_tables=0, unattended_games=0, bot_games=1)},
    "tables": {"quotas": NO_QUOTAS, "max_tables": 1},
}
"""Each limit's server: that limit at one, no other."""


async def _fill(port: int, limit: str) -> None:
    """Another connection of the address takes what ``limit`` allows."""
    other = await WsClient.open(port, "filler", (1, 6))
    if limit == "unattended":
        await create(other, player="p", bots=[{"seat": 1, "level": "easy"}])
        await other.send("ready")
        await other.wait_type("view")
        other.abort()  # the game runs on, waiting for seat 0: nobody connected
        return
    answer = await other.request("create_table", name="first", bots=HARD if limit == "bots" else [])
    assert answer.type == "table_created", answer


async def _refused(make_server: MakeServer, limit: str, minor: int) -> list[Any]:
    """The frames of a connection of 1.``minor`` refused a table by ``limit``."""
    server = await make_server(**LIMITS[limit])
    await _fill(server.port, limit)
    c = await WsClient.open(server.port, "golden-full", (1, minor))
    ask: dict[str, Any] = {"bots": HARD} if limit == "bots" else {"player": "Ann"}
    refused = await c.request("create_table", name="one more", **ask)
    assert refused.type == "error" and refused.code == "server_full", refused
    await c.ping()
    await c.close()
    mask = Masker()
    return [mask(msgpack.unpackb(frame)) for frame in c.raw if isinstance(frame, bytes)]


@pytest.mark.parametrize("minor", [0, 5, 6], ids=["1.0", "1.5", "1.6"])
async def test_each_limit_refuses_a_client_with_exactly_its_versions_frames(
    make_server: MakeServer, minor: int
) -> None:
    frames = {limit: await _refused(make_server, limit, minor) for limit in LIMITS}
    hold_to(f"v1_{minor}_server_full.jsonl", frame_lines(frames))
