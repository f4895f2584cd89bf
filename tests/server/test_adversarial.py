"""An adversarial client during live games (issue 4, test 4): bad frames of every kind
are answered with typed errors, the games are unchanged by them, and the server keeps
serving. Also the default rate limiter and the frame size limits."""

from __future__ import annotations

import asyncio
import json
import os
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import msgpack  # type: ignore[import-untyped]
import pytest

from protocol import messages as m
from server.app import Server
from shared.cards import CARD_IDS
from tests.helpers.servers import MakeServer

from ..helpers.games import check_final
from .wsclient import ERROR_CODES, WsClient, advance, http_get, human_table, play_seat

SOAK = os.environ.get("KK_SOAK") == "1"
BAD_FRAMES = 50_000 if SOAK else 10_000
CHUNK = 50  # bad frames sent before a ping: the pong proves all were handled
OPEN_LIMITS = m.DEFAULT_LIMITS.model_copy(
    update={"rate_messages": 1_000_000, "rate_burst": 1_000_000}
)

p = msgpack.packb
Gen = Callable[[random.Random, int], bytes | str]


def _deep(depth: int) -> bytes:
    """A take whose card is a deeply nested array (msgpack by hand: packb refuses)."""
    return (
        b"\x84"
        + p("type")
        + p("take")
        + p("id")
        + p(7)
        + p("state_version")
        + p(0)
        + p("card")
        + b"\x91" * depth
        + b"\xc0"
    )


def random_bytes(rng: random.Random, _: int) -> bytes:
    return bytes(rng.getrandbits(8) for _ in range(rng.randint(0, 64)))


def wrong_types(rng: random.Random, _: int) -> bytes:
    return p(rng.choice([None, 1, -5, 2.5, True, "take", [1, 2], {"id": 1}, {"type": 5}, b"x"]))


def unknown_type(rng: random.Random, i: int) -> bytes:
    return p({"type": rng.choice(["fly", "TAKE", "", "take ", "welcome", "error"]), "id": i})


def invalid_fields(rng: random.Random, i: int) -> bytes:
    return p(
        rng.choice(
            [
                {"type": "take", "id": i, "state_version": "0", "card": "moss-1"},
                {"type": "take", "id": i, "state_version": 0, "card": "moss-9"},
                {"type": "take", "id": i, "state_version": 0},
                {"type": "take", "id": i, "state_version": 0, "card": "moss-1", "targets": [5]},
                {"type": "take", "id": i, "state_version": 0, "card": "x", "special": 1},
                {"type": "join", "id": i, "table": "../etc", "player": "x"},
                {"type": "join", "id": i, "table": "t", "player": ""},
                {"type": "chat", "id": i, "text": "line\nbreak"},
                {"type": "chat", "id": i, "text": "x" * 1000},
                {"type": "create_table", "id": i, "name": "t", "options": {"players": 4}},
                {"type": "create_table", "id": i, "name": "t", "bots": [{"seat": 9, "level": "x"}]},
                {"type": "hello", "id": i, "protocol": [1], "client": "x"},
                {"type": "resume", "id": i, "token": "!" * 30},
                {"type": "ping", "id": -1},
                {"type": "ping", "id": "1"},
                {"type": "ready", "id": i, "ready": "yes"},
            ]
        )
    )


def huge_numbers(rng: random.Random, i: int) -> bytes:
    big = rng.choice([2**64 - 1, 2**63, -(2**63), 2**53, 10**18, float("inf"), float("nan")])
    return p(
        rng.choice(
            [
                {"type": "ping", "id": big},
                {"type": "take", "id": i, "state_version": big, "card": "moss-1"},
                {"type": "join", "id": i, "table": "t", "player": "x", "seat": big},
                {"type": "create_table", "id": i, "name": "t", "options": {"seed": big}},
                {"type": "hello", "id": i, "protocol": [big, 0], "client": "x"},
            ]
        )
    )


def deep_nesting(rng: random.Random, _: int) -> bytes:
    return _deep(rng.choice([200, 1000, 3000, 15000]))


def text_frame(rng: random.Random, i: int) -> str:
    return rng.choice(['{"type": "ping", "id": 1}', "", "hello", "\u00e9" * 100])


def oversized(rng: random.Random, i: int) -> bytes:
    size = rng.randint(m.DEFAULT_LIMITS.max_frame + 1, 65_000)
    return p({"type": "chat", "id": i, "text": "x" * size})[:size]


