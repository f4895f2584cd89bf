"""A stand-in's move is its own only while it plays the seat: one decided before its
person came back (or before a newer stand-in replaced it) and delivered after is
dropped, and the person's turn is untouched. Real lobby, tables and computer players
thinking in a thread; the race is made deterministic by holding the table's lock while
the stand-in decides, as a take in progress would."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Sequence
from pathlib import Path

from server.bots.pool import BotPool
from server.bots.seats import ComputerPlayers
from server.core.intents import Play
from server.core.table import PLAYING, Table, hash_token
from server.lobby import NO_QUOTAS, Lobby
from server.store import MemoryStore
from shared.clock import TimeRules
from shared.events import Event
from shared.options import Options
from shared.view import View

from ..helpers import FakeClock

sys.path.insert(1, str(Path(__file__).resolve().parents[2] / "bench"))
from tick import Person  # a person's connection that hears and says nothing

GRACE = 5.0


class Listener(Person):
    """A person's connection that keeps the last view it was sent (and its version)."""

    def __init__(self) -> None:
        self.last: tuple[int, View] | None = None

    def deliver_view(self, table: Table, view: View, version: int) -> None:
        self.last = (version, view)

    def deliver_update(
        self,
        table: Table,
        events: Sequence[Event],
        view: View,
        version: int,
        re: int | None = None,
        by_computer: bool = False,
    ) -> None:
        self.last = (version, view)


async def _absent_seat(
    pool: BotPool,
) -> tuple[Lobby, FakeClock, Table, list[Listener], list[str], int]:
    """A running two-player table whose seat not to move has gone away past the grace
    period: a stand-in plays it (not thinking yet: it is not its turn)."""
    clock = FakeClock()
    lobby = Lobby(
        MemoryStore(), now=clock, quotas=NO_QUOTAS, computers=ComputerPlayers(pool, think=0.01)
    )
    table, _ = await lobby.create("t", Options(players=2), timing=TimeRules(grace=GRACE))
    people = [Listener(), Listener()]
    tokens = [(await table.join("p", p))[1] for p in people]
    for p in people:
        await table.set_ready(p)
    assert table.state == PLAYING and table.game is not None
    away = 1 - table.game.to_move
    table.detach(people[away])
    clock.t += GRACE + 1
    await table.tick()
    assert away in table.lineup.stand_ins
    return lobby, clock, table, people, tokens, away


async def _pass_the_turn(table: Table, person: Listener, to: int) -> None:
    """``person`` takes until seat ``to`` is to move. Nothing is awaited after the last
    take: the stand-in of ``to`` has been told to think, and has not started yet."""
    assert table.game is not None
    while table.game.to_move != to:
        await table.apply(person, Play(table.game.legal_actions()[0], table.version))


async def test_a_move_decided_before_the_person_came_back_is_dropped() -> None:
    pool = BotPool(0)
    _, _, table, people, tokens, away = await _absent_seat(pool)
    mover = 1 - away
    stand_in = table.lineup.stand_ins[away]
    await _pass_the_turn(table, people[mover], away)
    await table.lock.acquire()  # a take in progress: the stand-in's move will wait for it
    version = table.version
    assert table.record is not None
    actions = len(table.record.actions)
    decided = pool.move_seconds.count
    async with asyncio.timeout(30):
        while pool.move_seconds.count == decided:  # the stand-in thinks in its thread
            await asyncio.sleep(0.005)
    # decided: the stand-in now waits for the lock, its move in hand. The lock goes
    # free and, before the stand-in runs again, its person comes back.
    back = Listener()
    table.lock.release()
    assert table.resume(hash_token(tokens[away]), back) == away
    assert away not in table.lineup.stand_ins
    async with table.lock:  # after the stand-in's move, whatever became of it
        pass
    await stand_in.stop()
    assert table.version == version
    assert len(table.record.actions) == actions
    assert table.game is not None and table.game.to_move == away
    assert back.last is not None
    seen, view = back.last
    assert seen == version and view.to_move == away and view.takes, back.last
    assert (
        await table.apply(back, Play(view.takes[0], version))
    ).version == version + 1  # still its turn


async def test_a_move_of_a_stand_in_replaced_by_a_newer_one_is_dropped() -> None:
    pool = BotPool(0)
    _, clock, table, people, tokens, away = await _absent_seat(pool)
    mover = 1 - away
    old = table.lineup.stand_ins[away]
    back = Listener()
    table.resume(hash_token(tokens[away]), back)  # back, and soon gone again
    table.detach(back)
    clock.t += GRACE + 1
    await table.tick()
    new = table.lineup.stand_ins[away]
    assert new is not old
    await _pass_the_turn(table, people[mover], away)
    version = table.version
    assert table.game is not None
    take = table.game.legal_actions()[0]
    assert (await table.take_for_seat(away, take, version, by=old)).version == version
    assert table.version == version and table.game.to_move == away  # the old one's: dropped
    async with asyncio.timeout(30):
        while table.version == version:  # the newer stand-in plays the seat
            await asyncio.sleep(0.005)
    await new.stop()
