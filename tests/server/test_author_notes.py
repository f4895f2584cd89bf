"""What a client author tripped on, reading docs/PROTOCOL.md alone: each point the
document now states is held to the server's (or the engine's) behaviour here."""

from __future__ import annotations

import random

import msgpack  # type: ignore[import-untyped]

from protocol.codec import ProtocolError, decode_client
from server.app import Server
from shared.events import Event, Exploded, Took
from shared.game import Game
from shared.options import Options
from shared.view import view

from .wsclient import WsClient, human_table, join


def _explode_first() -> Game:
    """A fresh deal whose first line offers an exploding kettle while nobody's kettle
    can be hit (every kettle holds its one starting card)."""
    for seed in range(500):
        g = Game.deal(Options(players=2, seed=seed))
        if any(c.symbol == "explode" for c in view(g, 0).choices):
            return g
    raise AssertionError("no such deal in 500 seeds")


def test_explode_symbol_with_nothing_to_hit() -> None:
    game = _explode_first()
    v = view(game, game.to_move)
    card = next(c.card for c in v.choices if c.symbol == "explode")
    assert v.explodable == ()  # nothing to hit, yet the choice says explode
    assert v.takes is not None
    assert [t.special for t in v.takes if t.card == card] == [False]  # takes: no such choice
    events: list[Event] = []
    game.apply(game.legal_actions()[0]._replace(card=card, special=True), events=events)
    took = next(e for e in events if isinstance(e, Took))
    assert took.special and not any(isinstance(e, Exploded) for e in events)


def test_explodable_never_lists_the_seat_to_move() -> None:
    rng = random.Random(11)
    seen = 0
    for seed in range(40):
        game = Game.deal(Options(players=rng.choice([2, 3]), seed=seed))
        while not game.over:
            v = view(game, None)
            assert v.to_move not in v.explodable
            seen += len(v.explodable)
            game.apply(rng.choice(game.legal_actions()))
    assert seen > 0


async def test_the_start_sends_events_view_then_presence(server: Server) -> None:
    _, clients, _ = await human_table(server.port, 2)
    for c in clients:
        await c.wait_for(lambda x: x.type == "presence" and x.state == "playing")
        kinds = [m.type for m in c.msgs if m is not None]
        start = kinds.index("events")
        assert kinds[start : start + 3] == ["events", "view", "presence"]
        first = c.of_type("events")[0]
        assert first.state_version == 0 and first.events[0].kind == "moved"


async def test_resign_is_answered_with_ack_and_create_table_twice(server: Server) -> None:
    a = await WsClient.open(server.port, "a")
    msg_id = await a.send("create_table", name="t", player="Ann", options={"players": 2})
    created = await a.wait_for(lambda x: x.type == "table_created")
    joined = await a.wait_for(lambda x: x.type == "joined")
    assert created.re == joined.re == msg_id  # two answers with the same re
    b = await WsClient.open(server.port, "b")
    await join(b, created.table.id, "Bob")
    for c in (a, b):
        await c.send("ready")
    await a.wait_type("view")
    ack = await a.request("resign")
    assert ack.type == "ack" and ack.state_version == a.latest_view().state_version


async def test_unknown_type_before_hello_and_rate_limited_without_re(
    server: Server,
) -> None:
    c = await WsClient.open(server.port, None)
    err = await c.request("warp")
    assert (err.type, err.code) == ("error", "unknown_type")
    err = await c.request("ping")
    assert (err.type, err.code) == ("error", "hello_required")
    assert (await c.request("hello", protocol=[1, 0], client="flood")).type == "welcome"
    for i in range(100, 160):  # over the burst: dropped unread, so no re
        await c.send_raw(msgpack.packb({"type": "ping", "id": i}))
    limited = await c.wait_for(lambda x: x.type == "error" and x.code == "rate_limited")
    assert limited.re is None


def test_nesting_limit_is_the_documented_one() -> None:
    head = msgpack.packb({"type": "ping", "id": 1})

    def nested(depth: int) -> bytes:  # the message map plus ``depth`` arrays inside it
        return bytes([0x83]) + head[1:] + msgpack.packb("x") + b"\x91" * depth + b"\x00"

    assert decode_client(nested(1023)).type == "ping"  # 1024 levels, the map included
    try:
        decode_client(nested(1024))
    except ProtocolError as e:
        assert e.code == "malformed"
    else:
        raise AssertionError("1025 levels were accepted")


async def test_final_views_fit_the_documented_size(server: Server) -> None:
    """ "up to about 5 KiB at the end of a three-player game": the largest final view."""
    _, clients, _ = await human_table(server.port, 3, recipes=True)
    rng = random.Random(2)
    while True:
        v = clients[0].latest_view()
        if v.view.game_over:
            break
        c = clients[v.view.to_move]
        await c.wait_until(lambda c=c, v=v: c.latest_view().state_version >= v.state_version)
        mine = c.latest_view()
        card = rng.choice(mine.view.choices).card
        await c.request("take", state_version=mine.state_version, card=card)
        await clients[0].wait_until(
            lambda v=v: clients[0].latest_view().state_version > v.state_version
        )
    sizes = [len(f) for c in clients for f in c.raw if isinstance(f, bytes) and b"game_over" in f]
    assert sizes and max(sizes) < 5 * 1024 + 512
