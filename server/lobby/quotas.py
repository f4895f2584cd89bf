"""The server's limits on tables and connections, and the quotas per client address.

Theory of operation. One decision, two ways of counting. ``refusal`` decides whether a
new table may be made, from what is held (``Held``: the unfinished tables, and the
tables the client's address made that wait in the lobby, run with nobody connected, or
are games of bots only; ``counts_as`` says which of these a table is). What is held is
counted by the lobby's ``counts``:

- ``LocalCounts``, one process: its own tables, counted at each request from memory
  (the single server's path, with no other cost);
- ``server.cluster.counts.ClusterCounts``, a node of a cluster: the whole cluster's,
  counted in Redis, where the check and the reservation of the new table are one atomic
  script (two nodes cannot both make the last table allowed).

A table counts against the address that made it (``Table.made_by``, stored with it),
so a restored or adopted table still counts for it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

from ..core.table import FINISHED, LOBBY, PLAYING, Table, TableError
from ..figures import Tally

__all__ = [
    "KINDS",
    "NO_QUOTAS",
    "REFUSALS",
    "Counts",
    "Held",
    "LocalCounts",
    "Quotas",
    "Served",
    "counts_as",
    "refusal",
    "refuse",
    "refused_by",
]


@dataclass(frozen=True)
class Quotas:
    """What one peer (an IP address) may hold at once; 0 means no limit. The tables a
    peer made are counted while they are not finished."""

    lobby_tables: int = 10
    """Tables waiting in the lobby."""
    unattended_games: int = 4
    """Running games with no person connected (no seat, no spectator)."""
    bot_games: int = 2
    """Games of bots only (every seat a server-side bot)."""


NO_QUOTAS = Quotas(lobby_tables=0, unattended_games=0, bot_games=0)
"""No per-peer limit: for tests and benchmarks that play many people from one address."""

KINDS = ("lobby", "unattended", "bots")
"""What a peer's table may count as, in ``Held``'s order (after ``tables``)."""


@dataclass(frozen=True)
class Held:
    """What counts against the limits: unfinished ``tables`` (of the server, or of the
    cluster), and the peer's tables of each of ``KINDS``."""

    tables: int = 0
    lobby: int = 0
    unattended: int = 0
    bots: int = 0


def counts_as(table: Table) -> tuple[str, ...]:
    """Which of ``KINDS`` a table counts as against the address that made it: waiting in
    the lobby, running with no person connected, a game of bots only (until it ends)."""
    if table.state == FINISHED:
        return ()
    kinds = []
    if table.state == LOBBY:
        kinds.append("lobby")
    elif table.state == PLAYING and not table.seating.attended:
        kinds.append("unattended")
    if table.seating.bots_only:
        kinds.append("bots")
    return tuple(kinds)


def limits_of(max_tables: int, quotas: Quotas, bots_only: bool) -> tuple[int | None, ...]:
    """The limit on each of ``Held``'s counts for a new table (None: none): a quota of 0
    is none; the bots quota applies to a table of bots only."""
    bots = quotas.bot_games if bots_only else 0
    quota = (quotas.lobby_tables, quotas.unattended_games, bots)
    return (max_tables, *(q if q > 0 else None for q in quota))


REFUSALS = ("tables", *KINDS)
"""The limits a new table may be refused by (``refused_by``): the table limit, then the
quotas of ``KINDS``; the metrics count refusals by them, and ``server_full`` names them
in its ``limit`` (protocol 1.6)."""


def refused_by(held: Held, max_tables: int, quotas: Quotas, bots_only: bool) -> str | None:
    """Which of ``REFUSALS`` refuses a new table, or None: a count at its limit
    (``limits_of``) refuses, the table limit first, then the quotas."""
    for kind, count, n in zip(
        REFUSALS,
        (held.tables, held.lobby, held.unattended, held.bots),
        limits_of(max_tables, quotas, bots_only),
        strict=True,
    ):
        if n is not None and count >= n:
            return kind
    return None


