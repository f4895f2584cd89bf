"""The session's own framing (its fast path) writes exactly the frames ``websockets``
would, and the library's path still serves connections with an extension."""

from __future__ import annotations

import asyncio
import random

import pytest
from websockets.frames import Frame, Opcode

from server.session import frame_head

from .conftest import MakeServer
from .test_games import check_final
from .wsclient import human_table, play_seat


@pytest.mark.parametrize("size", [0, 1, 125, 126, 127, 1000, 65535, 65536, 70000])
def test_frame_head_equals_the_library_frame(size: int) -> None:
    payload = bytes(range(256)) * (size // 256) + bytes(size % 256)
    expected = Frame(Opcode.BINARY, payload).serialize(mask=False, extensions=[])
    assert frame_head(size) + payload == expected


@pytest.mark.parametrize("compression", [None, "deflate"])
async def test_game_over_either_path(make_server: MakeServer, compression: str | None) -> None:
    """Without an extension the session frames messages itself; with permessage-deflate
    negotiated every frame goes through the library. Both play a game to the end, and
    every frame the clients get decodes (``WsClient`` checks each one)."""
    server = await make_server(compression=compression)
    _, clients, _ = await human_table(server.port, 2, compression=compression)
    rng = random.Random(7)
    finals = await asyncio.gather(
        *(play_seat(c, seat, random.Random(rng.random())) for seat, c in enumerate(clients))
    )
    for final in finals:
        check_final(final, 2, False)
    sessions = [s for s in server.sessions if s.table is not None]
    assert len(sessions) == 2
    for s in sessions:
        assert bool(s.ws.protocol.extensions) == (compression is not None)
        assert s._raw is (compression is None)
    seqs = [m.seq for m in clients[0].msgs]
    assert seqs == list(range(1, len(seqs) + 1))  # nothing lost, nothing reordered
    for c in clients:
        await c.close()
