"""Frames leave through the library (``ServerConnection.send``) with or without an
extension: a whole game plays either way, every frame decodes and nothing is lost or
reordered."""

from __future__ import annotations

import asyncio
import random

import pytest

from .conftest import MakeServer
from .test_games import check_final
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
