"""Protocol 1.5's analyses of finished games: who may have one, what it may cost, and
each made once.

Why: an analysis is costly (the expert's search over every decision of a game, some
10 to 14 s of a core at the default budget) and the same for everyone who asks (the
same record, budget and seed give the same analysis). So it is made once per game, at
the first request, and kept in the store with the game (``Store.save_analysis``):
every later request, from anyone, after any restart, on any node, is answered from the
store at the cost of a read. Only a request that makes one is bounded:

- **who may see the game**: exactly as ``get_record`` (``Players.finished``);
- **per player and per address**: a budget of analyses made (a token bucket each:
  ``AnalysisBounds.per_hour`` in bursts of ``burst``), refused with ``rate_limited``
  and the seconds after which asking again can succeed (``retry_after``);
- **overall**: at most ``workers`` analyses are made at once, in the analyst's worker
  processes below the bots' moves (``server.bots.analyst``), and at most ``queue``
  wait for one, served address by address (``FairSlots``); past that, ``rate_limited``
  with the wait the line ahead would take. Two requests for the same game while it is
  made share the one analysis (the second costs nothing). A request whose connection
  closed while it waited is dropped before its analysis is made.

The bounds are per server process, as the sign-in's are: the work takes the node's own
CPU, which no other node's count would protect.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from dataclasses import dataclass

from protocol import messages as m
from protocol.convert import analysis_message
from shared.analysis import DEFAULT_BUDGET, Analysis
from shared.record import Record

from ..bots.analyst import Analyst
from ..core.errors import TableError
from ..store import Store
from ..store.players import StoredPlayer
from .hashing import Budgets, Busy, Requester
from .slots import FairSlots

__all__ = ["NO_ANALYSIS_QUOTAS", "Analyses", "AnalysisBounds"]

SEED = 0
"""Every analysis's seed: a game's analysis is the same whoever asks, whenever."""


@dataclass(frozen=True)
class AnalysisBounds:
    """What analyses may cost (``kupferkessel serve`` flags, docs/SERVER.md)."""

    budget: int = DEFAULT_BUDGET
    """Sampled deals each decision is weighed over (docs/BOTS.md, "What it costs")."""
    workers: int = 1
    """Analyses made at once: the analyst's worker processes (0: in a thread)."""
    queue: int = 8
    """Requests waiting for a worker at most; more are refused (``rate_limited``)."""
    per_hour: float = 6.0
    """Analyses one client address, and one player, may have made per hour..."""
    burst: int = 3
    """... in bursts of up to this many."""
    hints_per_minute: float = 6.0
    """Hints (``ask_hint``) one address, and one player, may ask for a minute..."""
    hint_burst: int = 3
    """... in bursts of up to this many."""
    hints_at_once: int = 4
    """Hints asked for and not yet answered, on the whole server, at most."""


NO_ANALYSIS_QUOTAS = AnalysisBounds(
    per_hour=1e9, burst=10**9, hints_per_minute=1e9, hint_burst=10**9
)
"""No budget per address or player (the workers and their line as by default): for
tests and benchmarks whose many players all come from one address."""


