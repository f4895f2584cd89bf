"""Tables: seats, spectators and the one game each table plays, from its start to its
result and, if everyone wants, a rematch.

A ``Table`` owns its ``Game`` and every secret of it. It never sends anything itself:
it calls its occupants (network sessions or server-side bots, see ``Occupant``) with
views built by ``shared.view.view`` and with public events, and nothing else. Intents to
one table are applied one at a time under its lock; each is validated against the
state version it was decided on, applied to a copy of the game, made durable in the
store, and only then acknowledged and broadcast. Likewise a game's end (the last take,
a resignation, a claim, time-outs, an abandoned table) is stored before anyone hears
of it, and every ending has a result (``shared.result``, RULES.md section 12).

A table's life beyond the moves (RULES.md section 12, docs/PROTOCOL.md "A table's whole
life") is driven by ``tick``, which the lobby calls with the current time: a seat whose
person is disconnected longer than the grace period is played by a computer player (a
*stand-in*) until the person resumes; on a clocked table a move whose time ran out is
made by a computer player; the time comes from ``Table.now``, injected in tests.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import itertools
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from shared.bots import make_bot
from shared.clock import Clock, ClockView, Timing
from shared.errors import RuleError
from shared.events import Event, TimedOut
from shared.game import Game, Take
from shared.options import Options
from shared.record import Record
from shared.result import GameResult, judge
from shared.view import View, views

from ..store import StaleOwner, Store

__all__ = [
    "DETACHED",
    "EXPIRY_BOT",
    "Detached",
    "Occupant",
    "Seat",
    "StandIn",
    "Table",
    "TableError",
    "TableHost",
    "hash_token",
    "new_token",
]

log = logging.getLogger("kupferkessel.table")

LOBBY, PLAYING, FINISHED = "lobby", "playing", "finished"

_serials = itertools.count(1)
"""Every table made in this process gets the next number: the lobby listing's order."""
EXPIRY_BOT = "easy"
"""The computer player that makes a move whose time ran out: quick and sound."""


class TableError(Exception):
    """A request a table refuses; ``code`` is a protocol error code, ``detail`` the
    engine's own code for an illegal move."""

    def __init__(self, code: str, message: str, detail: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.detail = detail


def new_token() -> str:
    """A fresh seat token: 192 random bits from ``secrets``."""
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    """Tokens are kept only as their SHA-256 hash, in memory and on disk."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


class Occupant(Protocol):
    """Who receives a seat's or a spectator's traffic: a network session or a bot seat.
    Every call carries only a view made for this occupant or public facts."""

    def deliver_view(self, table: Table, view: View, version: int) -> None:
        """A fresh view (on joining, watching or resuming)."""
        ...

    def deliver_update(
        self, table: Table, events: Sequence[Event], view: View, version: int
    ) -> None:
        """A new state: its public events (possibly none), then the view made for
        this occupant."""
        ...

    def deliver_result(self, table: Table, view: View, version: int) -> None:
        """The final view of a game that ended without its last take (resigned,
        claimed, timed out, abandoned): ``view.result`` says how."""
        ...

    def deliver_presence(self, table: Table) -> None: ...

    def deliver_chat(self, table: Table, seat: int | None, name: str, text: str) -> None: ...

    def deliver_finished(self, table: Table, reason: str, seat: int | None) -> None: ...

    def deliver_rematch(self, table: Table, new: Table, seat: int | None) -> bool:
        """A rematch starts at ``new`` where this occupant now sits at ``seat`` (None:
        watches). Returns False if it stays behind (it cannot follow)."""
        ...

    def replaced(self, table: Table, seat: int) -> None:
        """Another connection resumed this seat with its token."""
        ...


class StandIn(Occupant, Protocol):
    """A computer player playing a person's seat (absent, timed out, or resigned with
    three players): it gets that seat's views and moves when the seat is to move."""

    async def stop(self) -> None: ...


