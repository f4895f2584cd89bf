"""Frames leave through the library (``ServerConnection.send``) with or without an
extension: a whole game plays either way, every frame decodes and nothing is lost or
reordered."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from tests.helpers.servers import MakeServer

from ..helpers.games import check_final
from .wsclient import human_table, play_seat


@pytest.mark.parametrize("compression", [None, "deflate"])
async def test_game_over_either_path(make_server: MakeServer, compression: str | None) -> None:
    """Plain frames, and frames compressed with permessage-deflate: both play a game to
    the end, and every frame the clients get decodes (``WsClient`` checks each one)."""
    server = await make_server(compression=compression)
    _, clients, _ = await human_table(server.port, 2, compression=compression)
    rng = random.Random(7)
    finals = await asyncio.gather(
        *(play_seat(c, seat, random.Random(rng.random())) for seat, c in enumerate(clients))
    )
    for final in finals:
        check_final(final, 2, False)
    extensions = clients[0].ws.response.headers.get("Sec-WebSocket-Extensions")  # type: ignore[union-attr]
    assert (extensions is not None) == (compression is not None)
    seqs = [m.seq for m in clients[0].msgs]
    assert seqs == list(range(1, len(seqs) + 1))  # nothing lost, nothing reordered
    for c in clients:
        await c.close()


async def _game_as_seen(make_server: MakeServer, **config: Any) -> list[Any]:
    """The views and events seat 0 receives in a fixed game (seed 5, fixed takes)."""
    server = await make_server(**config)
    _, clients, _ = await human_table(server.port, 2, seed=5)
    await asyncio.gather(
        *(play_seat(c, seat, random.Random(seat)) for seat, c in enumerate(clients))
    )
    seqs = [m.seq for m in clients[0].msgs]
    assert seqs == list(range(1, len(seqs) + 1))
    seen = [m.model_dump() for m in clients[0].msgs if m.type in ("view", "events")]
    for c in clients:
        await c.close()
    return seen


async def test_frames_written_at_once_equal_the_writers(make_server: MakeServer) -> None:
    """The session writes frames at once (``broadcast``) while the socket keeps up, and
    through its writer task (``ServerConnection.send``) otherwise: with ``write_limit=0``
    every frame takes the writer's path. Both deliver the same game, frame for frame."""
    assert await _game_as_seen(make_server, write_limit=0) == await _game_as_seen(make_server)
