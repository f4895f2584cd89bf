"""The tick finds the running tables with something due from a deadline heap
(``Lobby.due``) rather than by looking at every table (``Lobby.due_scan``, the simple
path; bench/tick.py measures both). Here both are asked, at the same moment, across
random play on an injected clock: people come and go, take, resign and time out,
computer players stand in and move on their own, games end, a rematch starts, and the
server restarts (the random play keeps its records in memory: a real database adds
nothing to the comparison). The heap path must find exactly the tables the scan finds, in the same
order, every time."""

from __future__ import annotations

import asyncio
import random
import sys
from pathlib import Path

from server.bots.seats import ComputerPlayers
from server.core.intents import Play
from server.core.table import PLAYING, Table, TableError, hash_token
from server.lobby import NO_QUOTAS, Lobby
from server.store import MemoryStore, Store, open_store
from shared.clock import TimeRules
from shared.options import Options

from ..helpers import FakeClock

sys.path.insert(1, str(Path(__file__).resolve().parents[2] / "bench"))
from tick import Person  # a person's connection that hears and says nothing


def new_lobby(store: Store, clock: FakeClock) -> Lobby:
    # real computer players, moving in threads
    return Lobby(store, now=clock, quotas=NO_QUOTAS, computers=ComputerPlayers())


def same(lobby: Lobby, now: float) -> list[Table]:
    """Both paths at one moment: equal, and asking again finds the same."""
    scan = lobby.due_scan(now)
    assert lobby.due(now) == scan
    assert lobby.due(now) == scan  # what came up and is still due comes up again
    return scan


def random_timing(rng: random.Random) -> TimeRules:
    if rng.random() < 0.25:
        return TimeRules(grace=rng.choice([0.0, 5.0, 30.0]))
    return TimeRules(
        move=rng.choice([1.0, 4.0, 20.0]),
        reserve=rng.choice([0.0, 3.0, 10.0]),
        grace=rng.choice([0.0, 2.0, 15.0]),
        absent_after=rng.choice([1, 2, 3]),
    )


async def new_tables(lobby: Lobby, rng: random.Random, n: int) -> dict[Person, tuple[Table, str]]:
    """``n`` running tables of people: each person with its table and seat token."""
    people: dict[Person, tuple[Table, str]] = {}
    for _ in range(n):
        options = Options(players=rng.choice([2, 3]))
        table, _ = await lobby.create("t", options, timing=random_timing(rng))
        for _ in range(options.players):
            p = Person()
            _, token = await table.join("p", p)
            people[p] = (table, token)
        for p in [p for p, (t, _) in people.items() if t is table]:
            await table.set_ready(p)
        assert table.state == PLAYING
    return people


async def step(
    lobby: Lobby, clock: FakeClock, rng: random.Random, people: dict[Person, tuple[Table, str]]
) -> None:
    """One random thing happens: time passes, someone goes, comes back, takes or resigns."""
    p = rng.choice(list(people))
    table, token = people[p]
    seat = table.seat_of(p)
    r = rng.random()
    try:
        if r < 0.3:
            clock.t += rng.choice([0.1, 0.5, 1.0, 3.0, 8.0, 20.0])
        elif r < 0.45 and seat is not None:
            table.detach(p)
        elif r < 0.6 and seat is None:
            table.resume(hash_token(token), p)
        elif r < 0.95 and seat is not None and table.game is not None and not table.game.over:
            if table.game.to_move == seat:
                actions = table.game.legal_actions()
                await table.apply(p, Play(actions[rng.randrange(len(actions))], table.version))
        elif seat is not None:
            await table.resign(p)
    except TableError:
        pass  # refused (the game ended, a resigned seat...): nothing changed


async def test_the_heap_finds_what_the_scan_finds() -> None:
    rng = random.Random(13)
    clock = FakeClock()
    lobby = new_lobby(MemoryStore(), clock)
    people = await new_tables(lobby, rng, 24)
    found = stood_in = 0
    for i in range(600):
        await step(lobby, clock, rng, people)
        found += len(same(lobby, clock.t))
        if i % 3 == 0:
            await lobby.tick(clock.t)
            same(lobby, clock.t)
        if i % 50 == 0:
            await asyncio.sleep(0.02)  # stand-ins think in threads and move
            same(lobby, clock.t)
        stood_in += sum(
            len(t.lineup.stand_ins) for t in lobby.tables.values() if t.state == PLAYING
        )
    assert found > 50  # the paths were compared while tables had something due
    assert any(t.finish_reason == "timed_out" for t in lobby.tables.values())
    assert stood_in > 0
    await stop_stand_ins(lobby)


async def stop_stand_ins(lobby: Lobby) -> None:
    for table in lobby.tables.values():
        for s in list(table.lineup.stand_ins.values()):
            await s.stop()


async def test_after_a_restart_the_heap_finds_what_the_scan_finds(tmp_path: Path) -> None:
    """Restored games: every person away from the restart, a resigned seat's computer
    player back, each move in progress started afresh."""
    rng = random.Random(16)
    clock = FakeClock()
    store = open_store(tmp_path / "kk.db")
    await store.start()
    lobby = new_lobby(store, clock)
    people = await new_tables(lobby, rng, 12)
    for _ in range(200):  # people play and resign; nobody leaves (no stand-in moves)
        p = rng.choice(list(people))
        table, _ = people[p]
        seat, game = table.seat_of(p), table.game
        if table.state != PLAYING or seat is None or game is None or game.to_move != seat:
            continue
        if seat in table.lineup.resigned:
            continue
        clock.t += rng.choice([0.1, 0.5, 2.0])
        if rng.random() < 0.03 and table.options.players == 3:
            await table.resign(p)
        else:
            actions = game.legal_actions()
            await table.apply(p, Play(actions[rng.randrange(len(actions))], table.version))
    await stop_stand_ins(lobby)
    await store.close()
    store = open_store(tmp_path / "kk.db")
    await store.start()
    again = new_lobby(store, clock)
    assert await again.restore() > 0
    assert any(t.state == PLAYING for t in again.tables.values())
    for dt in (0.0, 1.0, 2.0, 5.0, 16.0, 25.0, 31.0):
        same(again, clock.t + dt)
    assert again.due(clock.t + 30.0)  # every grace period is over by then
    await stop_stand_ins(again)
    await store.close()


async def test_a_rematch_and_an_idle_table_are_found_alike() -> None:
    clock = FakeClock()
    lobby = new_lobby(MemoryStore(), clock)
    idle, _ = await lobby.create("idle", Options(), timing=TimeRules())
    table, _ = await lobby.create("clocked", Options(), timing=TimeRules(move=5.0, grace=2.0))
    a, b = Person(), Person()
    await table.join("a", a)
    _, token = await table.join("b", b)
    await table.set_ready(a)
    await table.set_ready(b)
    assert same(lobby, clock.t) == [] and same(lobby, clock.t + 4.9) == []
    assert same(lobby, clock.t + 5.0) == [table]
    table.detach(b)  # the grace period (2 s) ends before the move's time (5 s)
    assert same(lobby, clock.t + 2.0) == [table]
    assert idle.state != PLAYING and table not in same(lobby, clock.t + 1.9)
    await table.resign(a)
    assert table.state != PLAYING and same(lobby, clock.t + 100.0) == []
    table.resume(hash_token(token), b)
    await table.vote_rematch(a, True)
    await table.vote_rematch(b, True)
    new = [t for t in lobby.tables.values() if t.state == PLAYING]
    assert len(new) == 1  # nobody followed: the grace periods run from the rematch
    assert same(lobby, clock.t + 1.9) == [] and same(lobby, clock.t + 2.0) == new
