"""The lobby: every table of the server, creation, lookup, restore, its tables' clocks
(``tick``), rematches and clean-up.

``tables`` holds the tables served here. What lies beyond them the lobby asks its
``Directory`` (``server.lobby.directory``): on a node of a cluster ``locate`` and
``locate_seat`` also find tables other nodes serve, the listing includes their public
tables, and tables are restored one by one as the node adopts them (``adopt``) rather
than all at start-up. What counts against the limits is its ``Counts``. The lobby is
each of its tables' host (``TableHost``)."""

from __future__ import annotations

import heapq
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import asdict
from typing import Protocol

from protocol.messages.limits import DEFAULT_LIMITS
from shared.analysis import Suggestion
from shared.clock import TimeRules
from shared.errors import RuleError
from shared.options import Options
from shared.record import Record

from ..core.handle import TableFacts, TableHandle
from ..core.restore import table_from_stored
from ..core.table import FINISHED, LOBBY, PLAYING, StandIn, Table, TableError, hash_token
from ..store import Store, StoredTable
from .directory import Directory, LocalDirectory
from .quotas import NO_QUOTAS, Counts, LocalCounts, Quotas

INVITE_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
"""Letters and digits nobody confuses when reading a code aloud or off a screen: no
i, l, o, 0 or 1, and lower case only."""


def new_invite() -> str:
    """A fresh invite code, three groups of four (``k7xq-m3pa-94tz``): 59 random bits
    from ``secrets``, easy to read out."""
    chars = [secrets.choice(INVITE_ALPHABET) for _ in range(12)]
    return "-".join("".join(chars[i : i + 4]) for i in range(0, 12, 4))


__all__ = ["NO_QUOTAS", "Lobby", "Quotas"]

log = logging.getLogger("kupferkessel.lobby")


def rematch_name(name: str, longest: int = DEFAULT_LIMITS.max_table_name) -> str:
    """The name of a rematch of table ``name``: ``Kitchen`` plays ``Kitchen, game 2``,
    then ``Kitchen, game 3``; never longer than a table's name may be."""
    base, sep, number = name.rpartition(", game ")
    game = int(number) + 1 if sep and number.isdigit() else 2
    base = base if sep and number.isdigit() else name
    tail = f", game {game}"
    return base[: max(1, longest - len(tail))].rstrip() + tail


class Computers(Protocol):
    """What the lobby asks of the server's computer players
    (``server.bots.seats.ComputerPlayers``): a bot in a seat, a stand-in for a person."""

    def seat(self, table: Table, seat: int, level: str) -> object:
        """Seat a bot of ``level`` at ``table`` (it plays that seat from now on)."""
        ...

    def stand_in(self, table: Table, seat: int) -> StandIn:
        """Start a computer player for an absent or resigned person's seat."""
        ...

    async def hint(self, record: Record) -> Suggestion:
        """1.5: the expert's take for the seat to move after ``record``, from that
        seat's view only, within the bounds on hints (``rate_limited`` past them)."""
        ...