def refusal(held: Held, max_tables: int, quotas: Quotas, bots_only: bool) -> str | None:
    """Why a new table may not be made (``server_full``'s message), or None."""
    kind = refused_by(held, max_tables, quotas, bots_only)
    if kind == "lobby":
        if held.lobby == 1:
            return "you have a table waiting in the lobby: start or leave it first"
        return f"you have {held.lobby} tables waiting in the lobby: start or leave one first"
    if kind == "unattended":
        if held.unattended == 1:
            return "a game you started runs with nobody connected: resume, watch or resign it first"
        return (
            f"{held.unattended} games you started run with nobody connected:"
            " resume, watch or resign one first"
        )
    if kind == "bots":
        if held.bots == 1:
            return "a game of bots only you started is still running"
        return f"{held.bots} games of bots only you started are still running"
    return "this server has reached its table limit" if kind == "tables" else None


def refuse(held: Held, max_tables: int, quotas: Quotas, bots_only: bool, tally: Tally) -> None:
    """Raise ``server_full`` saying which limit refuses the new table (the table limit
    if none of the counts says: another node took the last one), in words and as its
    ``limit`` (1.6), counted in ``tally``."""
    kind = refused_by(held, max_tables, quotas, bots_only) or "tables"
    tally.add(kind)
    why = refusal(held, max_tables, quotas, bots_only)
    raise TableError("server_full", why or "this server has reached its table limit", limit=kind)


class Served(Protocol):
    """The tables served here and the limits on them: what the counts read (the
    lobby). Handed to the counts so they never reach up to their owner."""

    @property
    def tables(self) -> Mapping[str, Table]: ...

    @property
    def finished_here(self) -> int: ...

    @property
    def quotas(self) -> Quotas: ...

    @property
    def max_tables(self) -> int: ...


class Counts(Protocol):
    """What counts against the limits: ``LocalCounts`` for one process, the cluster's
    ``ClusterCounts`` on a node. The lobby asks it at each new table and connection;
    ``refused`` counts the new tables refused here by each of ``REFUSALS``."""

    refused: Tally

    async def reserve(self, table_id: str, peer: str | None, bots_only: bool) -> None: ...

    def cancel(self, table_id: str) -> None: ...

    def added(self, table: Table) -> None: ...

    def changed(self, table: Table) -> None: ...

    async def admit(self) -> bool: ...

    def left(self) -> None: ...


class LocalCounts:
    """What one process holds, counted from its lobby at each request."""

    def __init__(self, served: Served) -> None:
        self.served = served
        self._made_by: dict[str, set[Table]] = {}  # peer -> its tables not yet finished
        self.refused = Tally(REFUSALS)

    def held(self, peer: str | None) -> Held:
        """The lobby's unfinished tables, and ``peer``'s tables of each kind."""
        lobby = self.served
        tables = len(lobby.tables) - lobby.finished_here
        mine = self._made_by.get(peer) if peer is not None else None
        if not mine or lobby.quotas == NO_QUOTAS:
            return Held(tables)
        for table in [t for t in mine if t.state == FINISHED or lobby.tables.get(t.id) is not t]:
            mine.discard(table)
        # ``counts_as`` for each table, summed (one pass per kind is faster: a peer's
        # unfinished tables are counted at each of its requests; test_limits holds the
        # two equal)
        return Held(
            tables,
            sum(t.state == LOBBY for t in mine),
            sum(t.state == PLAYING and not t.seating.attended for t in mine),
            sum(t.seating.bots_only for t in mine),
        )

    async def reserve(self, table_id: str, peer: str | None, bots_only: bool) -> None:
        """Refuse (``server_full``, saying which limit) a new table if the server holds
        as many tables as ``max_tables``, or ``peer`` as many as its quotas allow."""
        lobby = self.served
        quotas = lobby.quotas if peer is not None else NO_QUOTAS
        held = self.held(peer)
        if refused_by(held, lobby.max_tables, quotas, bots_only) is not None:
            refuse(held, lobby.max_tables, quotas, bots_only, self.refused)

    def cancel(self, table_id: str) -> None:
        """The reserved table was not made after all (nothing was reserved here)."""

    def added(self, table: Table) -> None:
        """A table is served here from now on (made, restored or adopted)."""
        if table.made_by is not None:
            self._made_by.setdefault(table.made_by, set()).add(table)

    def changed(self, table: Table) -> None:
        """What ``table`` counts as may have changed (counted at the next request)."""

    async def admit(self) -> bool:
        """Whether one more connection may be served (the server's own cap is checked
        by the server)."""
        return True

    def left(self) -> None:
        """A connection admitted by ``admit`` ended."""
