"""The JSON subprotocol (``kupferkessel.v1+json``, ``protocol.jsonframes``): the same
games as msgpack connections, nothing leaked (the leak oracle over JSON connections),
bad text refused with the usual typed errors. The golden frames hold both encodings
(``test_golden_v10.py``)."""

from __future__ import annotations

import asyncio
import json
import random

from protocol.jsonframes import from_json, to_json
from server.app import Server

from ..helpers.leak_oracle import check_game, play_one
from .wsclient import WsClient


def test_a_frame_is_the_same_map_in_either_encoding() -> None:
    frame = from_json('{"type":"take","id":3,"card":"toad-2","targets":[0,2]}')
    assert json.loads(to_json(frame)) == {
        "type": "take",
        "id": 3,
        "card": "toad-2",
        "targets": [0, 2],
    }
    assert to_json(from_json('{"name":"Gr\\u00fcn \\u2603"}')) == '{"name":"Gr\\u00fcn \\u2603"}'


async def test_json_games_leak_nothing_and_end_as_msgpack_games_do(server: Server) -> None:
    rng = random.Random(4242)
    sem = asyncio.Semaphore(6)
    frames = games = 0

    async def one(seed: float) -> None:
        nonlocal frames, games
        async with sem:
            played = await play_one(server.port, random.Random(seed), json=True)
        frames += check_game(played)  # final views equal the record's replay, no leak
        games += 1

    await asyncio.gather(*(one(rng.random()) for _ in range(24)))
    assert games == 24 and frames > 24 * 40


async def test_bad_text_is_refused_and_the_connection_goes_on(server: Server) -> None:
    c = await WsClient.open(server.port, "jay", (1, 1), json=True)
    for bad in ("{not json", "[1, 2]", '{"type": "ping", "id": 1e999}', '{"type": 7}'):
        start = len(c.msgs)
        await c.send_raw(bad)
        err = await c.wait_type("error", start=start)
        assert err.code in ("malformed", "invalid_field"), (bad, err)
    start = len(c.msgs)
    await c.send_raw(b"\x81\xa4type\xa4ping")  # binary on a JSON connection
    err = await c.wait_type("error", start=start)
    assert err.code == "malformed" and "JSON" in err.message
    await c.ping()  # still usable
    assert all(isinstance(f, str) for f in c.raw)


async def test_a_msgpack_connection_still_refuses_text(server: Server) -> None:
    c = await WsClient.open(server.port, "kim")
    await c.send_raw('{"type": "ping", "id": 1}')
    err = await c.wait_type("error")
    assert err.code == "malformed" and "binary msgpack" in err.message
