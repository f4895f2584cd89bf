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
import dataclasses
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeAlias

from shared.clock import Clock, ClockView, TimeRules
from shared.errors import RuleError
from shared.events import Event
from shared.game import Game, Take
from shared.options import Options
from shared.record import Record
from shared.result import GameResult, announced
from shared.view import View, views

from ..store import PlayerSeated, StaleOwner, Store
from . import intents
from .aio import outlast, to_the_end
from .clocks import EXPIRY_BOT, Timekeeping
from .endings import Endings
from .errors import TableError, same_player
from .handle import PublicSeat, TableHandle, next_serial
from .intents import Intent
from .rematch import Rematches
from .roles import DETACHED, Detached
from .roles import Occupant as _Occupant
from .roles import StandIn as _StandIn
from .roles import TableHost as _TableHost
from .tokens import hash_token, invite_admits, new_token

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

Occupant: TypeAlias = "_Occupant[Table]"
"""Who receives a seat's or a spectator's traffic (``roles.Occupant``)."""
StandIn: TypeAlias = "_StandIn[Table]"
"""A computer player playing a person's seat (``roles.StandIn``)."""
TableHost: TypeAlias = "_TableHost[Table]"
"""Whoever serves a table (``roles.TableHost``): the lobby."""


@dataclass
class Seat:
    index: int
    name: str | None = None
    token_hash: str | None = None
    bot: str | None = None  # bot level, for a seat filled by the server
    player: str | None = None  # 1.2: the id of the registered player sitting here
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