class TableHost(Protocol):
    """What a table tells whoever serves it (the lobby), and asks of it: one typed
    object handed to the table, instead of callbacks set on it from outside."""

    def finished(self, table: Table) -> None:
        """The table's end is stored (its game ended, or it was abandoned)."""

    def due_changed(self, table: Table) -> None:
        """``table.next_due()`` may have come earlier (a clock, a grace period)."""

    def changed(self, table: Table) -> None:
        """What a listing shows of the table, or what it counts as against the quotas,
        may have changed (who sits or watches, readiness, its state)."""

    def lost(self, table: Table) -> None:
        """The store refused a write: another node serves the table now."""

    def stand_in(self, table: Table, seat: int) -> StandIn | None:
        """A computer player (started) for a person's seat; None if there are none."""

    async def rematch(self, table: Table) -> object:
        """Every person at the finished ``table`` voted for a rematch: start it."""


class Detached:
    """The host of a table nobody serves: one built to be looked at (a listing of
    another node's tables, a test), which hears nothing and has no computer players."""

    def finished(self, table: Table) -> None:
        pass

    def due_changed(self, table: Table) -> None:
        pass

    def changed(self, table: Table) -> None:
        pass

    def lost(self, table: Table) -> None:
        pass

    def stand_in(self, table: Table, seat: int) -> StandIn | None:
        return None

    async def rematch(self, table: Table) -> object:
        return None


DETACHED: TableHost = Detached()


@dataclass
class Seat:
    index: int
    name: str | None = None
    token_hash: str | None = None
    bot: str | None = None  # bot level, for a seat filled by the server
    ready: bool = False
    occupant: Occupant | None = None

    @property
    def taken(self) -> bool:
        return self.name is not None

    @property
    def connected(self) -> bool:
        return self.occupant is not None

    @property
    def person(self) -> bool:
        """Taken by a person (not a server-side bot)."""
        return self.name is not None and self.bot is None


