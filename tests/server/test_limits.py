"""The limits' one decision (``server.lobby.quotas``) and the two ways of counting for it: a
single server's ``LocalCounts`` sums what ``counts_as`` says of each table, which is
what a cluster keeps in Redis; and ``refusal`` refuses exactly when the cluster's
reserve script does (a count at its limit, ``limits_of``)."""

from __future__ import annotations

import itertools

from server.core.table import FINISHED, LOBBY, PLAYING, Table
from server.lobby import Lobby
from server.lobby.quotas import Held, LocalCounts, Quotas, counts_as, limits_of, refusal
from server.store import MemoryStore
from shared.options import Options
from shared.record import Record


class _Person:
    """Someone connected (an occupant: only its presence matters here)."""


def _tables() -> list[Table]:
    """A table of every kind: each state, attended or not, bots only or not."""
    out = []
    store = MemoryStore()
    for i, (state, attended, bots) in enumerate(
        itertools.product((LOBBY, PLAYING, FINISHED), (False, True), (False, True))
    ):
        table = Table(f"t{i}", "t", Options(players=2), store)
        if state != LOBBY:  # its game dealt (and, finished, ended without a result)
            table.course.started(*Record.deal(Options(players=2, seed=i), []))
        if state == FINISHED:
            table.ending.restored(None, 0.0)
        assert table.state == state
        for seat in table.seats:
            seat.name = "bot" if bots else "p"
            seat.bot = "easy" if bots else None
        if attended:
            table.seating.spectators.add(_Person())  # type: ignore[arg-type]
        out.append(table)
    return out


def test_a_single_server_counts_what_counts_as_says() -> None:
    lobby = Lobby(MemoryStore(), quotas=Quotas())
    counts = lobby.counts
    assert isinstance(counts, LocalCounts)
    tables = _tables()
    for table in tables:
        table.made_by = "203.0.113.5"
        lobby.tables[table.id] = table
        lobby.finished_here += table.state == FINISHED
        counts.added(table)
    kinds = [k for t in tables for k in counts_as(t)]
    expected = Held(
        len(tables) - lobby.finished_here,
        kinds.count("lobby"),
        kinds.count("unattended"),
        kinds.count("bots"),
    )
    assert counts.held("203.0.113.5") == expected
    assert expected == Held(8, 4, 2, 4)  # every kind is there to count
    assert counts.held("198.51.100.1") == Held(8)  # another address holds nothing


def test_refusal_is_a_count_at_its_limit() -> None:
    """What the cluster's script checks (every count under its limit, ``limits_of``)
    and what ``refusal`` says agree, for every count around the limits."""
    quotas = Quotas(lobby_tables=2, unattended_games=1, bot_games=0)
    for counts in itertools.product(range(4), range(4), range(3), range(3)):
        held = Held(*counts)
        for bots_only in (False, True):
            limits = limits_of(3, quotas, bots_only)
            under = all(n is None or c < n for c, n in zip(counts, limits, strict=True))
            assert (refusal(held, 3, quotas, bots_only) is None) == under, (held, bots_only)
    assert limits_of(3, quotas, True) == (3, 2, 1, None)  # 0: no limit
    assert limits_of(0, Quotas(), False)[0] == 0  # a table limit of 0 allows none