class Table(Endings, Timekeeping, Rematches):
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
        timing: TimeRules | None = None,
        now: Callable[[], float] | None = None,
        host: TableHost = DETACHED,
        rated: bool = False,
    ) -> None:
        self.id = table_id
        self.rated = rated  # 1.2: only signed-in players sit here; the result rates them
        self.host = host
        self.name = name
        self.options = options  # may carry a seed chosen by the creator
        self.store = store
        self.private = private
        self.invite_hash = invite_hash
        self.timing = timing or TimeRules()
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
        self.own = [0] * options.players  # takes each seat's person made itself, per seat
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
        self.serial = next_serial()  # the lobby listing's order

    # ------------------------------------------------------------- intents
    async def apply(self, occupant: Occupant, intent: Intent) -> Any:
        """Apply ``intent`` of ``occupant`` here (``intents.RULES`` says how and what it
        returns): the one way sessions, local or of another node, act at a table."""
        return await intents.apply(self, occupant, intent)

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

    @property
    def spectator_count(self) -> int:
        return len(self.spectators)

    def public_seats(self) -> list[PublicSeat]:
        """Each seat's public facts (``TableFacts``): what listings and presence show."""
        return [
            PublicSeat(s.index, s.name, s.occupant is not None, s.bot, s.ready,
                       s.index in self.resigned, self.absent(s.index),
                       s.index in self.stand_ins, s.index in self.rematch_votes,
                       s.player is not None)
            for s in self.seats
        ]  # fmt: skip

    def seat_of(self, occupant: Occupant) -> int | None:
        for s in self.seats:
            if s.occupant is occupant:
                return s.index
        return None

    def invite_ok(self, code: str | None) -> bool:
        """Whether ``code`` lets one join or watch (any code will do at a public table)."""
        return invite_admits(self.private, self.invite_hash, code)

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
        return None if self.clock is None else self.clock.view(self.now(), tuple(self.expiries))

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
        view made for it (spectators share one). Everyone gets the same events, one
        tuple, and what the views share is the same objects, so that what they share
        is encoded once for all (``protocol.wire``)."""
        events = tuple(events)
        targets = self.occupants()
        made = self._views([seat for seat, _ in targets])
        stand_ins = {id(o) for o in self.stand_ins.values()}
        for seat, occ in targets:
            view = made[seat] if id(occ) in stand_ins else self._mine(seat, made[seat])
            occ.deliver_update(self, events, view, self.version)

    def _mine(self, seat: int | None, view: View) -> View:
        """``view`` as the person of ``seat`` gets it: ``takes`` only if it may take."""
        if view.takes is None or self._may_take(seat):
            return view
        return dataclasses.replace(view, takes=None)

    def send_view_to(self, occupant: Occupant, seat: int | None = None) -> None:
        """A fresh full view for one occupant (on join, watch or resume), made for its
        seat (or ``seat``, for a stand-in)."""
        if self.game is not None:
            made = self.view_for(seat) if seat is not None else None
            if made is None:
                seat = self.seat_of(occupant)
                made = self._mine(seat, self.view_for(seat))
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
        self, name: str, occupant: Occupant, seat: int | None = None, *,
        seeded: bool = False, player_id: str | None = None,
    ) -> tuple[int, str]:  # fmt: skip
        """Take a free seat (the given one, or the first free) as ``player_id`` (a
        registered player, 1.2; None: anonymous); returns (seat, token). A table whose
        creator chose the seed takes only those who say they know it (``seeded``)."""
        async with self.lock:
            if self.state != LOBBY:
                raise TableError("not_in_lobby", "the game has started: watch it instead")
            if self.seeded and not seeded:
                raise TableError(
                    "not_allowed",
                    "this table's creator chose the seed of its deal and may know every card"
                    " (a seeded table); join with seeded: true to sit down knowing it",
                    "seeded",
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
            if player_id is not None and any(s.player == player_id for s in self.seats):
                raise same_player()  # checked under the lock, and by the store (races)
            token = new_token()
            th = hash_token(token)
            epoch = self.epoch_held()
            write = self.store.set_seat(
                self.id, chosen.index, name, th, None, epoch=epoch, player=player_id
            )
            try:
                await self.durable(write)
            except PlayerSeated as e:  # nothing stored: the table is as it was
                raise same_player() from e
            chosen.name, chosen.token_hash, chosen.player = name, th, player_id
            chosen.occupant, chosen.ready = occupant, False
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

    def place_bot(self, seat: int, occupant: Occupant) -> None:
        """The bot player ``occupant`` plays ``seat`` from now on."""
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
                s.name = s.token_hash = s.player = None
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
        self,
        seat: int,
        take: Take,
        state_version: int,
        *,
        person: bool = False,
        by: Occupant | None = None,
    ) -> int:
        """Apply a take for ``seat``: its person's (``person``), or a computer player's,
        which names itself (``by``) if it may stop playing the seat while it decides:
        its take is then dropped unless it still plays the seat (``_plays``)."""
        async with self.lock:
            if by is not None and not self._plays(seat, by):
                return self.version
            game = self._running(state_version)
            if seat != game.to_move:
                raise TableError("not_your_turn", f"it is seat {game.to_move}'s turn")
            if person:
                if seat in self.resigned:
                    raise TableError("not_allowed", "you resigned: a computer plays your seat")
                if seat in self.stand_ins:  # the person is back and acts
                    self._back(seat)
            held = self.expiries[seat], self.own[seat]
            if person:  # stored with the take (``life``): what makes a rated game count
                self.expiries[seat], self.own[seat] = 0, self.own[seat] + 1
            try:
                await self._apply_locked(seat, take, [])
            except Exception:  # a refused take is no take: the time-outs in a row stand
                self.expiries[seat], self.own[seat] = held
                raise
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
        # whatever happens to the caller (a stand-in stopped, a connection gone): see
        # ``_commit``; a game's last take stores its end too: a task of its own
        commit = self._commit(index, take, trial, clock, events, epoch)
        await (to_the_end(commit) if trial.over else commit)

    async def _commit(self, index: int, take: Take, trial: Game, clock: Clock | None,
                      events: list[Event], epoch: int | None) -> None:  # fmt: skip
        """Store take ``index`` under ``epoch``, then make it the table's (and announce it):
        cancelled meanwhile, all of that first (``outlast``), and nothing after it
        suspends but a game's last take, which its caller runs in a task of its own."""
        assert self.record is not None
        write = self.store.append_action(self.id, index, take, self.life(clock), epoch=epoch)
        cancelled = await outlast(write)
        await self.durable(write)  # done: its failure, if any, raised at once
        self.record.actions.append(take)
        self.game = trial
        self.clock = clock
        self.version += 1
        self._due_changed()
        if trial.over:  # the end is stored before anyone hears of it
            result = self._judge("played_out")
            await self._store_end(result, epoch=epoch)
            events = announced(events, result)
        self._send_update(events)
        if trial.over:
            self._announce_end(None)
        if cancelled:
            raise asyncio.CancelledError


if TYPE_CHECKING:  # mypy proves that a table is a handle (``server.core.handle``)
    _a_table_is_a_handle: type[TableHandle] = Table
