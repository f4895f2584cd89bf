"""The course of a table's game: its record, the game replayed from it and its state
version, and how one take becomes the game's (docs/ARCHITECTURE.md, "How one take
travels"): tried on a copy, stored, and only then made the game's and told; a game's
last take stores its end too (``Ending``) before anyone hears of it.

``Course`` is that, as a plain object a ``Table`` holds: handed the table's ``Writes``,
``Lineup`` (the clock), ``Telling`` and ``Ending``, the time, ``due_changed`` (what
the table does once a clock started) and what the game's life is stored with (the
server running it, whether the table is rated). It deals the game (``start``) and
stores its life beyond its record (``life``, ``save_life``). Each call runs under the
table's lock and is handed the ``Over`` it is told of: the table, as its occupants
know it.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable
from typing import Any

from shared.clock import Clock
from shared.errors import RuleError
from shared.events import Event, TimedOut
from shared.game import Game, Take
from shared.options import Options
from shared.record import Record
from shared.result import announced

from ..aio import outlast, to_the_end
from .ending import Ending, Over
from .errors import TableError
from .journal import Journal
from .lineup import Lineup, Mark
from .seating import Occupant
from .telling import Telling
from .writes import Writes

__all__ = ["Course"]

log = logging.getLogger("kupferkessel.table")


class Course:
    """The game of a table, from its deal on (see the module docstring)."""

    def __init__(
        self,
        writes: Writes,
        lineup: Lineup[Any],
        telling: Telling,
        ending: Ending,
        now: Callable[[], float],
        due_changed: Callable[[], None],
        *,
        server: str,
        rated: bool,
    ) -> None:
        self.writes = writes
        self.lineup = lineup
        self.telling = telling
        self.ending = ending
        self.now = now
        self.due_changed = due_changed
        self.server, self.rated = server, rated  # what a life is stored with (``Lineup.life``)
        self.game: Game | None = None  # None: in the lobby
        self.record: Record | None = None
        self.version = 0
        self.journal = Journal()  # 1.4: each state's events, for whoever missed them

    async def start(self, scene: Over, options: Options) -> None:
        """Deal the game of ``options`` (a seed drawn unless the creator chose one) and
        store it, with its first clock (a crash knows the first move's start); then it
        runs, and everyone is told."""
        epoch = self.writes.epoch_held()
        if options.seed is None:
            options = options.replace(seed=secrets.randbits(63))
        events: list[Event] = []
        record, game = Record.deal(options, events)
        clock = self.lineup.new_clock(game.to_move, self.now())
        await self.writes.start(record, self.life(clock), epoch=epoch)
        self.started(record, game)
        self.lineup.clock = clock
        self.due_changed()
        log.info("game started", extra={"table": self.writes.table_id})
        self.telling.update(scene, events)

    def life(self, clock: Clock | None = None) -> dict[str, Any] | None:
        """What the store keeps of the game beyond its record (``Lineup.life``), with
        ``clock`` for the lineup's."""
        return self.lineup.life(self.server, self.rated, clock)

    async def save_life(self) -> None:
        """Store ``life()`` now (a running game's)."""
        life = self.life()
        if life is not None and self.game is not None and not self.ending.done:
            await self.writes.life(life, epoch=self.writes.epoch_held())

    def started(self, record: Record, game: Game, version: int = 0) -> None:
        """The game of ``record`` runs (dealt, or replayed up to ``version``)."""
        self.record, self.game, self.version = record, game, version

    def running(self, state_version: int) -> Game:
        """The game, if it runs and is at ``state_version`` (else the refusal)."""
        game = self.game
        if game is None or self.record is None:
            raise TableError("not_started", "the game has not started yet")
        if self.ending.done:
            raise TableError("game_over", "the game is over")
        if state_version != self.version:
            raise TableError(
                "stale_state",
                f"that intent was decided on state {state_version}; "
                f"the game is at state {self.version}",
            )
        return game

    def hinted(self, seat: int, hints: bool) -> tuple[Record, int]:
        """For a hint (1.5) to ``seat``: the record so far (a copy) and the state
        version, if hints are allowed (``hints``), the game runs and it is ``seat``'s
        turn (else the refusal)."""
        if not hints:
            raise TableError("not_allowed", "this table's options allow no hints", "hints")
        game = self.running(self.version)
        if seat != game.to_move:
            raise TableError("not_your_turn", f"it is seat {game.to_move}'s turn")
        assert self.record is not None
        record = Record(self.record.options, self.record.setup, list(self.record.actions))
        return record, self.version

    async def take(
        self,
        scene: Over,
        seat: int,
        take: Take,
        events: list[Event],
        answer: tuple[Occupant, int] | None = None,
        by_computer: bool = False,
    ) -> bool:
        """Validate, store, then announce one take (the table's lock held); the last
        take of the game stores and announces its result too. Returns whether its
        update answered ``answer`` (its occupant and message id). ``by_computer``: a
        computer player makes it for a person's seat (kept with it: ``Mark``)."""
        assert self.game is not None and self.record is not None
        # the claim this take is accepted under; its writes carry it
        epoch = self.writes.epoch_held()
        trial = self.game.copy()
        try:
            trial.apply(take, seat, events)
        except RuleError as e:
            raise TableError("illegal_move", e.message, e.code) from e
        index = len(self.record.actions)
        mark = Mark(index, by_computer, bool(events) and isinstance(events[0], TimedOut))
        clock = self.lineup.clock_after(None if trial.over else trial.to_move, self.now())
        # durable before the ack; once the write is asked for, the table follows it
        # whatever happens to the caller (a stand-in stopped, a connection gone): see
        # ``_commit``; a game's last take stores its end too: a task of its own
        commit = self._commit(scene, mark, take, trial, clock, events, epoch, answer)
        return await (to_the_end(commit) if trial.over else commit)

    async def _commit(
        self,
        scene: Over,
        mark: Mark,
        take: Take,
        trial: Game,
        clock: Clock | None,
        events: list[Event],
        epoch: int | None,
        answer: tuple[Occupant, int] | None,
    ) -> bool:
        """Store take ``mark.index`` under ``epoch``, then make it the game's (and
        announce it): cancelled meanwhile, all of that first (``outlast``), and nothing
        after it suspends but a game's last take, which its caller runs in a task of its
        own."""
        assert self.record is not None and self.game is not None
        life = self.lineup.life(self.server, self.rated, clock, mark)
        write = self.writes.take(mark.index, take, life, epoch=epoch)
        cancelled = await outlast(write)
        await self.writes.durable(write)  # done: its failure, if any, raised at once
        seat = self.game.to_move
        self.lineup.made(mark)
        self.record.actions.append(take)
        self.game = trial
        self.lineup.clock = clock
        self.version += 1
        self.due_changed()
        if trial.over:  # the end is stored before anyone hears of it
            result = self.lineup.judge(trial, "played_out")
            await self.ending.store_end(scene, result, epoch=epoch)
            events = announced(events, result)
        self.journal.add(seat, tuple(events), mark.by_computer)
        answered = self.telling.update(scene, events, answer, mark.by_computer)
        if trial.over:
            self.ending.tell(scene)
        if cancelled:
            raise asyncio.CancelledError
        return answered