class Table:
    def __init__(
        self,
        table_id: str,
        name: str,
        options: Options,
        store: Store,
        *,
        private: bool = False,
        invite_hash: str | None = None,
        created: float | None = None,
        timing: Timing | None = None,
        now: Callable[[], float] | None = None,
        host: TableHost = DETACHED,
    ) -> None:
        self.id = table_id
        self.host = host
        self.name = name
        self.options = options  # may carry a seed chosen by the creator
        self.store = store
        self.private = private
        self.invite_hash = invite_hash
        self.timing = timing or Timing()
        self.now = now or time.time
        self.created = self.now() if created is None else created
        self.seats = [Seat(i) for i in range(options.players)]
        self.spectators: set[Occupant] = set()
        self.state = LOBBY
        self.game: Game | None = None
        self.record: Record | None = None
        self.version = 0
        self.finished_at: float | None = None
        self.finish_reason: str | None = None  # the result's ending (or abandoned)
        self.result: GameResult | None = None
        self.resigned: list[int] = []  # seats that resigned, in order
        self.replaced: set[int] = set()  # seats a computer player played at some point
        self.timed_out: set[int] = set()  # seats taken over after time-outs in a row
        self.expiries = [0] * options.players  # time-outs in a row, per seat
        self.absent_since: dict[int, float] = {}  # a person's seat, disconnected
        self.stand_ins: dict[int, StandIn] = {}  # seat -> the computer player playing it
        self.clock: Clock | None = None
        self.rematch_votes: set[int] = set()
        self.lock = asyncio.Lock()
        # the client address whose quotas the table counts against (``server.lobby.quotas``)
        self.made_by: str | None = None
        # since when no person has sat or watched here (None while someone does); set
        # at creation and restore, kept by ``_note_presence``; the lobby expires tables
        # left unattended (``Lobby.expire_lobbies``, ``Lobby.tick``)
        self.idle_since: float | None = self.now()
        self.serial = next(_serials)

    # ------------------------------------------------------------- the store
    def epoch_held(self) -> int | None:
        """The epoch this node holds the table under now. An intent captures it when it
        is accepted and its writes carry it, so a write can never outlive the claim its
        intent was accepted under (``Store.held``)."""
        return self.store.held(self.id)

    async def durable(self, write: Awaitable[None]) -> None:
        """Await a write of this table. One refused by its fence means another node
        serves the table now: the intent is answered ``stale_state`` (its session gets a
        fresh view from the new owner) and the host stops serving it here."""
        try:
            await write
        except StaleOwner as e:
            log.warning("write refused: another node serves the table", extra={"table": self.id})
            self.host.lost(self)
            raise TableError(
                "stale_state",
                "another node serves this table now: decide again on its fresh view",
            ) from e

    # ------------------------------------------------------------- queries
    def occupants(self) -> list[tuple[int | None, Occupant]]:
        """Everyone who hears of this table: seats' occupants, stand-ins, spectators."""
        out: list[tuple[int | None, Occupant]] = [
            (s.index, s.occupant) for s in self.seats if s.occupant is not None
        ]
        out.extend(self.stand_ins.items())
        out.extend((None, o) for o in self.spectators)
        return out

    @property
    def attended(self) -> bool:
        """A person sits or watches here (a server-side bot does not count)."""
        return bool(self.spectators) or any(
            s.occupant is not None and s.bot is None for s in self.seats
        )

    def _note_presence(self) -> None:
        """Keep ``idle_since`` after someone came or went."""
        if self.attended:
            self.idle_since = None
        elif self.idle_since is None:
            self.idle_since = self.now()

    def seat_of(self, occupant: Occupant) -> int | None:
        for s in self.seats:
            if s.occupant is occupant:
                return s.index
        return None

    def invite_ok(self, code: str | None) -> bool:
        """Whether ``code`` lets one join or watch (any code will do at a public table)."""
        if not self.private:
            return True
        return code is not None and secrets.compare_digest(hash_token(code), self.invite_hash or "")

    @property
    def bots_only(self) -> bool:
        """Every seat is a server-side bot's."""
        return all(s.bot is not None for s in self.seats)

    @property
    def open(self) -> bool:
        """Waiting in the lobby with a free seat: someone may join."""
        return self.state == LOBBY and any(not s.taken for s in self.seats)

    @property
    def seeded(self) -> bool:
        """The creator chose the seed: they may know the whole deal."""
        return self.options.seed is not None

    def absent(self, seat: int) -> bool:
        """A person's seat played by a computer player because its person is away
        (disconnected past the grace period, or timed out several moves in a row)."""
        return seat in self.stand_ins and seat not in self.resigned

    # ------------------------------------------------------------- sending
    def _clock_view(self) -> ClockView | None:
        return None if self.clock is None else self.clock.view(self.now())

    def _views(self, seats: Sequence[int | None]) -> dict[int | None, View]:
        assert self.game is not None
        unique = list(dict.fromkeys(seats))
        made = views(self.game, unique, result=self.result, clock=self._clock_view())
        return dict(zip(unique, made, strict=True))

    def view_for(self, seat: int | None) -> View:
        """The view of ``seat`` (None: a spectator's) now."""
        return self._views([seat])[seat]

    def _send_update(self, events: Sequence[Event]) -> None:
        """A new state: to every seat, stand-in and spectator its public events and the
        view made for it (spectators share one)."""
        targets = self.occupants()
        made = self._views([seat for seat, _ in targets])
        for seat, occ in targets:
            occ.deliver_update(self, events, made[seat], self.version)

    def send_view_to(self, occupant: Occupant, seat: int | None = None) -> None:
        """A fresh full view for one occupant (on join, watch or resume), made for its
        seat (or ``seat``, for a stand-in)."""
        if self.game is not None:
            if seat is None:
                seat = self.seat_of(occupant)
            made = self.view_for(seat)
            if self.result is not None and not self.game.over and getattr(occupant, "minor", 1) < 1:
                # protocol 1.0 never saw a game end early: the last position, as before
                made = views(self.game, [seat])[0]
            occupant.deliver_view(self, made, self.version)

    def broadcast_presence(self) -> None:
        self.host.changed(self)
        for _, occ in self.occupants():
            occ.deliver_presence(self)

    def chat(self, occupant: Occupant, name: str, text: str) -> None:
        """A line to everyone here: a seat speaks under its seat's name, a spectator
        under its own name marked ``(spectator)``, never as a seated player."""
        seat = self.seat_of(occupant)
        name = f"{name} (spectator)" if seat is None else self.seats[seat].name or name
        for _, occ in self.occupants():
            occ.deliver_chat(self, seat, name, text)

    # ------------------------------------------------------------- lobby
    async def join(
        self, name: str, occupant: Occupant, seat: int | None = None, *, seeded: bool = False
    ) -> tuple[int, str]:
        """Take a free seat (the given one, or the first free); returns (seat, token).
        A table whose creator chose the seed takes only those who say they know it
        (``seeded``)."""
        async with self.lock:
            if self.state != LOBBY:
                raise TableError("not_in_lobby", "the game has started: watch it instead")
            if self.seeded and not seeded:
                raise TableError(
                    "not_allowed",
                    "this table's creator chose the seed and may know the whole deal;"
                    " join with seeded: true to sit down anyway",
                )
            if seat is not None:
                if not 0 <= seat < len(self.seats):
                    raise TableError("invalid_field", f"no seat {seat} at this table")
                if self.seats[seat].taken:
                    raise TableError("seat_taken", f"seat {seat} is taken")
                chosen = self.seats[seat]
            else:
                free = [s for s in self.seats if not s.taken]
                if not free:
                    raise TableError("table_full", "every seat at this table is taken")
                chosen = free[0]
            token = new_token()
            th = hash_token(token)
            await self.durable(
                self.store.set_seat(self.id, chosen.index, name, th, None, epoch=self.epoch_held())
            )
            chosen.name, chosen.token_hash, chosen.occupant, chosen.ready = (
                name,
                th,
                occupant,
                False,
            )
            self.spectators.discard(occupant)
            self._note_presence()
        self.broadcast_presence()
        return chosen.index, token

    async def add_bot(self, level: str, seat: int | None = None) -> int:
        """Fill a free seat with a server-side bot of ``level`` (ready at once)."""
        async with self.lock:
            if self.state != LOBBY:
                raise TableError("not_in_lobby", "bots can only be seated before the game")
            free = [s for s in self.seats if not s.taken and (seat is None or s.index == seat)]
            if not free:
                raise TableError("table_full", "no free seat for a bot")
            chosen = free[0]
            name = f"{level} bot"
            epoch = self.epoch_held()
            await self.durable(
                self.store.set_seat(self.id, chosen.index, name, None, level, epoch=epoch)
            )
            chosen.name, chosen.bot, chosen.ready = name, level, True
        self.broadcast_presence()
        return chosen.index

    def attach_bot(self, seat: int, occupant: Occupant) -> None:
        self.seats[seat].occupant = occupant

    def watch(self, occupant: Occupant) -> None:
        self.spectators.add(occupant)
        self._note_presence()
        self.send_view_to(occupant)
        self.broadcast_presence()

    async def leave(self, occupant: Occupant) -> None:
        """Leave the table. Before the game a seat is given up; during it the seat stays
        the player's (resume with the token) and only the connection detaches: after
        the grace period a computer player plays it until the person resumes."""
        if occupant in self.spectators:
            self.spectators.discard(occupant)
            self._note_presence()
            self.broadcast_presence()
            return
        async with self.lock:
            seat = self.seat_of(occupant)  # under the lock: a resume may have replaced it
            if seat is None:
                raise TableError("not_seated", "you are not at this table")
            epoch = self.epoch_held()
            s = self.seats[seat]
            s.occupant = None
            self._went_away(seat)
            self._note_presence()
            if self.state == LOBBY:
                # the token dies before the store is written: a ``resume`` of it racing
                # this leave finds no seat (not a seat without a name)
                s.name = s.token_hash = None
                s.ready = False
                await self.durable(self.store.clear_seat(self.id, seat, epoch=epoch))
        self.broadcast_presence()

    def detach(self, occupant: Occupant) -> None:
        """The connection closed: keep the seat, mark it disconnected."""
        self.spectators.discard(occupant)
        for s in self.seats:
            if s.occupant is occupant:
                s.occupant = None
                self._went_away(s.index)
        self._note_presence()
        self.broadcast_presence()

    def _went_away(self, seat: int) -> None:
        """A person's connection left its seat during the game: the grace period runs."""
        if self.state == PLAYING and self.seats[seat].person:
            self.absent_since.setdefault(seat, self.now())
            self._due_changed()

    def resume(self, token_hash: str, occupant: Occupant) -> int:
        """Take a seat back with its token; an older connection on it is replaced, and
        a computer player standing in for an absent person stops."""
        for s in self.seats:
            if s.token_hash is not None and secrets.compare_digest(s.token_hash, token_hash):
                old = s.occupant
                s.occupant = occupant
                self.spectators.discard(occupant)
                self._note_presence()
                self._back(s.index)
                if old is not None and old is not occupant:
                    old.replaced(self, s.index)
                self.send_view_to(occupant)
                self.broadcast_presence()
                return s.index
        raise TableError("bad_token", "that seat token is not valid here")

    async def set_ready(self, occupant: Occupant, ready: bool = True) -> None:
        seat = self.seat_of(occupant)
        if seat is None:
            raise TableError("not_seated", "only a seated player can be ready")
        if self.state != LOBBY:
            raise TableError("not_in_lobby", "the game has already started")
        self.seats[seat].ready = ready
        self.broadcast_presence()
        await self.maybe_start()

    async def maybe_start(self) -> None:
        """Start the game once every seat is taken and everyone is ready (a bot always is)."""
        async with self.lock:
            if self.state != LOBBY or not all(s.taken and s.ready for s in self.seats):
                return
            epoch = self.epoch_held()
            options = self.options
            if options.seed is None:
                options = options.replace(seed=secrets.randbits(63))
            events: list[Event] = []
            record, game = Record.deal(options, events)
            clock = None
            if self.timing.clocked:  # stored with the game: a crash knows the first move's start
                clock = Clock(self.timing, options.players)
                clock.start(game.to_move, self.now())
            await self.durable(
                self.store.start_game(self.id, record, self.life(clock), epoch=epoch)
            )
            self.record, self.game, self.version = record, game, 0
            self.state = PLAYING
            self.clock = clock
            self._due_changed()
            log.info("game started", extra={"table": self.id})
            self._send_update(events)
        self.broadcast_presence()

    # ------------------------------------------------------------- play
    async def take(self, occupant: Occupant, take: Take, state_version: int) -> int:
        """Apply a take for the occupant's seat; returns the new state version."""
        seat = self.seat_of(occupant)
        if seat is None:
            raise TableError("not_seated", "spectators cannot act; join a seat to play")
        return await self.take_for_seat(seat, take, state_version, person=True)

    async def take_for_seat(
        self, seat: int, take: Take, state_version: int, *, person: bool = False
    ) -> int:
        """Apply a take for ``seat``: its person's (``person``), or a computer player's."""
        async with self.lock:
            game = self._running(state_version)
            if seat != game.to_move:
                raise TableError("not_your_turn", f"it is seat {game.to_move}'s turn")
            if person:
                if seat in self.resigned:
                    raise TableError("not_allowed", "you resigned: a computer plays your seat")
                self.expiries[seat] = 0
                if seat in self.stand_ins:  # the person is back and acts
                    self._back(seat)
            await self._apply_locked(seat, take, [])
            return self.version

    def _running(self, state_version: int) -> Game:
        """The game, if it runs and is at ``state_version`` (else the refusal)."""
        game = self.game
        if self.state == LOBBY or game is None or self.record is None:
            raise TableError("not_started", "the game has not started yet")
        if self.state == FINISHED:
            raise TableError("game_over", "the game is over")
        if state_version != self.version:
            raise TableError(
                "stale_state",
                f"that intent was decided on state {state_version}; "
                f"the game is at state {self.version}",
            )
        return game

    async def _apply_locked(self, seat: int, take: Take, events: list[Event]) -> None:
        """Validate, store, then announce one take (the lock held); the last take of
        the game stores and announces its result too."""
        assert self.game is not None and self.record is not None
        epoch = self.epoch_held()  # the claim this take is accepted under; its writes carry it
        trial = self.game.copy()
        try:
            trial.apply(take, seat, events)
        except RuleError as e:
            raise TableError("illegal_move", e.message, e.code) from e
        index = len(self.record.actions)
        clock = self.clock
        if clock is not None:
            now = self.now()
            clock = clock.copy()
            clock.stop(now)
            if not trial.over:
                clock.start(trial.to_move, now)
        # durable before the ack; once the write is asked for, the table follows it
        # whatever happens to the caller (a stand-in stopped, a connection gone)
        await _to_the_end(self._commit(index, take, trial, clock, events, epoch))

    async def _commit(
        self,
        index: int,
        take: Take,
        trial: Game,
        clock: Clock | None,
        events: list[Event],
        epoch: int | None,
    ) -> None:
        """Store take ``index`` under ``epoch``, then make it the table's (and announce it)."""
        assert self.record is not None
        await self.durable(
            self.store.append_action(self.id, index, take, self.life(clock), epoch=epoch)
        )
        self.record.actions.append(take)
        self.game = trial
        self.clock = clock
        self.version += 1
        self._due_changed()
        if trial.over:  # the end is stored before anyone hears of it
            await self._store_end(self._judge("played_out"), epoch=epoch)
        self._send_update(events)
        if trial.over:
            self._announce_end(None)

    def _judge(self, ending: str, claimed_by: int | None = None) -> GameResult:
        assert self.game is not None
        return judge(
            self.game,
            ending,
            resigned=self.resigned,
            replaced=self.replaced,
            timed_out=self.timed_out,
            claimed_by=claimed_by,
        )

    async def resign(self, occupant: Occupant) -> None:
        """Resign (RULES.md section 12.1): with two players, or when nobody but
        computer players would be left, the game ends and the others win; otherwise a
        computer player plays the seat to the end and it ranks last."""
        seat = self.seat_of(occupant)
        if seat is None:
            raise TableError("not_seated", "only a seated player can resign")
        async with self.lock:
            if self.state == FINISHED:
                raise TableError("game_over", "the game is over")
            if self.state != PLAYING or self.game is None:
                raise TableError("not_started", "there is no game running to resign")
            if seat in self.resigned:
                raise TableError("not_allowed", "you have already resigned")
            self.resigned.append(seat)
            playing = [s for s in self.seats if s.index not in self.resigned]
            if len(playing) <= 1 or not any(s.person for s in playing):
                await self._end_early(self._judge("resigned"))
                return
            await self.save_life()  # the resignation is durable before it is heard of
            self._take_over(seat)
        self.broadcast_presence()

    async def claim(self, occupant: Occupant) -> None:
        """With two players, end the game and win while the opponent is absent."""
        seat = self.seat_of(occupant)
        if seat is None:
            raise TableError("not_seated", "only a seated player can claim")
        async with self.lock:
            if self.state != PLAYING or self.game is None:
                code = "game_over" if self.state == FINISHED else "not_started"
                raise TableError(code, "there is no game running to claim")
            other = 1 - seat
            if self.options.players != 2 or seat in self.resigned or not self.absent(other):
                raise TableError(
                    "cannot_claim", "only with two players, while your opponent is absent"
                )
            await self._end_early(self._judge("claimed", claimed_by=seat))

    async def back(self, occupant: Occupant) -> None:
        """The person takes its seat back from the computer player standing in."""
        seat = self.seat_of(occupant)
        if seat is None:
            raise TableError("not_seated", "only a seated player can come back")
        if self.state != PLAYING:
            code = "game_over" if self.state == FINISHED else "not_started"
            raise TableError(code, "there is no game running")
        if not self.absent(seat):
            raise TableError("not_allowed", "no computer player plays your seat")
        self._back(seat)
        self.broadcast_presence()

    async def finish(self, ending: str, *, only_if: Callable[[Table], bool] | None = None) -> bool:
        """End the table (``played_out`` for a game whose last take was made,
        ``abandoned``): stored first, then announced. Runs under the table's lock, where
        ``only_if`` (if given) must still hold; returns whether the table ended."""
        async with self.lock:
            if self.state == FINISHED or (only_if is not None and not only_if(self)):
                return False
            if self.game is None:  # abandoned before its game started: no result
                await self._store_end(None, ending, epoch=self.epoch_held())
                self._announce_end(None)
            elif self.game.over:
                await self._store_end(self._judge("played_out"), epoch=self.epoch_held())
                self._announce_end(None)
            else:
                await self._end_early(self._judge(ending))
        return True

    async def _end_early(self, result: GameResult) -> None:
        """End a game before its last take (the lock held): stored, then everyone gets
        the final view with the result, then presence."""
        await self._store_end(result, epoch=self.epoch_held())
        made = self._views([seat for seat, _ in self.occupants()])
        for seat, occ in self.occupants():
            occ.deliver_result(self, made[seat], self.version)
        self._announce_end(result.resigned[-1] if result.ending == "resigned" else None)

    async def _store_end(
        self,
        result: GameResult | None,
        ending: str | None = None,
        *,
        epoch: int | None,
    ) -> None:
        """Store the end (the lock held) under ``epoch``, then mark the table finished."""
        await self.durable(
            self.store.finish(self.id, None if result is None else result.to_dict(), epoch=epoch)
        )
        self.state = FINISHED
        self.result = result
        if self.record is not None:
            self.record.result = result
        if self.clock is not None:
            self.clock.stop(self.now())
        self.finished_at = self.now()
        self.finish_reason = result.ending if result is not None else ending
        log.info("game finished", extra={"table": self.id, "reason": self.finish_reason})
        self.host.finished(self)
        self.host.changed(self)

    def _announce_end(self, seat: int | None) -> None:
        reason = self.finish_reason or "played_out"
        for _, occ in self.occupants():
            occ.deliver_finished(self, reason, seat)
        for stand_in in list(self.stand_ins.values()):
            _later(stand_in.stop())
        self.stand_ins.clear()

    # ------------------------------------------------------------- absence and clocks
    def life(self, clock: Clock | None = None) -> dict[str, Any] | None:
        """What the store keeps of the game beyond its record (None while there is
        nothing): resignations, stand-ins, time-outs, the clock (reserves, the running
        move's start) and the server that runs it (``Store.server_id``: its last
        ``beat`` says until when the move ran, should it crash)."""
        clock = clock or self.clock
        if clock is None and not (self.resigned or self.replaced or self.timed_out):
            return None
        return {
            "resigned": list(self.resigned),
            "replaced": sorted(self.replaced),
            "timed_out": sorted(self.timed_out),
            "clock": None if clock is None else clock.to_dict(),
            "server": self.store.server_id,
        }

    async def save_life(self) -> None:
        """Store ``life()`` now (a running game's)."""
        life = self.life()
        if life is not None and self.state == PLAYING:
            await self.durable(self.store.save_life(self.id, life, epoch=self.epoch_held()))

    def _take_over(self, seat: int) -> None:
        """A computer player plays ``seat`` from now on (until its person is back)."""
        if seat in self.stand_ins:
            return
        stand_in = self.host.stand_in(self, seat)
        if stand_in is None:
            return
        self.replaced.add(seat)
        self.stand_ins[seat] = stand_in

    def _back(self, seat: int) -> None:
        """The person of ``seat`` is back: no more stand-in, the time-outs forgiven."""
        self.absent_since.pop(seat, None)
        self.expiries[seat] = 0
        if seat in self.resigned:
            return
        stand_in = self.stand_ins.pop(seat, None)
        if stand_in is not None:
            _later(stand_in.stop())

    async def tick(self, now: float | None = None) -> None:
        """Whatever is due by ``now``: stand-ins for seats absent past the grace period,
        and the move of a seat whose time ran out."""
        now = self.now() if now is None else now
        if self.state != PLAYING:
            return
        changed = False
        for seat, since in list(self.absent_since.items()):
            if now - since >= self.timing.grace and seat not in self.stand_ins:
                self._take_over(seat)
                changed = True
        if changed:
            async with self.lock:
                await self.save_life()
            self.broadcast_presence()
        clock = self.clock
        deadline = None if clock is None else clock.deadline()
        if deadline is not None and now >= deadline:
            await self._expire(self.version)

    def _due_changed(self) -> None:
        """Say (``on_due``) that ``next_due`` may have come earlier: called wherever a
        clock starts or a grace period begins. A later or no due time needs no call
        (the lobby finds out when the earlier one comes)."""
        self.host.due_changed(self)

    def next_due(self) -> float | None:
        """When ``tick`` next has something to do (None: nothing is pending)."""
        if self.state != PLAYING:
            return None
        grace = self.timing.grace
        due = [t + grace for s, t in self.absent_since.items() if s not in self.stand_ins]
        if self.clock is not None and (d := self.clock.deadline()) is not None:
            due.append(d)
        return min(due, default=None)

    async def _expire(self, version: int) -> None:
        """The running move's time is up: a computer player moves for the seat (the
        ``timed_out`` event says so); after ``absent_after`` in a row the seat counts as
        absent, and once every person's seat is, the game ends as timed out."""
        async with self.lock:
            if self.state != PLAYING or self.version != version or self.game is None:
                return  # someone moved meanwhile
            seat = self.game.to_move
            bot = make_bot(EXPIRY_BOT, seat, seed=secrets.randbits(32))
            take = bot.decide(self.view_for(seat))
            log.info("time out", extra={"table": self.id, "seat": seat})
            self.expiries[seat] += 1
            await self._apply_locked(seat, take, [TimedOut(seat)])
            if self.state != PLAYING:
                return
            person = self.seats[seat].person and seat not in self.resigned
            if not person or self.expiries[seat] < self.timing.absent_after:
                return
            self.timed_out.add(seat)
            self._take_over(seat)
            await self.save_life()
            people = [s.index for s in self.seats if s.person and s.index not in self.resigned]
            if all(self.expiries[s] >= self.timing.absent_after for s in people):
                await self._end_early(self._judge("timed_out"))
                return
        self.broadcast_presence()

    # ------------------------------------------------------------- rematch
    async def vote_rematch(self, occupant: Occupant, yes: bool) -> None:
        """Ask for (or withdraw) a rematch; when every person seated asks, it starts."""
        seat = self.seat_of(occupant)
        if seat is None:
            raise TableError("not_seated", "only a seated player can ask for a rematch")
        if self.state != FINISHED or self.result is None:
            raise TableError("not_finished", "a rematch follows a game that has ended")
        if yes:
            self.rematch_votes.add(seat)
        else:
            self.rematch_votes.discard(seat)
        self.broadcast_presence()
        people = {s.index for s in self.seats if s.person}
        if people <= self.rematch_votes:
            self.rematch_votes.clear()
            await self.host.rematch(self)


_BACKGROUND: set[asyncio.Task[None]] = set()


async def _to_the_end(coro: Awaitable[None]) -> None:
    """Run ``coro`` to its end even if the caller is cancelled meanwhile, then pass the
    cancellation on. A store write cannot be taken back once asked for (the writer may
    already be committing it), so the table must not stop half-way between the write
    and taking the action into its record: the next write would reuse the index."""
    task = asyncio.ensure_future(coro)
    cancelled = False
    while not task.done():
        try:
            await asyncio.shield(task)
        except asyncio.CancelledError:
            cancelled = True
    if cancelled:
        raise asyncio.CancelledError
    task.result()


def _later(coro: Awaitable[None]) -> None:
    """Run ``coro`` soon, on its own (stopping a stand-in must not wait under a lock)."""

    async def run() -> None:
        with contextlib.suppress(Exception):
            await coro

    task = asyncio.get_running_loop().create_task(run())
    _BACKGROUND.add(task)
    task.add_done_callback(_BACKGROUND.discard)