class Lobby:
    def __init__(
        self,
        store: Store,
        *,
        max_tables: int = 10_000,
        finished_ttl: float = 600.0,
        lobby_ttl: float = 1800.0,
        abandon_ttl: float = 600.0,
        bot_levels: tuple[str, ...] = (),
        now: Callable[[], float] | None = None,
        quotas: Quotas | None = None,
        directory: Directory | None = None,
        counts: Counts | None = None,
        computers: Computers | None = None,
    ) -> None:
        self.store = store
        self.quotas = quotas or Quotas()
        # the tables served elsewhere (none for one process: ``LocalDirectory``)
        self.directory: Directory = directory or LocalDirectory()
        # what counts against ``max_tables`` and the quotas: this process's tables, or
        # on a node of a cluster the cluster's (``server.cluster.counts``)
        self.counts: Counts = counts or LocalCounts(self)
        self.computers = computers  # the computer players (None: no bots, no stand-ins)
        self.max_tables = max_tables
        self.finished_ttl = finished_ttl
        self.lobby_ttl = lobby_ttl  # <= 0: tables waiting in the lobby never expire
        self.abandon_ttl = abandon_ttl  # <= 0: running games nobody attends never end
        self.now = now or time.time
        self.bot_levels = bot_levels
        self.tables: dict[str, Table] = {}
        self.games_finished = 0
        self.finished_here = 0  # finished tables still in ``tables`` (until swept)
        self.tables_abandoned = 0
        # when running tables are next due (``due``): a heap of (due, serial, table)
        # entries, and each table's live entry; the others are stale, skipped
        self._deadlines: list[tuple[float, int, Table]] = []
        self._due_at: dict[Table, float] = {}

    # ------------------------------------------------------------- queries
    def get(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise TableError("no_such_table", f"there is no table {table_id!r}")
        return table

    def enter(self, table_id: str, invite: str | None) -> Table:
        """The table to join or watch. A private table without its invite code is
        refused exactly like a table that does not exist: the answer does not tell
        whether a private table has that id."""
        table = self.tables.get(table_id)
        if table is None or not table.invite_ok(invite):
            raise TableError(
                "no_such_table",
                "no such table here (a private table needs its invite code)",
            )
        return table

    def listing(self) -> list[TableFacts]:
        """Public tables (private ones are reachable only by id and invite code), the
        ones served elsewhere too."""
        return [t for t in self.tables.values() if not t.private] + self.directory.listing()

    def _listable(self) -> list[TableFacts]:
        """Every table a listing may show: ours, and the public ones served elsewhere
        (``Table.serial`` orders them all in this process)."""
        return [*self.tables.values(), *self.directory.listing()]

    def page(
        self, cursor: str | None, limit: int, open_first: bool
    ) -> list[tuple[str, TableFacts]]:
        """Public tables in listing order after ``cursor``, as (cursor of the table,
        table): at most ``limit + 1`` of them, so that the caller knows whether more
        follow. The order is the tables' creation order (``Table.serial``); with
        ``open_first`` first the open ones (``Table.open``, cursors ``o<serial>``) then
        the others (``r<serial>``), else all (``a<serial>``). A table that opens or
        fills between two pages may be listed twice or not at all; each page is
        consistent. ``TableError`` ``invalid_field`` for a cursor of another order.
        Costs one pass over the tables plus a heap of ``limit + 1``."""
        passes = ("o", "r") if open_first else ("a",)
        start, after = passes[0], 0
        if cursor is not None:
            start, digits = cursor[:1], cursor[1:]
            if not (digits.isdigit() and len(digits) <= 18):  # nothing past 2**63
                raise TableError("invalid_field", "list_tables: not a cursor", field="cursor")
            after = int(digits)
            if start not in passes:
                raise TableError(
                    "invalid_field",
                    "list_tables: this cursor belongs to another order",
                    field="cursor",
                )
        keep: dict[str, Callable[[TableFacts], bool]] = {
            "a": lambda t: True,
            "o": lambda t: t.open,
            "r": lambda t: not t.open,
        }
        out: list[tuple[str, TableFacts]] = []
        for kind in passes[passes.index(start) :]:
            want = limit + 1 - len(out)
            if want <= 0:
                break
            test = keep[kind]
            found = heapq.nsmallest(
                want,
                (t for t in self._listable() if not t.private and t.serial > after and test(t)),
                key=lambda t: t.serial,
            )
            out.extend((f"{kind}{t.serial}", t) for t in found)
            after = 0
        return out

    def clocks_running(self) -> bool:
        """Whether a clocked game runs here (the server then notes in the store that it
        is alive, ``Store.note_alive``)."""
        return any(t.lineup.clock is not None and t.state == PLAYING for t in self.tables.values())

    def health_counts(self) -> dict[str, int]:
        """This lobby's counts for ``/healthz``: tables, games running and finished..."""
        states = [t.state for t in self.tables.values()]
        return {
            "tables": len(states),
            "games_running": states.count(PLAYING),
            "tables_waiting": states.count(LOBBY),
            "games_finished": self.games_finished,
            "tables_abandoned": self.tables_abandoned,
        }

    def find_seat(self, token: str) -> tuple[Table, int] | None:
        th = hash_token(token)
        for t in self.tables.values():
            for s in t.seats:
                if s.token_hash is not None and secrets.compare_digest(s.token_hash, th):
                    return t, s.index
        return None

    async def locate(
        self, table_id: str, invite: str | None, current: TableHandle | None = None
    ) -> TableHandle:
        """``enter`` for a session, wherever the table is served (a handle to a table
        another node serves: ``Directory.locate``)."""
        if table_id in self.tables:
            return self.enter(table_id, invite)
        table = await self.directory.locate(table_id, current)
        if table is None or not table.invite_ok(invite):
            raise TableError(
                "no_such_table", "no such table here (a private table needs its invite code)"
            )
        self.directory.entered(table, invite)
        return table

    async def locate_seat(
        self, token: str, current: TableHandle | None = None
    ) -> tuple[TableHandle, int] | None:
        """The table and seat of a seat token, wherever the table is served."""
        found = self.find_seat(token)
        if found is None:
            return await self.directory.locate_seat(token, current)
        return found

    # ------------------------------------------------------------- changes
    async def create(
        self,
        name: str,
        options: Options,
        *,
        private: bool = False,
        bots: list[tuple[int, str]] | None = None,
        timing: TimeRules | None = None,
        invite_hash: str | None = None,
        peer: str | None = None,
        rated: bool = False,
    ) -> tuple[Table, str | None]:
        """Create a table; returns it and, for a private table, its invite code.
        ``bots`` lists (seat, level) pairs to fill with server-side bots; ``timing`` its
        time rules (``invite_hash``: a private table's code, kept for a rematch). A table
        made for ``peer`` (a client's address) counts against its ``quotas``; a ``rated``
        one (1.2) is stored so with the table, in one transaction."""
        bots = bots or []
        for _, level in bots:
            if level not in self.bot_levels:
                raise TableError(
                    "bad_options", f"unknown bot level {level!r}; try {list(self.bot_levels)}"
                )
        table_id = secrets.token_hex(4)
        while table_id in self.tables or not await self.directory.reserve_id(table_id):
            table_id = secrets.token_hex(4)
        await self.counts.reserve(table_id, peer, bots_only=len(bots) >= options.players)
        invite = new_invite() if private and invite_hash is None else None
        if invite is not None:
            invite_hash = hash_token(invite)
        timing = timing or TimeRules()
        stored_timing = None if timing == TimeRules() else asdict(timing)
        try:
            await self.store.create_table(
                table_id, name, options, private, invite_hash, stored_timing, peer, rated
            )
        except BaseException:
            self.counts.cancel(table_id)
            raise
        table = Table(
            table_id,
            name,
            options,
            self.store,
            private=private,
            invite_hash=invite_hash,
            timing=timing,
            now=self.now,
            host=self,
            rated=rated,
        )
        table.made_by = peer
        await self.directory.created(table)
        self.tables[table_id] = table
        self.counts.added(table)
        for seat_no, level in bots:
            seat = await table.add_bot(level, seat_no)
            if self.computers is not None:
                self.computers.seat(table, seat, level)
        log.info("table created", extra={"table": table_id, "players": options.players})
        await table.maybe_start()  # a table of bots only starts at once
        return table, invite

    async def restore(self) -> int:
        """Bring back every unfinished table from the store by replaying its record, and
        the games finished less than ``finished_ttl`` ago (so that players reconnecting
        after a restart still see how their game ended; ``sweep`` drops them later).
        A table back in the lobby counts as unattended from now on: it expires
        ``lobby_ttl`` after the restart unless someone sits or watches there."""
        n = 0
        for st in self.store.load_open_tables(finished_since=self.now() - self.finished_ttl):
            if st.state == FINISHED and st.record is None:
                continue  # abandoned before its game started: nothing to see
            if st.epoch:  # a cluster served it once: its writes need the epoch from now on
                await self.store.claim(st.id, self.store.server_id)
            try:
                await self.adopt(st)
            except (RuleError, ValueError) as e:
                log.error("could not restore table", extra={"table": st.id, "error": str(e)})
                continue
            n += 1
        return n

    async def adopt(self, st: StoredTable) -> Table:
        """Restore one stored table by replaying its record and serve it from now on."""
        table = self._restore_one(st)
        if table.state != FINISHED and table.game is not None and table.game.over:
            # it crashed after the last take but before marking the game finished
            await table.finish("played_out")
        elif table.lineup.clock is not None and table.state == PLAYING:
            await (
                table.course.save_life()
            )  # the move's new start: a second crash charges no downtime
        return table

    def _restore_one(self, st: StoredTable) -> Table:
        """The stored table, restored (``table_from_stored``) and served here."""
        table = table_from_stored(st, self.store, now=self.now, host=self)
        if table.state == FINISHED:
            self.finished_here += 1
        self.tables[st.id] = table
        self.counts.added(table)
        if table.state == PLAYING:
            self._schedule(table)
        for seat in table.seats:
            if seat.bot is not None and self.computers is not None and table.state != FINISHED:
                self.computers.seat(table, seat.index, seat.bot)
        return table

    # ------------------------------------------------------------- the tables' host
    def finished(self, table: Table) -> None:
        self._due_at.pop(table, None)  # its entry, now stale, leaves the heap in time
        self.games_finished += table.finish_reason != "abandoned"
        self.tables_abandoned += table.finish_reason == "abandoned"
        self.finished_here += 1

    def due_changed(self, table: Table) -> None:
        self._schedule(table)

    def changed(self, table: Table) -> None:
        """What a listing shows of the table and what it counts as may have changed."""
        self.directory.changed(table)
        self.counts.changed(table)

    def lost(self, table: Table) -> None:
        self.directory.lost(table)

    def stand_in(self, table: Table, seat: int) -> StandIn | None:
        return None if self.computers is None else self.computers.stand_in(table, seat)

    def release(self, table: Table) -> bool:
        """Stop serving ``table`` here (another node serves it now): forget it. False if
        it was not served here."""
        if self.tables.get(table.id) is not table:
            return False
        del self.tables[table.id]
        self._due_at.pop(table, None)
        if table.state == FINISHED:
            self.finished_here -= 1
        return True

    async def hint(self, table: Table, record: Record) -> Suggestion:
        """A hint for ``table`` (``TableHost.hint``), from the computer players."""
        if self.computers is None:
            raise TableError("not_allowed", "this server has no computer players", "hints")
        return await self.computers.hint(record)

    async def rematch(self, old: Table) -> Table:
        """Every person at ``old`` asked for a rematch: a new table with the same
        options, name, privacy, time rules and ratedness; everyone moves one seat on
        (colours rotate, RULES.md section 12.6), keeping their seat token and, a
        registered player, the link to its player (1.2); bots too. The people and
        spectators who can follow get ``rematched``, then the game starts."""
        n = old.options.players
        new, _ = await self.create(
            rematch_name(old.name),
            old.options.replace(seed=None),
            private=old.private,
            timing=old.timing,
            invite_hash=old.invite_hash,
            rated=old.rated,
        )
        for s in old.seats:
            to = new.seats[(s.index + 1) % n]
            if s.name is None:
                continue
            epoch = new.writes.epoch_held()
            await new.writes.seat(
                to.index, s.name, s.token_hash, s.bot, epoch=epoch, player=s.player
            )
            to.name, to.token_hash, to.bot, to.ready = s.name, s.token_hash, s.bot, True
            to.player = s.player
            if s.token_hash is not None:  # the token now opens the new seat
                epoch = old.writes.epoch_held()
                await old.writes.seat(s.index, s.name, None, s.bot, epoch=epoch, player=s.player)
                s.token_hash = None
            occ = s.occupant
            if s.bot is not None:
                if self.computers is not None:
                    self.computers.seat(new, to.index, s.bot)
            elif occ is not None and occ.deliver_rematch(old, new, to.index):
                to.occupant = occ
                s.occupant = None
        for occ in list(old.seating.spectators):
            if occ.deliver_rematch(old, new, None):
                old.seating.spectators.discard(occ)
                new.seating.spectators.add(occ)
        old.seating.note_presence()
        new.seating.note_presence()
        log.info("rematch", extra={"table": old.id, "new": new.id})
        old.broadcast_presence()
        new.broadcast_presence()
        await new.maybe_start()
        for s in new.seats:  # a person who could not follow is away from the start
            if s.person and s.occupant is None:
                new.lineup.went_away(s.index, self.now())
        self._schedule(new)
        return new

    async def tick(self, now: float | None = None) -> None:
        """Run the clocks and grace periods (``Table.tick``) of the running tables that
        have something due by ``now`` (``due``)."""
        now = self.now() if now is None else now
        for table in self.due(now):
            try:
                await table.tick(now)
            except Exception:
                log.exception("table tick failed", extra={"table": table.id})

    def due_scan(self, now: float) -> list[Table]:
        """The running tables with something due by ``now`` (``Table.next_due``), in
        creation order: the simple path, a look at every table, which ``due`` equals."""
        return [
            t
            for t in self.tables.values()
            if t.state == PLAYING and (d := t.next_due()) is not None and d <= now
        ]

    def due(self, now: float) -> list[Table]:
        """What ``due_scan`` finds, at the cost of the tables whose time has come rather
        than of all (bench/tick.py): each table keeps an entry in a heap at or before
        its ``next_due`` (``Table._due_changed`` calls ``_schedule``); the entries up to
        ``now`` come off, and each of their tables is scheduled again at its due time
        as it is now (still due: at once, for the next round)."""
        heap, due_at = self._deadlines, self._due_at
        came: list[Table] = []
        while heap and heap[0][0] <= now:
            at, _, table = heapq.heappop(heap)
            if due_at.get(table) == at:  # else stale: the table has a later entry
                del due_at[table]
                came.append(table)
        found = []
        for table in sorted(came, key=lambda t: t.serial):
            if self.tables.get(table.id) is not table:
                continue  # gone from the lobby
            self._schedule(table)
            if (d := table.next_due()) is not None and d <= now:
                found.append(table)
        return found

    def _schedule(self, table: Table) -> None:
        """Make sure an entry comes up at or before the table's
        ``next_due``. A later due time needs no new entry (the one there comes first
        and ``due`` looks again); a heap mostly of stale entries is rebuilt."""
        due = table.next_due()
        if due is None or self.tables.get(table.id) is not table:
            return  # nothing pending, or not served here (any more)
        at = self._due_at.get(table)
        if at is not None and at <= due:
            return
        self._due_at[table] = due
        heap = self._deadlines
        if len(heap) > 2 * len(self._due_at) + 64:
            heap[:] = [(d, t.serial, t) for t, d in self._due_at.items()]
            heapq.heapify(heap)
        else:
            heapq.heappush(heap, (due, table.serial, table))

    async def sweep_all(self, now: float | None = None) -> int:
        """The periodic clean-up: expire abandoned lobby tables (``expire_lobbies``),
        then forget old finished ones (``sweep``). Returns how many left memory."""
        now = self.now() if now is None else now
        return await self.expire_lobbies(now) + self.sweep(now)

    def _abandoned(self, table: Table, now: float) -> bool:
        if table.seating.idle_since is None:
            return False
        if table.state == LOBBY:
            return self.lobby_ttl > 0 and now - table.seating.idle_since >= self.lobby_ttl
        if table.state == PLAYING:
            return self.abandon_ttl > 0 and now - table.seating.idle_since >= self.abandon_ttl
        return False

    async def expire_lobbies(self, now: float | None = None) -> int:
        """Finish, as ``abandoned``, every table still in the lobby that nobody has sat
        at or watched for ``lobby_ttl`` seconds, and every running game no person has
        been connected to (or watched) for ``abandon_ttl`` seconds (server-side bots
        and stand-ins do not count; the game's result says ``abandoned``), and forget
        it at once: its seat tokens stop working, the store marks it finished and a
        restart does not bring it back. Returns how many left memory."""
        now = self.now() if now is None else now
        gone = 0
        for table in [t for t in self.tables.values() if self._abandoned(t, now)]:
            try:
                if not await table.finish("abandoned", only_if=lambda t: self._abandoned(t, now)):
                    continue  # someone came meanwhile
            except Exception:
                log.exception("could not expire table", extra={"table": table.id})
                continue
            # someone who watched or resumed while the store wrote stays able to see
            # the end; the table then leaves with the finished ones (``sweep``)
            if not table.seating.attended and self.tables.get(table.id) is table:
                del self.tables[table.id]
                self.finished_here -= 1
                gone += 1
        return gone

    def sweep(self, now: float | None = None) -> int:
        """Forget finished tables older than ``finished_ttl`` (their records stay stored;
        see ``sweep_all`` for the whole periodic clean-up)."""
        now = self.now() if now is None else now
        gone = [
            tid
            for tid, t in self.tables.items()
            if t.state == FINISHED
            and t.finished_at is not None
            and now - t.finished_at > self.finished_ttl
        ]
        for tid in gone:
            del self.tables[tid]
        self.finished_here -= len(gone)
        return len(gone)
