"""A table from what the store holds of it, and back: the one place stored rows
become a table (``table_from_stored``) or its seats (``seats_from_stored``).

A single server restores its tables at start-up, a node of a cluster as it adopts
them, and a session's handle to a table another node serves starts from the same
rows; each goes through here, so what a stored row means is written once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict

from shared.clock import Clock, TimeRules

from ..store import Store, StoredSeat, StoredTable
from .journal import Journal
from .life import TableLife, own_takes
from .roles import DETACHED
from .seating import Seat
from .table import FINISHED, PLAYING, Table, TableHost

__all__ = ["seats_from_stored", "stored_form", "table_from_stored", "timing_from_stored"]


def timing_from_stored(st: StoredTable) -> TimeRules:
    """The stored table's time rules (the defaults when none were stored)."""
    return TimeRules(**st.timing) if st.timing else TimeRules()


def seats_from_stored(st: StoredTable) -> list[Seat]:
    """The stored table's seats: who sits where, their token hashes and bots (a bot is
    always ready); nobody is connected."""
    seats = [Seat(i) for i in range(st.options.players)]
    for ss in st.seats:
        seat = seats[ss.seat]
        seat.name, seat.token_hash, seat.bot, seat.player = (
            ss.name,
            ss.token_hash,
            ss.bot,
            ss.player,
        )
        seat.ready = ss.bot is not None
    return seats


def stored_form(table: Table) -> StoredTable:
    """What the store holds of ``table`` now, without its record: what a handle to it
    starts from once another node serves it."""
    return StoredTable(
        table.id,
        table.name,
        table.options,
        table.private,
        table.invite_hash,
        table.created,
        table.state,
        seats=[
            StoredSeat(s.index, s.name, s.token_hash, s.bot, s.player)
            for s in table.seats
            if s.name
        ],
        timing=None if table.timing == TimeRules() else asdict(table.timing),
        made_by=table.made_by,
        rated=table.rated,
    )


def table_from_stored(
    st: StoredTable,
    store: Store,
    *,
    now: Callable[[], float] | None = None,
    host: TableHost = DETACHED,
) -> Table:
    """The table ``st`` as it was: its seats, its game replayed from its record, how a
    finished one ended and, for a running game, its life (``restore_life``)."""
    table = Table(
        st.id,
        st.name,
        st.options,
        store,
        private=st.private,
        invite_hash=st.invite_hash,
        created=st.created,
        timing=timing_from_stored(st),
        now=now,
        host=host,
        rated=st.rated,
    )
    table.made_by = st.made_by
    table.seating.seats = seats_from_stored(st)
    if st.record is not None:
        table.course.started(st.record, st.record.replay(), len(st.record.actions))
        if st.state == FINISHED:
            ratings = store.rating_shown(table.id) if table.rated else {}
            table.ending.restored(st.record.result, st.finished, ratings)
        life = TableLife.from_stored(st.life, table.options.players)
        table.course.journal = Journal.replayed(
            st.record, life.computer, life.expired, table.result
        )
        if table.state == PLAYING:
            restore_life(table, life, st.alive)
    return table


def restore_life(table: Table, life: TableLife, alive: float | None) -> None:
    """A running game after a restart: who resigned, was replaced or timed out, the
    clock. Every person is away from now on (the grace period runs from the
    restart). The move in progress goes on with the time it had used when its
    server last said it was serving (``alive``: its last alive note, at most a second
    before a crash; at a clean stop, the stop): the time the server was down is charged
    to nobody, and the time used before it is not given back (a clock stored without
    its move's start, or a server that never noted: the move starts afresh)."""
    now = table.now()
    n = table.options.players
    own = None
    if table.rated:  # what makes its game count (``server.players.ratings``)
        own = own_takes(life.to_dict(), lambda: table.record, n)
    clock = None
    if table.timing.clocked and table.game is not None:
        clock = Clock.from_dict(table.timing, n, life.clock)
        used = 0.0
        if alive is not None and clock.seat == table.game.to_move:
            used = clock.spent(min(alive, now))
        clock.start(table.game.to_move, now, used)
    people = table.seating.people()
    for take_over in table.lineup.restore(life, people, now, own=own, clock=clock):
        table.stand_ins.take_over(table, take_over.seat)
