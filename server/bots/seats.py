"""Server-side bot seats: a bot fills a seat and plays it through the same table API.

A ``BotPlayer`` is an ``Occupant`` like a network session: it receives exactly the views
(``shared.view.view`` for its seat) and public events a person in that seat would, and
nothing else; it never sees the table's ``Game``. When its view says it is to move, it
thinks in a worker process (``botpool``: so the event loop keeps serving people, and
bots together use at most the pool's cores) and submits its take with the state version
of that view, like any client.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Sequence

from protocol import PROTOCOL_VERSION
from shared.analysis import Suggestion
from shared.bots import LEVELS, make_bot
from shared.bots.base import Bot
from shared.events import Event
from shared.record import Record
from shared.view import View

from ..core.journal import Step
from ..core.table import Table, TableError
from ..store import StoreUnavailable
from .analyst import Analyst
from .pool import BotPool, shared_pool

__all__ = [
    "BOT_LEVELS",
    "STAND_IN_LEVEL",
    "BotPlayer",
    "ComputerPlayers",
    "seat_bot",
    "start_stand_in",
]

log = logging.getLogger("kupferkessel.bots")

BOT_LEVELS: tuple[str, ...] = tuple(LEVELS)
RETRY_STORE = 1.0
"""Seconds a bot's move not stored (the store out of reach) waits to be tried again."""
STAND_IN_LEVEL = "medium"
"""The computer player that plays a person's seat while the person is away."""


class BotPlayer:
    minor = PROTOCOL_VERSION[1]
    """A bot is told all of a table's life, as the newest protocol tells it."""

    def __init__(self, table: Table, seat: int, bot: Bot, pool: BotPool | None = None) -> None:
        self.table = table
        self.seat = seat
        self.bot = bot
        self.pool = pool or shared_pool(0)
        self._observed = 0  # observe() calls: a bot back from a worker is kept only if
        # nothing was observed meanwhile
        self._pending: list[Event] = []
        self._task: asyncio.Task[None] | None = None
        self._thinking_on = -1
        self._stopped = False

    # Occupant ----------------------------------------------------------------
    def deliver_update(
        self,
        table: Table,
        events: Sequence[Event],
        view: View,
        version: int,
        re: int | None = None,
        by_computer: bool = False,
    ) -> None:
        self._pending.extend(events)
        self.deliver_view(table, view, version)

    def deliver_missed(
        self, table: Table, since: int, version: int, steps: Sequence[Step], omitted: int, re: int
    ) -> None:
        """A bot never asks (it hears every state as it is made)."""

    def deliver_hint(self, table: Table, version: int, hint: Suggestion, re: int) -> None:
        """A bot never asks for a hint."""

    def deliver_view(self, table: Table, view: View, version: int) -> None:
        if self._pending:
            self.bot.observe(self._pending, view)
            self._pending = []
            self._observed += 1
        if (
            self._stopped
            or view.game_over
            or view.to_move != self.seat
            or self._thinking_on == version
        ):
            return
        self._thinking_on = version
        self._task = asyncio.get_running_loop().create_task(self._play(view, version))

    def deliver_result(self, table: Table, view: View, version: int) -> None:
        pass

    def deliver_presence(self, table: Table) -> None:
        pass

    def deliver_rematch(self, table: Table, new: Table, seat: int | None) -> bool:
        return False  # the new table seats bots of its own

    def deliver_chat(self, table: Table, seat: int | None, name: str, text: str) -> None:
        pass

    def deliver_finished(self, table: Table, reason: str, seat: int | None) -> None:
        if self._task is not None:
            self._task.cancel()

    def replaced(self, table: Table, seat: int) -> None:
        pass

    async def stop(self) -> None:
        """The server is shutting down: no new move, and a move in progress is dropped
        before the store closes (the game resumes from its record on restart)."""
        self._stopped = True
        task, self._task = self._task, None
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    # -------------------------------------------------------------------------
    async def _play(self, view: View, version: int) -> None:
        try:
            observed = self._observed
            take, bot = await self.pool.decide(self.bot, view)
            if self._observed == observed:
                self.bot = bot  # its random state and memory as deciding left them
            while True:  # the store out of reach: the move waits until it is back
                try:
                    await self.table.take_for_seat(self.seat, take, version, by=self)
                    break
                except StoreUnavailable:
                    log.warning("bot take not stored: trying again", extra={"table": self.table.id})
                    await asyncio.sleep(RETRY_STORE)
        except TableError as e:  # the game moved on (e.g. a resignation): nothing to do
            log.info("bot take refused", extra={"table": self.table.id, "code": e.code})
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("bot failed", extra={"table": self.table.id, "seat": self.seat})


def _remembering(
    table: Table, seat: int, level: str, think: float | None, pool: BotPool | None
) -> BotPlayer:
    """A bot for ``seat`` thinking in ``pool`` (default: a thread), with the game's
    public history so far in its memory, as a person who had watched it would remember
    it (nothing is sent to it yet)."""
    bot = make_bot(level, seat, seed=secrets.randbits(32), budget=think)
    occupant = BotPlayer(table, seat, bot, pool)
    if table.record is not None and table.game is not None:
        history: list[Event] = []
        table.record.replay(events=history)
        occupant._pending = history
    return occupant


def seat_bot(
    table: Table,
    seat: int,
    level: str,
    *,
    think: float | None = None,
    pool: BotPool | None = None,
) -> BotPlayer:
    """Seat a bot of ``level`` at ``table``, thinking in ``pool``; a restored game's
    public history is replayed into its memory."""
    occupant = _remembering(table, seat, level, think, pool)
    table.place_bot(seat, occupant)
    table.send_view_to(occupant)
    return occupant


def start_stand_in(
    table: Table, seat: int, *, think: float | None = None, pool: BotPool | None = None
) -> BotPlayer:
    """A computer player for a person's seat (``TableHost.stand_in``): it gets the seat's
    view at once and moves whenever the seat is to move, until it is stopped."""
    occupant = _remembering(table, seat, STAND_IN_LEVEL, think, pool)
    table.send_view_to(occupant, seat)
    return occupant


class ComputerPlayers:
    """The server's computer players, thinking ``think`` seconds a move (None: each
    level's own) in ``pool``: what the lobby seats at a table or starts for an absent
    person (``server.lobby.Computers``). Without a pool they think in threads."""

    def __init__(
        self,
        pool: BotPool | None = None,
        think: float | None = None,
        analyst: Analyst | None = None,
    ) -> None:
        self.pool = pool
        self.think = think
        self.analyst = analyst or Analyst(0)  # 1.5's hints

    def seat(self, table: Table, seat: int, level: str) -> BotPlayer:
        return seat_bot(table, seat, level, think=self.think, pool=self.pool)

    def stand_in(self, table: Table, seat: int) -> BotPlayer:
        return start_stand_in(table, seat, think=self.think, pool=self.pool)

    async def hint(self, record: Record) -> Suggestion:
        return await self.analyst.suggest(record)
