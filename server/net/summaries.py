"""What the lobby and a table's presence show of a table: public facts only.

A listing's ``TableSummary`` and a table's ``presence`` are built here, from the table's
public facts (never a token, the seed or a hidden card), as protocol 1.``minor`` has
them: the same for a local session and for a node publishing its listing.
"""

from __future__ import annotations

from typing import Any

from protocol import messages as m
from protocol.convert import options_from_shared, timing_from_shared
from protocol.jsonframes import to_json
from protocol.wire import encode_as

from ..core.handle import TableFacts

__all__ = [
    "TABLES_OVERHEAD",
    "packed_size",
    "presence_message",
    "presence_source",
    "seat_infos",
    "table_summary",
]


def table_summary(table: TableFacts, minor: int = m.PROTOCOL_VERSION[1]) -> m.TableSummary:
    """A table as the lobby shows it (public facts only: never a token or the seed), as
    protocol 1.``minor`` has it."""
    timing = timing_from_shared(table.timing) if minor >= 1 else None
    return m.TableSummary(
        id=table.id,
        name=table.name,
        private=table.private,
        state=table.state,  # type: ignore[arg-type]
        options=options_from_shared(table.options),
        seats=seat_infos(table, minor),
        spectators=table.spectator_count,
        seeded=table.seeded and minor >= 1,  # 1.0 knew no such field
        timing=timing,
        rated=table.rated and minor >= 2,  # 1.0 and 1.1 know no rated tables
    )


def _seat_facts(table: TableFacts, minor: int) -> list[dict[str, Any]]:
    """Each seat as ``SeatInfo`` shows it (public facts only) in protocol 1.``minor``."""
    facts = []
    for s in table.public_seats():
        seat: dict[str, Any] = {
            "seat": s.seat,
            "name": s.name,
            "connected": s.connected,
            "bot": s.bot,
            "ready": s.ready,
            "resigned": s.resigned,
        }
        if minor >= 1:
            seat["absent"] = s.absent
            seat["computer"] = s.computer
            seat["rematch"] = s.rematch
        if minor >= 2:
            seat["registered"] = s.registered
        if minor >= 4:
            seat["computer_takes"] = s.computer_takes
            seat["ended"] = s.ended
            seat["rating_before"] = s.rating_before
            seat["rating_after"] = s.rating_after
        facts.append(seat)
    return facts


TABLES_OVERHEAD = 256
"""Bytes of a ``tables`` message besides its summaries (type, seq, re, next, total and
the headers), rounded up."""


def packed_size(summary: m.TableSummary, json: bool = False) -> int:
    """The bytes ``summary`` takes inside a ``tables`` message: as msgpack, or as the
    JSON subprotocol writes it (``json``: ASCII, other characters escaped, so often
    larger), plus a byte for the comma between two tables."""
    packed = encode_as(m.TableSummary, summary)
    return len(to_json(packed)) + 1 if json else len(packed)


def seat_infos(table: TableFacts, minor: int = m.PROTOCOL_VERSION[1]) -> tuple[m.SeatInfo, ...]:
    return tuple(m.SeatInfo(**facts) for facts in _seat_facts(table, minor))


def presence_source(table: TableFacts, minor: int = m.PROTOCOL_VERSION[1]) -> dict[str, Any]:
    """The fields of the table's ``presence`` message (public facts only) in protocol
    1.``minor``."""
    return {
        "table": table.id,
        "state": table.state,
        "seats": _seat_facts(table, minor),
        "spectators": table.spectator_count,
    }


def presence_message(table: TableFacts, minor: int = m.PROTOCOL_VERSION[1]) -> m.PresenceMsg:
    return m.PresenceMsg(
        table=table.id,
        state=table.state,  # type: ignore[arg-type]
        seats=seat_infos(table, minor),
        spectators=table.spectator_count,
    )