class Analyses:
    """The analyses of one server's finished games (``answer``)."""

    def __init__(
        self,
        store: Store,
        finished: Callable[[str, StoredPlayer | None], tuple[object, Record]],
        analyst: Analyst,
        bounds: AnalysisBounds | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.bounds = bounds = bounds or AnalysisBounds()
        self.store = store
        self.analyst = analyst
        self._finished = finished
        self._addresses = Budgets(bounds.per_hour / 3600, bounds.burst, clock)
        self._players = Budgets(bounds.per_hour / 3600, bounds.burst, clock)
        self._hint_addresses = Budgets(bounds.hints_per_minute / 60, bounds.hint_burst, clock)
        self._hint_players = Budgets(bounds.hints_per_minute / 60, bounds.hint_burst, clock)
        self._slots = FairSlots(max(1, bounds.workers), bounds.queue)
        self._making: dict[str, asyncio.Future[Analysis]] = {}  # table id -> being made
        self._seconds = 10.0  # an analysis's wall time, as measured lately (retry_after)
        self._running = 0
        self.made = 0  # analyses made (not answered from the store)
        self.refused = 0  # requests refused by a bound

    @property
    def running(self) -> int:
        """Analyses being made now (each in a worker)."""
        return self._running

    async def answer(
        self, table_id: str, viewer: StoredPlayer | None, who: Requester
    ) -> m.AnalysisMsg:
        """The ``analysis`` of the finished game at ``table_id`` for ``viewer`` (signed
        in, or None), asked by ``who``: from the store if kept, else made within the
        bounds (module docstring)."""
        record, kept = await self.store.apart(lambda: self._read(table_id, viewer))
        if kept is not None:
            return analysis_message(table_id, kept)
        making = self._making.get(table_id)
        if making is None:
            self._charge(viewer, who)
            making = asyncio.ensure_future(self._make(table_id, record, viewer, who))
            self._making[table_id] = making
            making.add_done_callback(lambda _: self._making.pop(table_id, None))
        return analysis_message(table_id, await asyncio.shield(making))

    def _read(self, table_id: str, viewer: StoredPlayer | None) -> tuple[Record, Analysis | None]:
        """The game's record if ``viewer`` may see it, and its analysis if kept."""
        _, record = self._finished(table_id, viewer)
        kept = self.store.load_analysis(table_id)
        return record, None if kept is None else Analysis.from_dict(json.loads(kept))

    def _charge(self, viewer: StoredPlayer | None, who: Requester) -> None:
        """Spend one analysis of ``who``'s address's budget and of ``viewer``'s;
        ``Busy`` (nothing spent) if either is short."""
        self._spend(self._addresses, self._players, viewer, who, "analyses")

    def charge_hint(self, viewer: StoredPlayer | None, who: Requester) -> Callable[[], None]:
        """Spend one hint (1.5's ``ask_hint``) of ``who``'s address's budget and of
        ``viewer``'s; ``Busy`` (nothing spent) if either is short. Returns what gives
        it back (the table refused the hint)."""
        self._spend(self._hint_addresses, self._hint_players, viewer, who, "hints")

        def give_back() -> None:
            self._hint_addresses.give_back(who.address, 1)
            if viewer is not None:
                self._hint_players.give_back(viewer.id, 1)

        return give_back

    def _spend(
        self,
        addresses: Budgets,
        players: Budgets,
        viewer: StoredPlayer | None,
        who: Requester,
        what: str,
    ) -> None:
        try:
            addresses.take(who.address, 1, what)
            if viewer is not None:
                try:
                    players.take(viewer.id, 1, what, "your player")
                except Busy:
                    addresses.give_back(who.address, 1)
                    raise
        except Busy:
            self.refused += 1
            raise

    async def _make(
        self, table_id: str, record: Record, viewer: StoredPlayer | None, who: Requester
    ) -> Analysis:
        """The game's analysis made in a worker once one is free, then kept; a request
        refused by the full line, or dropped, gets back what ``_charge`` spent."""
        try:
            await self._slots.acquire(who.address, self._full)
        except Busy:
            self._give_back(viewer, who)
            raise
        try:
            if not who.alive():
                self._give_back(viewer, who)
                raise TableError("rate_limited", "the connection closed before its turn")
            began = time.perf_counter()
            self._running += 1
            try:
                analysis = await self.analyst.analyse(record, self.bounds.budget, SEED)
            finally:
                self._running -= 1
            self._seconds = 0.8 * self._seconds + 0.2 * (time.perf_counter() - began)
        finally:
            self._slots.release()
        text = json.dumps(analysis.to_dict(), separators=(",", ":"))
        await self.store.save_analysis(table_id, analysis.budget, text, time.time())
        self.made += 1
        return analysis

    def _give_back(self, viewer: StoredPlayer | None, who: Requester) -> None:
        self._addresses.give_back(who.address, 1)
        if viewer is not None:
            self._players.give_back(viewer.id, 1)

    def _full(self) -> Busy:
        """The refusal of a request the full line has no room for."""
        self.refused += 1
        workers = max(1, self.bounds.workers)
        wait = self._seconds * (self._slots.waiting + 1) / workers
        return Busy("the server is busy analysing games: try again later", wait)