def ext_type(rng: random.Random, i: int) -> bytes:
    return b"\x82" + p("type") + p("ping") + p("id") + b"\xd6\xff\x00\x00\x00\x01"  # timestamp


GENERATORS: list[tuple[Gen, int]] = [
    (random_bytes, 20),
    (wrong_types, 10),
    (unknown_type, 10),
    (invalid_fields, 25),
    (huge_numbers, 10),
    (deep_nesting, 5),
    (text_frame, 5),
    (oversized, 1),
    (ext_type, 2),
]


def intents(rng: random.Random, view_msg: Any, seat: int | None, at_table: bool, i: int) -> bytes:
    """A game intent this connection may not make now: another seat's turn, a stale
    version, a card not in the line, a spectator acting, or a lobby request."""
    v = view_msg.view
    version = view_msg.state_version
    line = {c.card for c in v.choices}
    choice = rng.choice(v.choices).card
    other = rng.choice([c for c in CARD_IDS if c not in line])
    options: list[dict[str, Any]] = [
        {"type": "take", "state_version": version + rng.randint(1, 5), "card": choice},
        {"type": "join", "table": "nosuch", "player": "x"},
        {"type": "resume", "token": "A" * 32},
    ]
    if at_table:
        options.append({"type": "create_table", "name": "more"})  # already_seated
    if version > 0:
        options.append({"type": "take", "state_version": version - 1, "card": choice})
    if seat is None or v.to_move != seat:
        options.append({"type": "take", "state_version": version, "card": choice})
        options.append({"type": "resign"})  # not_seated for spectators only
    if seat is not None and v.to_move == seat:
        options.append({"type": "take", "state_version": version, "card": other})
    if seat is not None:
        options.append({"type": "ready"})
    msg = rng.choice(options)
    if msg["type"] == "resign" and seat is not None:
        msg = {"type": "ready"}
    return p({**msg, "id": i})


class Adversary:
    def __init__(
        self, client: WsClient, seat: int | None, rng: random.Random, at_table: bool = True
    ) -> None:
        self.client = client
        self.at_table = at_table
        self.seat = seat
        self.rng = rng
        self.sent = 0
        self.codes: Counter[str] = Counter()

    async def batch(self, n: int, view_msg: Any | None) -> None:
        """Send ``n`` bad frames in chunks; each must get exactly one typed error."""
        gens, weights = zip(*GENERATORS, strict=True)
        while n > 0:
            k = min(n, CHUNK)
            start = len(self.client.msgs)
            for _ in range(k):
                i = self.client.next_id()
                if view_msg is not None and self.rng.random() < 0.3:
                    frame = intents(self.rng, view_msg, self.seat, self.at_table, i)
                else:
                    frame = self.rng.choices(gens, weights)[0](self.rng, i)
                await self.client.send_raw(frame)
            sync = await self.client.request("ping")  # pong (or hello_required): all handled
            assert sync.type == "pong" or sync.code == "hello_required", sync
            answers = [x for x in self.client.msgs[start:] if x is not None and x is not sync]
            errors = [x for x in answers if x.type == "error"]
            others = [x for x in answers if x.type != "error"]
            assert all(
                x.type in ("presence", "view", "events", "chat") and x.re is None for x in others
            ), others
            assert len(errors) == k, (k, errors[-3:])
            for e in errors:
                assert e.code in ERROR_CODES and e.code != "internal", e
                self.codes[e.code] += 1
            self.sent += k
            n -= k


