"""A table another node lists (``ListedTable``) stands for the table itself: built from
the summary its owner published, it is listed, and its presence made, exactly as the
owner would, for every protocol version and in every state a table goes through."""

from __future__ import annotations

from typing import Any

from protocol import messages as m
from server.cluster.listing import ListedTable
from server.core.table import Table
from server.net.summaries import presence_source, table_summary
from server.store import MemoryStore
from shared.clock import TimeRules
from shared.options import Options


class _Occupant:
    def __getattr__(self, name: str) -> Any:
        return lambda *a, **k: None


def _listed_as_itself(table: Table) -> None:
    """What another node makes of ``table``'s published summary is the table's own."""
    raw = table_summary(table).model_dump_json().encode()  # as ``Listings`` publishes it
    listed = ListedTable(m.TableSummary.model_validate_json(raw), serial=table.serial)
    for minor in (0, 1):
        assert table_summary(listed, minor) == table_summary(table, minor)
        assert presence_source(listed, minor) == presence_source(table, minor)
    assert (listed.id, listed.open, listed.serial) == (table.id, table.open, table.serial)


async def test_a_listed_table_is_listed_as_its_owner_lists_it() -> None:
    timing = TimeRules(move=30.0, reserve=60.0, grace=5.0, absent_after=2)
    table = Table("t1", "a table", Options(players=3, seed=4), MemoryStore(), timing=timing)
    _listed_as_itself(table)
    people = [_Occupant() for _ in range(3)]
    await table.join("ann", people[0], seeded=True)  # type: ignore[arg-type]
    await table.add_bot("easy")
    table.watch(_Occupant())  # type: ignore[arg-type]
    _listed_as_itself(table)
    await table.join("bob", people[1], seeded=True)  # type: ignore[arg-type]
    table.detach(people[1])  # type: ignore[arg-type]
    await table.set_ready(people[0])  # type: ignore[arg-type]
    _listed_as_itself(table)
    table.resume(table.seats[2].token_hash or "", people[2])  # type: ignore[arg-type]
    await table.set_ready(people[2])  # type: ignore[arg-type]
    assert table.state == "playing"
    _listed_as_itself(table)
    await table.resign(people[0])  # type: ignore[arg-type]
    _listed_as_itself(table)
    await table.resign(people[2])  # type: ignore[arg-type]
    assert table.state == "finished"
    _listed_as_itself(table)
