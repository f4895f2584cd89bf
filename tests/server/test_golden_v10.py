"""Golden frames: a client that says protocol 1.0 in ``hello`` gets exactly the frames
it got before protocol 1.1 existed (docs/PROTOCOL.md, "Versioning").

``golden/v1_0.jsonl`` was recorded from the 1.0 server (before any 1.1 feature was
added): a scripted session of two players and a spectator, all saying 1.0, through a
lobby, a whole game, errors, chat, and a second game that ends by resignation. Every
frame each of them receives is compared with it, field order included; only what is
random by design (table ids, seat tokens) and the server's list of bot levels are
replaced by placeholders. Two values have
changed since 1.0 on purpose, as fixes (no field or message did): a spectator's refused
take says why in other words, and a spectator's chat name is marked "(spectator)". The
1.1 fields other helpers added to 1.0 messages (``tables.total``, ``seeded``) are not
sent to a 1.0 client.

Run ``KK_GOLDEN_WRITE=1 pytest tests/server/test_golden_v10.py`` to record the file
again, which is only ever right on a server whose 1.0 behaviour is known to be good
(``tests/server/golden_frames.py``; the later versions' goldens are in
``test_golden_later.py``).
"""

from __future__ import annotations

import json
from typing import Any

import msgpack  # type: ignore[import-untyped]
import pytest

from protocol import messages as m
from tests.helpers.servers import MakeServer

from .golden_frames import Masker, frame_lines, hold_to, settle
from .wsclient import WsClient


async def _script(port: int, as_json: bool = False) -> dict[str, list[Any]]:
    """``as_json``: every client speaks the JSON subprotocol (the same frames, as text)."""
    a = await WsClient.open(port, None, json=as_json)
    b = await WsClient.open(port, None, json=as_json)
    c = await WsClient.open(port, None, json=as_json)
    for who, name in ((a, "golden-a"), (b, "golden-b"), (c, "golden-c")):
        welcome = await who.request("hello", protocol=[1, 0], client=name, client_version="1")
        assert welcome.type == "welcome"
    await a.request("list_tables")
    created = await a.request(
        "create_table",
        name="golden",
        options={"players": 2, "seed": 20261130, "recipes": True},
        player="Ann",
    )
    table = created.table.id
    await a.wait_type("joined")
    await settle(a)
    await b.request("list_tables")
    await b.request("join", table=table, player="Bob", seeded=True)  # 1.0 ignored it
    await c.request("watch", table=table)
    await settle(a, b, c)
    await a.send("chat", text="hello")
    await a.send("ready")
    await settle(a, b, c)
    await b.send("ready")
    await settle(a, b, c)
    await c.send("chat", text="good luck")
    await settle(a, b, c)
    seats = {0: a, 1: b}
    errors_shown = False
    while True:
        v = a.latest_view()
        if v.view.game_over:
            break
        mover = seats[v.view.to_move]
        other = seats[1 - v.view.to_move]
        if not errors_shown:
            await other.request("take", state_version=v.state_version, card="root-1")
            await mover.request("take", state_version=v.state_version + 5, card="root-1")
            await mover.request("take", state_version=v.state_version, card="no-such-card")
            await c.request("take", state_version=v.state_version, card="root-1")
            errors_shown = True
        choice = v.view.choices[-1]
        fields: dict[str, Any] = {"state_version": v.state_version, "card": choice.card}
        if choice.ends_game:
            fields["keep"] = False
        await mover.request("take", **fields)
        await settle(a, b, c)
    await mover.request("resign")
    await a.request("leave")
    await b.request("leave")
    await c.request("leave")
    await settle(a, b, c)
    # a second game, ended by a resignation
    created = await b.request(
        "create_table", name="golden two", options={"players": 2, "seed": 7}, player="Bob"
    )
    second = created.table.id
    await b.wait_type("joined")
    await a.request("join", table=second, player="Ann", seeded=True)
    await c.request("watch", table=second)
    await a.send("ready")
    await b.send("ready")
    await settle(a, b, c)
    await a.request("resign")
    await settle(a, b, c)
    await b.request("list_tables")
    warp = {"type": "warp", "id": 99}
    await a.send_raw(json.dumps(warp) if as_json else msgpack.packb(warp))
    await settle(a, b, c)
    for who in (a, b, c):
        await who.close()
    mask = Masker()
    if as_json:
        assert all(isinstance(f, str) for who in (a, b, c) for f in who.raw)
    return {
        name: [mask(json.loads(f) if as_json else msgpack.unpackb(f)) for f in who.raw]
        for name, who in (("a", a), ("b", b), ("c", c))
    }


@pytest.mark.parametrize("as_json", [False, True], ids=["msgpack", "json"])
async def test_a_1_0_client_gets_exactly_the_1_0_frames(
    make_server: MakeServer, as_json: bool
) -> None:
    """Over msgpack and over the JSON subprotocol alike: the same messages."""
    limits = m.DEFAULT_LIMITS.model_copy(update={"rate_messages": 1000, "rate_burst": 1000})
    server = await make_server(limits=limits)
    frames = await _script(server.port, as_json)
    hold_to("v1_0.jsonl", frame_lines(frames), write=not as_json)


async def _refusals_script(port: int) -> list[Any]:
    """What a 1.0 client hears when it meets 1.1: a seeded table it did not say it
    knows, and the 1.1 intents (``claim``, ``back``, ``rematch``), which 1.0 did not
    have, during a game with a 1.1 player and after its end."""
    a = await WsClient.open(port, None)
    b = await WsClient.open(port, None)
    await a.request("hello", protocol=[1, 0], client="golden-a", client_version="1")
    await b.request("hello", protocol=[1, 1], client="golden-b", client_version="1")
    seeded = await b.request(
        "create_table", name="golden seeded", options={"players": 2, "seed": 11}
    )
    await a.request("join", table=seeded.table.id, player="Ann")
    await a.request("list_tables")
    created = await a.request(
        "create_table", name="golden refusals", options={"players": 2, "seed": 5}, player="Ann"
    )
    await a.wait_type("joined")
    await b.request("join", table=created.table.id, player="Bob", seeded=True)
    await a.send("ready")
    await b.send("ready")
    await settle(a, b)
    await a.request("claim")
    await a.request("back")
    await a.request("rematch")
    await a.request("rematch", rematch="yes")
    await a.send_raw(msgpack.packb({"type": "back"}))  # no id: nothing to answer
    await b.request("resign")
    await settle(a, b)
    await a.request("rematch")
    await a.request("rematch", rematch=False)
    refused = await b.request("rematch")  # the 1.0 player cannot vote: no rematch here
    assert (refused.code, refused.detail) == ("not_allowed", "protocol_1_0"), refused
    await settle(a, b)
    await a.close()
    await b.close()
    mask = Masker()
    return [mask(msgpack.unpackb(f)) for f in a.raw if isinstance(f, bytes)]


async def test_a_1_0_client_hears_1_1_refused_as_1_0_would(make_server: MakeServer) -> None:
    """Golden frames of the refusals protocol 1.1 made visible to 1.0 clients
    (docs/PROTOCOL.md, "Changes a 1.0 client can see"), recorded when they were made."""
    limits = m.DEFAULT_LIMITS.model_copy(update={"rate_messages": 1000, "rate_burst": 1000})
    server = await make_server(limits=limits)
    hold_to("v1_0_refusals.jsonl", [json.dumps(f) for f in await _refusals_script(server.port)])