@pytest.mark.slow
async def test_bad_frames_during_live_games(make_server: MakeServer) -> None:
    server = await make_server(limits=OPEN_LIMITS)
    port = server.port
    rng = random.Random(4)
    tables = [
        await human_table(port, 2),
        await human_table(port, 3, recipes=True),
        await human_table(port, 2, recipes=True, memory="casual"),
    ]
    adversaries: list[tuple[Adversary, int]] = []  # (adversary, table index)
    for t, (table_id, clients, _) in enumerate(tables):
        for seat, c in enumerate(clients):
            adversaries.append((Adversary(c, seat, random.Random(rng.random())), t))
        for _ in range(2):
            spy = await WsClient.open(port, "spy")
            await spy.request("watch", table=table_id)
            await spy.wait_type("view")
            adversaries.append((Adversary(spy, None, random.Random(rng.random())), t))
    for _ in range(2):
        lobby = await WsClient.open(port, "lobbyist")
        adversaries.append((Adversary(lobby, None, random.Random(rng.random()), False), -1))
    fresh = await WsClient.open(port, None)  # never said hello: hello_required
    adversaries.append((Adversary(fresh, None, random.Random(rng.random()), False), -1))

    per_round = -(-BAD_FRAMES // (8 * len(adversaries)))  # ceil: 8 rounds
    rounds = 0
    while sum(a.sent for a, _ in adversaries) < BAD_FRAMES:
        rounds += 1
        keys = [server.lobby.get(tid).game.key() for tid, _, _ in tables]  # type: ignore[union-attr]
        await asyncio.gather(
            *(a.batch(per_round, tables[max(t, 0)][1][0].latest_view()) for a, t in adversaries)
        )
        after = [server.lobby.get(tid).game.key() for tid, _, _ in tables]  # type: ignore[union-attr]
        assert after == keys, "bad frames changed a game"
        # the games move on a little between batches
        for _, clients, _ in tables:
            await advance(clients, random.Random(rounds), 3)
    # still serving: ping, healthz, and every game finishes normally
    status, _, body = await http_get(port)
    assert status == 200 and json.loads(body)["connections"] == sum(1 for _ in adversaries)
    finals = await asyncio.gather(
        *(
            play_seat(c, s, random.Random(s))
            for _, clients, _ in tables
            for s, c in enumerate(clients)
        )
    )
    for final in finals:
        check_final(final, final.view.players, bool(final.view.recipe_counts[0]))
    sent = sum(a.sent for a, _ in adversaries)
    codes = sum((a.codes for a, _ in adversaries), Counter())
    print(f"\nadversarial: {sent} bad frames in {rounds} rounds; {dict(codes)}")
    assert sent >= BAD_FRAMES >= 10_000
    for code in (
        "malformed",
        "unknown_type",
        "invalid_field",
        "too_large",
        "not_your_turn",
        "stale_state",
        "illegal_move",
        "not_seated",
        "hello_required",
        "already_seated",
        "no_such_table",
        "bad_token",
        "not_in_lobby",
    ):
        assert codes[code] > 0, code
    assert not any(c.client.closed.is_set() for c, _ in adversaries)


async def test_frame_above_max_size_closes_1009(server: Server) -> None:
    c = await WsClient.open(server.port, "big")
    await c.send_raw(b"\x00" * (server.config.ws_max_size + 1))
    code, _ = await c.wait_closed()
    assert code == 1009
    other = await WsClient.open(server.port, "next")
    await other.ping()
    await other.close()


async def test_oversized_below_max_size_is_too_large_and_carries_on(server: Server) -> None:
    c = await WsClient.open(server.port, "big")
    await c.send_raw(b"\x00" * (m.DEFAULT_LIMITS.max_frame + 1))
    err = await c.wait_type("error")
    assert err.code == "too_large"
    await c.ping()
    await c.close()


async def test_default_rate_limiter_then_resume(server: Server) -> None:
    """Flooding: first the burst passes, then rate_limited errors, then a close with
    1008; the player resumes on a new connection and the game carries on."""
    table, (a, b), tokens = await human_table(server.port)
    limits = m.DEFAULT_LIMITS
    start = len(a.msgs)
    for _ in range(limits.rate_burst + 200):
        try:
            await a.send("ping")
        except Exception:
            break
    code, reason = await a.wait_closed(timeout=3)  # promptly: not after close_timeout
    assert code == 1008 and reason is not None and reason.startswith("rate_limited")
    answers = a.msgs[start:]
    pongs = sum(1 for x in answers if x.type == "pong")
    limited = [x for x in answers if x.type == "error"]
    assert limits.rate_burst - 5 <= pongs < limits.rate_burst + 10  # hello etc. spent 3
    assert limited and all(x.code == "rate_limited" for x in limited)
    assert answers[-1].type == "bye" and answers[-1].reason == "rate_limited"
    again = await WsClient.open(server.port, "calm")
    assert (await again.request("resume", token=tokens[0])).type == "resumed"
    await again.wait_type("view")
    finals = await asyncio.gather(
        play_seat(again, 0, random.Random(1)), play_seat(b, 1, random.Random(2))
    )
    check_final(finals[0], 2, False)
    assert server.lobby.get(table).state == "finished"
    await again.close()
    await b.close()
