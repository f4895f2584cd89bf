"""The store's interface and the records it reads back: what every backend implements.

Why: the lobby, the tables and the cluster write and read through this one contract, so
a backend can be swapped (memory, SQLite, PostgreSQL) without them knowing which it is.
"""

from __future__ import annotations

import asyncio
import logging
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from shared.game import Take
from shared.options import Options
from shared.record import Record

from ..figures import Timings
from .players import PlayerStore

log = logging.getLogger("kupferkessel.store")

FinishListener = Callable[[str, "dict[str, Any] | None"], Awaitable[None]]

__all__ = [
    "BadDatabase",
    "PlayerSeated",
    "Sanction",
    "StaleOwner",
    "Store",
    "StoreInUse",
    "StoreUnavailable",
    "StoredGame",
    "StoredSeat",
    "StoredTable",
]


@dataclass(frozen=True)
class Sanction:
    """An operator's mute or ban of a player name or a client address, for a time.
    ``value`` is the name case-folded (``server.ops.moderation.fold``) or the address;
    ``until`` None lasts until lifted; ``lifted`` says when it was lifted early;
    ``actor`` who made it (the admin socket's peer: ``user (uid U, pid P)``; None for
    a sanction stored before actors were)."""

    id: str
    kind: str  # "mute" (no chat) or "ban" (no connection, no seat)
    target: str  # "name" or "address"
    value: str
    since: float
    until: float | None
    reason: str
    lifted: float | None = None
    actor: str | None = None

    def in_force(self, now: float) -> bool:
        return self.lifted is None and (self.until is None or now < self.until)


@dataclass
class StoredSeat:
    """One seat as stored: its occupant's name, token hash and bot (None: a person),
    and the registered player sitting there (1.2; None: anonymous or a bot)."""

    seat: int
    name: str
    token_hash: str | None
    bot: str | None
    player: str | None = None


@dataclass
class StoredTable:
    """A table as read back at start-up; ``record`` is None before its game started."""

    id: str
    name: str
    options: Options
    private: bool
    invite_hash: str | None
    created: float
    state: str
    finished: float | None = None  # when the table finished (None while open)
    seats: list[StoredSeat] = field(default_factory=list)
    record: Record | None = None
    timing: dict[str, Any] | None = None  # ``TimeRules`` as created (None: the defaults)
    life: dict[str, Any] | None = None  # ``Course.life()`` as last stored
    made_by: str | None = None  # the client address whose quotas it counts against
    alive: float | None = None  # the last alive note of the server its life names (if any)
    epoch: int = 0  # how often the table was claimed (0: never, a single server's)
    rated: bool = False  # created rated (protocol 1.2): its result changes ratings


@dataclass
class StoredGame:
    """One stored game as ``kupferkessel export --list`` shows it."""

    table_id: str
    name: str
    started: float
    finished: float | None
    actions: int
    result: dict[str, Any] | None


