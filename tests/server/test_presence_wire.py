"""Presence is sent from the table's facts without building the model: its bytes equal
the model's own dump in every state a table goes through."""

from __future__ import annotations

from typing import Any

from protocol import messages as m
from protocol.wire import encode_as
from server.core.table import Table
from server.net.summaries import presence_message, presence_source
from server.store import MemoryStore
from shared.options import Options
from tests.protocol.model_path import by_model


class _Occupant:
    def __getattr__(self, name: str) -> Any:
        return lambda *a, **k: None


def _same(table: Table, seq: int) -> None:
    for minor in (0, 1):
        wire = encode_as(m.PresenceMsg, presence_source(table, minor), seq=seq)
        assert wire == by_model(presence_message(table, minor), seq=seq)


async def test_presence_bytes_equal_the_model_path() -> None:
    table = Table("t1", "a table", Options(players=3, seed=4), MemoryStore())
    seq = 1
    _same(table, seq)
    people = [_Occupant() for _ in range(3)]
    await table.join("ann", people[0], seeded=True)  # type: ignore[arg-type]
    _same(table, seq := seq + 1)
    await table.add_bot("easy")
    _same(table, seq := seq + 1)
    watcher = _Occupant()
    table.watch(watcher)  # type: ignore[arg-type]
    _same(table, seq := seq + 200)
    await table.join("bob ünïcode", people[1], seeded=True)  # type: ignore[arg-type]
    table.detach(people[1])  # type: ignore[arg-type]
    _same(table, seq := seq + 70000)
    await table.set_ready(people[0])  # type: ignore[arg-type]
    _same(table, seq)
    table.resume(table.seats[2].token_hash or "", people[2])  # type: ignore[arg-type]
    await table.set_ready(people[2])  # type: ignore[arg-type]
    _same(table, seq)
    assert table.state == "playing"
    await table.resign(people[0])  # type: ignore[arg-type]
    assert table.lineup.resigned == [0] and table.state == "playing"  # three players: on it goes
    _same(table, seq := seq + 1)
    await table.resign(people[2])  # type: ignore[arg-type]
    assert table.lineup.resigned == [0, 2] and table.state == "finished"  # only the bot is left
    assert table.result is not None and table.result.winners == (1,)
    _same(table, seq := seq + 1)
