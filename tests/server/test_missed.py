"""Protocol 1.4's missed moves (``catch_up`` -> ``missed``) and who made each take.

A seat that comes back after a stand-in played for it, and a spectator, ask for the
states they missed; every step must be exactly what a connection watching live got in
that state's ``events`` (the same events, the same ``by_computer`` mark), at two and
three players, with strict and casual memory, on the memory store and on SQLite
across a restart (the steps come from the stored record then). Bad ``since`` values
are refused with a typed error and change nothing; a 1.3 client knows no ``catch_up``
and never sees a 1.4 field.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import msgpack  # type: ignore[import-untyped]
import pytest

from server.app import Server
from tests.helpers.servers import MakeServer

from ..helpers import FakeClock
from ..helpers.missed import live_steps, missed
from .wsclient import WsClient, human_table, random_take, serving

GRACE, MOVE = 5, 30


def _now(clients: list[WsClient]) -> Any:
    return max((c.latest_view() for c in clients), key=lambda v: v.state_version)


async def _step(
    server: Server, clients: list[WsClient], away: int | None, rng: random.Random
) -> int:
    """One more state: the seat to move takes (a stand-in plays ``away``'s seat: wait
    for it). Returns the new state version."""
    watching = [c for i, c in enumerate(clients) if i != away]
    now = _now(watching)
    if now.view.game_over:
        return int(now.state_version)
    mover = now.view.to_move
    if mover == away:
        for c in watching:
            await c.wait_until(lambda c=c: c.latest_view().state_version > now.state_version)
    else:
        actor = clients[mover]
        await actor.wait_until(lambda: actor.shows(now.state_version))
        fields = random_take(actor.latest_view().view, rng)
        ack = await actor.request("take", **{**fields, "state_version": now.state_version})
        assert ack.type == "ack", ack
    for c in watching:
        await c.wait_until(lambda c=c: c.latest_view().state_version > now.state_version)
    return int(_now(watching).state_version)


async def _time_out(server: Server, clock: FakeClock, clients: list[WsClient], away: int) -> None:
    """Let the time of the seat to move (not ``away``'s) run out: the computer moves."""
    rng = random.Random(5)
    while _now(clients[:away] + clients[away + 1 :]).view.to_move == away:
        await _step(server, clients, away, rng)
    now = _now(clients[:away] + clients[away + 1 :])
    clock.t += MOVE + 1
    await server.lobby.tick()
    watcher = clients[0] if away else clients[1]
    await watcher.wait_until(lambda: watcher.latest_view().state_version > now.state_version)


async def _game_with_a_stand_in(
    server: Server, clock: FakeClock, players: int, memory: str
) -> tuple[list[WsClient], WsClient, list[str], int]:
    """A clocked table of ``players`` people (1.4) and a spectator: some takes, seat 1
    leaves and a stand-in plays it, one seat's time runs out. Returns the seats'
    clients, the spectator, the tokens and the last state seat 1 saw."""
    rng = random.Random(players * 10 + len(memory))
    table, clients, tokens = await human_table(
        server.port,
        players,
        minors=(4, 4, 4),
        create_fields={"timing": {"move": MOVE, "grace": GRACE}},
        memory=memory,
    )
    spectator = await WsClient.open(server.port, "watcher", (1, 4))
    assert (await spectator.request("watch", table=table)).type == "watching"
    await spectator.wait_type("view")
    for _ in range(3):
        await _step(server, clients, None, rng)
    seen = clients[1].latest_view().state_version
    await clients[1].close()
    clock.t += GRACE + 1
    await server.lobby.tick()  # a computer player stands in for seat 1
    for _ in range(6):
        await _step(server, clients, 1, rng)
    await _time_out(server, clock, clients, 1)
    for _ in range(2):
        await _step(server, clients, 1, rng)
    return clients, spectator, tokens, seen


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("memory", ["strict", "casual"])
async def test_missed_steps_are_what_a_seat_watching_live_got(
    make_server: MakeServer, players: int, memory: str
) -> None:
    clock = FakeClock()
    server = await make_server(now=clock)
    clients, spectator, tokens, seen = await _game_with_a_stand_in(server, clock, players, memory)
    live = live_steps(spectator)
    assert live == {v: s for v, s in live_steps(clients[0]).items() if v in live}
    marked = [v for v, s in live.items() if s["by_computer"]]
    timed_out = [v for v, s in live.items() if s["events"][0]["kind"] == "timed_out"]
    assert marked and timed_out and set(timed_out) <= set(marked), live

    back = await WsClient.open(server.port, "p1 again", (1, 4))
    assert (await back.request("resume", token=tokens[1])).type == "resumed"
    raw, steps = await missed(back, seen)
    now = raw["state_version"]  # a stand-in's move may have come before the resume
    await spectator.wait_until(lambda: spectator.latest_view().state_version >= now)
    live = live_steps(spectator)
    assert raw["since"] == seen and "omitted" not in raw
    assert list(steps) == list(range(seen + 1, now + 1))
    assert steps == {v: live[v] for v in steps}  # exactly what was shown live
    _, everything = await missed(spectator, 0)  # a spectator's are the same
    assert {v: everything[v] for v in live} == live
    _, nothing = await missed(clients[0], now)
    assert nothing == {}
    # the presence of 1.4 counts the computer's takes per seat
    presence = await back.wait_type("presence")
    counted = {s.seat: s.computer_takes for s in presence.seats}
    by_seat = [0] * players
    for v in [v for v, s in live.items() if s["by_computer"]]:
        took = next(e for e in live[v]["events"] if e["kind"] == "took")
        by_seat[took["seat"]] += 1
    assert counted == dict(enumerate(by_seat)), (counted, by_seat)


async def test_missed_steps_come_from_the_stored_record_after_a_restart(
    tmp_path: Path,
) -> None:
    """On SQLite the steps of a restarted server are rebuilt from the record and the
    stored life: the same events, ``timed_out`` and ``by_computer`` marks."""
    clock = FakeClock()
    db = tmp_path / "kk.db"
    async with serving(db, now=clock) as server:
        clients, spectator, tokens, _ = await _game_with_a_stand_in(server, clock, 3, "strict")
        live = live_steps(spectator)
        for c in (*clients, spectator):
            await c.close()
    async with serving(db, now=clock) as server:
        back = await WsClient.open(server.port, "p0 again", (1, 4))
        assert (await back.request("resume", token=tokens[0])).type == "resumed"
        raw, steps = await missed(back, 0)
    # (a stand-in's move may have been stored after the spectator's last frame)
    assert {v: steps[v] for v in live} == live and raw["state_version"] >= max(live)
    assert list(steps) == list(range(1, raw["state_version"] + 1))
    assert any(s["by_computer"] for s in steps.values())


@pytest.mark.parametrize(
    ("since", "code"),
    [
        (-1, "invalid_field"),
        ("3", "invalid_field"),
        (1.0, "invalid_field"),
        (None, "invalid_field"),
    ],
)
async def test_a_bad_since_is_refused_and_changes_nothing(
    server: Server, since: Any, code: str
) -> None:
    _, clients, _ = await human_table(server.port, 2, minors=(4, 4))
    version = clients[0].latest_view().state_version
    error = await clients[0].request("catch_up", since=since)
    assert (error.type, error.code) == ("error", code), error
    future = await clients[0].request("catch_up", since=version + 1)
    assert (future.type, future.code, future.detail) == ("error", "invalid_field", "since")
    assert clients[0].latest_view().state_version == version
    mover = clients[clients[0].latest_view().view.to_move]
    take = mover.latest_view().view.takes[0].model_dump(exclude_defaults=True)
    assert (await mover.request("take", state_version=version, **take)).type == "ack"


async def test_catch_up_before_the_game_and_in_the_lobby(server: Server) -> None:
    waiting = await WsClient.open(server.port, "p0", (1, 4))
    lobby = await waiting.request("catch_up", since=0)
    assert (lobby.type, lobby.code) == ("error", "not_seated")
    created = await waiting.request("create_table", name="t", player="p0")
    assert created.type == "table_created"
    await waiting.wait_type("joined")
    early = await waiting.request("catch_up", since=0)
    assert (early.type, early.code) == ("error", "not_started")


async def test_a_1_3_client_knows_no_catch_up_nor_any_1_4_field(make_server: MakeServer) -> None:
    clock = FakeClock()
    server = await make_server(now=clock)
    _, clients, _ = await human_table(
        server.port, 2, minors=(3, 3), create_fields={"timing": {"move": MOVE}}
    )
    refused = await clients[0].request("catch_up", since=0)
    assert (refused.type, refused.code) == ("error", "unknown_type")
    version = clients[0].latest_view().state_version
    clock.t += MOVE + 1  # the computer moves for the seat to move
    await server.lobby.tick()
    await clients[0].wait_until(lambda: clients[0].latest_view().state_version > version)
    await clients[0].request("resign")
    await clients[0].wait_for(lambda x: x.type == "presence" and x.state == "finished")
    for raw in clients[0].raw + clients[1].raw:
        for key in (b"by_computer", b"computer_takes", b"ended", b"rating_", b"missed"):
            assert key not in raw, (key, msgpack.unpackb(raw))


async def test_presence_says_how_the_game_ended_for_each_seat(make_server: MakeServer) -> None:
    """1.4: a claim after the opponent stayed away: ``claimed`` and ``lost_claim``."""
    clock = FakeClock()
    server = await make_server(now=clock)
    _, clients, _ = await human_table(
        server.port, 2, minors=(4, 4), create_fields={"timing": {"grace": GRACE}}
    )
    await clients[1].close()
    clock.t += GRACE + 1
    await server.lobby.tick()
    await clients[0].wait_for(lambda x: x.type == "presence" and x.seats[1].absent)
    assert (await clients[0].request("claim")).type == "ack"
    end = await clients[0].wait_for(lambda x: x.type == "presence" and x.state == "finished")
    assert [s.ended for s in end.seats] == ["claimed", "lost_claim"]