class Store(PlayerStore, ABC):
    """The interface the server writes through. ``MemoryStore`` keeps nothing
    (``--no-persist``); ``SqliteStore`` is durable. Every coroutine returns once the
    write is durable (immediately for ``MemoryStore``).

    Every method is abstract: a backend that leaves one out cannot be constructed, where
    a no-op default would have turned it into a silent no-op."""

    server_id = ""
    """Whose alive notes (``note_alive``) this store writes: "" for a stand-alone server
    (one per database), the node's name on a node of a cluster."""

    def when_finished(self, listener: FinishListener) -> None:
        """Call ``listener(table_id, result)`` after each ``finish`` is durable (the
        players' ratings follow results so). A listener's failure is logged, never the
        finish's."""
        self.__dict__.setdefault("_finish_listeners", []).append(listener)

    async def _finished(self, table_id: str, result: dict[str, Any] | None) -> None:
        for listener in self.__dict__.get("_finish_listeners", ()):
            try:
                await listener(table_id, result)
            except Exception:
                log.exception("a finish listener failed", extra={"table": table_id})

    @abstractmethod
    async def start(self) -> None:
        """Open the store (create the schema)."""

    @abstractmethod
    async def close(self) -> None:
        """Flush and close."""

    @abstractmethod
    async def create_table(
        self,
        table_id: str,
        name: str,
        options: Options,
        private: bool,
        invite_hash: str | None,
        timing: dict[str, Any] | None = None,
        made_by: str | None = None,
        rated: bool = False,
    ) -> None:
        """Store a new table in the lobby state (``timing``: its time rules;
        ``made_by``: the client address whose quotas it counts against; ``rated``: its
        result changes ratings, stored with the table in one transaction)."""

    # Every write of an existing table takes ``epoch``: the epoch this store ``held``
    # for the table when the intent behind the write was accepted (None: not claimed).

    @abstractmethod
    async def set_seat(
        self,
        table_id: str,
        seat: int,
        name: str,
        token_hash: str | None,
        bot: str | None,
        *,
        epoch: int | None = None,
        player: str | None = None,
    ) -> None:
        """Store (or replace) a seat's occupant, with the registered player's id
        (``player``, 1.2: its link to the seat, in the same transaction; None: nobody's).
        ``PlayerSeated`` (nothing stored) if that player holds another seat here."""

    @abstractmethod
    async def clear_seat(self, table_id: str, seat: int, *, epoch: int | None = None) -> None:
        """A player left a seat before the game started."""

    @abstractmethod
    async def start_game(
        self,
        table_id: str,
        record: Record,
        life: dict[str, Any] | None = None,
        *,
        epoch: int | None = None,
    ) -> None:
        """The game began: store its record (options with seed, explicit deal); with
        ``life``, its life beyond the record (a clocked game: its clock) alike."""

    @abstractmethod
    def append_action(
        self,
        table_id: str,
        index: int,
        take: Take,
        life: dict[str, Any] | None = None,
        *,
        epoch: int | None = None,
    ) -> asyncio.Future[None]:
        """Append action ``index`` (0-based) to the table's record; with ``life``, store
        the game's life beyond its record in the same transaction. Unlike the other
        writes, not a coroutine: the write is asked for before this returns, and the
        future returned is its durability (its exception, if it fails), whoever awaits
        it and whatever becomes of them (a table awaits it with ``aio.outlast``, so that
        a take's commit needs no task of its own: ``bench/commit.py``)."""

    @abstractmethod
    async def save_life(
        self, table_id: str, life: dict[str, Any], *, epoch: int | None = None
    ) -> None:
        """Store a running game's life beyond its record (resignations, stand-ins,
        clocks: ``Course.life``)."""

    @abstractmethod
    async def finish(
        self, table_id: str, result: dict[str, Any] | None, *, epoch: int | None = None
    ) -> None:
        """The table is over: its game ended with ``result`` (``GameResult.to_dict``;
        the record carries it from then on), or it was abandoned in the lobby (None)."""

    @abstractmethod
    async def add_sanction(self, sanction: Sanction) -> None:
        """Store a mute or ban (``server.ops.moderation``), durably before it is told."""

    @abstractmethod
    async def lift_sanction(self, sanction_id: str, at: float) -> bool:
        """Lift a sanction at time ``at`` (it stays stored, lifted); whether one was
        in force with that id."""

    @abstractmethod
    def load_sanctions(self, now: float) -> list[Sanction]:
        """The sanctions in force at ``now``, oldest first."""

    @abstractmethod
    async def note_alive(self, at: float) -> None:
        """Store that the server ``server_id`` was serving at time ``at``: after a crash
        its running moves resume with the time they had used by then (``alive_at``)."""

    @abstractmethod
    def alive_at(self, server: str) -> float | None:
        """The time of server ``server``'s last ``note_alive`` (None if unknown)."""

    @abstractmethod
    def load_open_tables(self, finished_since: float | None = None) -> list[StoredTable]:
        """Every table not finished, with its record, for restoring at start-up; with
        ``finished_since``, also the games that finished at or after that time (so that
        players reconnecting after a restart still see how their game ended)."""

    @abstractmethod
    def load_record(self, table_id: str) -> tuple[Record, bool] | None:
        """A stored game's record and whether it is finished; None if unknown."""

    @abstractmethod
    def list_games(self) -> list[StoredGame]:
        """Every stored game, oldest first."""

    @abstractmethod
    def load_table(self, table_id: str) -> StoredTable | None:
        """One table with its record (a node taking it over restores it so)."""

    @abstractmethod
    def find_token(
        self, token_hash: str, finished_since: float | None = None
    ) -> tuple[str, int] | None:
        """The (table id, seat) of an unfinished table a seat token hash belongs to; with
        ``finished_since``, also of a game that finished at or after that time (as
        ``load_open_tables``: so that its players still see how it ended)."""

    @abstractmethod
    def open_table_ids(self) -> list[str]:
        """The ids of every table not finished."""

    @abstractmethod
    async def claim(self, table_id: str, owner: str) -> int:
        """Become the owner of a table: its epoch goes up by one (durably) and every
        later write of it through this store is fenced by the new epoch. Returns it."""

    @abstractmethod
    def release(self, table_id: str) -> None:
        """Stop fencing the table's writes (it is no longer served here)."""

    @abstractmethod
    def held(self, table_id: str) -> int | None:
        """The epoch this store claimed the table under and holds it with now (None: not
        claimed here). An intent captures it when it is accepted; its writes carry it."""

    @abstractmethod
    def fence_writes(self) -> None:
        """From now on refuse, before the database, every write of an existing table that
        does not carry the epoch this store holds for it (a node of a cluster)."""

    @abstractmethod
    def owner(self, table_id: str) -> tuple[str | None, int] | None:
        """The (owner, epoch) the database holds for a table; None if unknown."""

    @abstractmethod
    def stats(self) -> dict[str, int]:
        """Counters for operators and benchmarks: ``writes`` and ``commits`` (their ratio
        is the group-commit factor), ``failed`` writes."""

    async def reachable(self) -> bool:
        """Whether the database answers now (readiness, ``store_up``); checked in a
        worker thread, off the event loop. ``StoreInUse`` if this server lost the
        database to another one (the lock it held was taken while it was away). A
        store that keeps nothing, or keeps it in a file, is always reachable."""
        return True

    def timings(self) -> dict[str, Timings]:
        """Spreads for the metrics endpoint: ``commit_seconds`` (each commit's
        transaction) and ``writes_per_commit``; none for a store that writes nothing."""
        return {}


class StoreInUse(OSError):
    """Another server holds this database."""


class StoreUnavailable(Exception):
    """The database cannot be reached now (its server stopped, restarting, or cut
    off): nothing of the write or read was done here; the store connects again by
    itself, so the same request may succeed a moment later."""


class BadDatabase(ValueError):
    """The path given cannot hold a database: a directory, a file of another kind,
    ``:memory:`` (nothing would be kept: that is ``--no-persist``); or the database is
    of a newer schema than this server's (upgrade the server)."""


class StaleOwner(Exception):
    """A write for a table this store no longer owns: another node claimed it (a
    higher epoch) since this one did. Nothing of the write was stored."""

    def __init__(self, table_id: str, epoch: int | None) -> None:
        super().__init__(f"table {table_id}: epoch {epoch} is stale, another node owns it")
        self.table_id = table_id
        self.epoch = epoch


class PlayerSeated(Exception):
    """A seat write refused because its registered player holds another seat of the
    same table (a player sits at most once at a table: the store's constraint, so two
    joins racing cannot both sit down). Nothing of the write was stored."""

    def __init__(self, table_id: str, player_id: str) -> None:
        super().__init__(f"table {table_id}: the player sits here already")
        self.table_id = table_id
        self.player_id = player_id
