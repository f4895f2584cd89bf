"""A table's room: who sits at each seat, who watches, who plays each seat of its game
(``Lineup``), and what each of them hears; the table's writes to the store, and how
a game's end is stored and told.

``Room`` is the part of ``Table`` (``server.core.table``, which adds the lobby, the
takes, the time and the endings) that holds the table's state and talks to its
occupants. It never sends anything itself: it calls its occupants (network sessions
or server-side bots, see ``roles.Occupant``) with views built by
``shared.view.view`` and with public events, and nothing else.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias

from protocol.messages.missed import MAX_MISSED_STEPS
from shared.clock import Clock, TimeRules
from shared.events import Event
from shared.game import Game
from shared.options import Options
from shared.record import Record
from shared.result import GameResult, seat_endings
from shared.view import View, views

from ..aio import later
from ..store import StaleOwner, Store
from .errors import TableError
from .handle import PublicSeat, next_serial
from .journal import Journal
from .lineup import Ends, Lineup, Mark
from .roles import DETACHED
from .roles import Occupant as _Occupant
from .roles import StandIn as _StandIn
from .roles import TableHost as _TableHost
from .tokens import invite_admits

__all__ = ["FINISHED", "LOBBY", "PLAYING", "Room", "Seat"]

log = logging.getLogger("kupferkessel.table")

LOBBY, PLAYING, FINISHED = "lobby", "playing", "finished"

# the roles as a room holds them: ``server.core.table`` names them for its ``Table``
Occupant: TypeAlias = "_Occupant[Any]"
StandIn: TypeAlias = "_StandIn[Any]"
TableHost: TypeAlias = "_TableHost[Any]"


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


class Room:
    """A table's state and its people (see the module docstring)."""

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
        self.lineup: Lineup[StandIn] = Lineup(options.players, self.timing)
        self.journal = Journal()  # 1.4: each state's events, for whoever missed them
        # 1.4: at a finished rated table, each rated seat's rating before (None: its
        # first rated game) and after the game, as shown (``Store.rating_changes``)
        self.ratings: dict[int, tuple[float | None, float]] = {}
        self.rematch_votes: set[int] = set()
        self.lock = asyncio.Lock()
        # the client address whose quotas the table counts against (``server.lobby.quotas``)
        self.made_by: str | None = None
        # since when no person has sat or watched here (None while someone does); set
        # at creation and restore, kept by ``_note_presence``; the lobby expires tables
        # left unattended (``Lobby.expire_lobbies``, ``Lobby.tick``)
        self.idle_since: float | None = self.now()
        self.serial = next_serial()  # the lobby listing's order

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
        out.extend(self.lineup.stand_ins.items())
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
        computer = self.journal.computer_takes(len(self.seats))
        ended = seat_endings(self.result) if self.result is not None else None
        return [
            PublicSeat(
                s.index,
                s.name,
                s.occupant is not None,
                s.bot,
                s.ready,
                s.index in self.lineup.resigned,
                self.lineup.absent(s.index),
                s.index in self.lineup.stand_ins,
                s.index in self.rematch_votes,
                s.player is not None,
                computer[s.index],
                None if ended is None else ended[s.index],
                *self.ratings.get(s.index, (None, None)),
            )
            for s in self.seats
        ]

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
        return self.lineup.absent(seat)

    # ------------------------------------------------------------- sending
    def _views(self, seats: Sequence[int | None]) -> dict[int | None, View]:
        assert self.game is not None
        unique = list(dict.fromkeys(seats))
        made = views(
            self.game, unique, result=self.result, clock=self.lineup.clock_view(self.now())
        )
        return dict(zip(unique, made, strict=True))

    def view_for(self, seat: int | None) -> View:
        """The view of ``seat`` (None: a spectator's) now."""
        return self._views([seat])[seat]

    def _send_update(
        self,
        events: Sequence[Event],
        answer: tuple[Occupant, int] | None = None,
        by_computer: bool = False,
    ) -> bool:
        """A new state: to every seat, stand-in and spectator its public events and the
        view made for it (spectators share one). Everyone gets the same events, one
        tuple, and what the views share is the same objects, so that what they share
        is encoded once for all (``protocol.wire``). ``answer``'s occupant gets its
        message id with its update; returns whether it did. ``by_computer``: a
        computer player made the take for a person's seat."""
        events = tuple(events)
        targets = self.occupants()
        made = self._views([seat for seat, _ in targets])
        stand_ins = {id(o) for o in self.lineup.stand_ins.values()}
        for seat, occ in targets:
            view = made[seat] if id(occ) in stand_ins else self._mine(seat, made[seat])
            re = answer[1] if answer is not None and occ is answer[0] else None
            occ.deliver_update(self, events, view, self.version, re, by_computer)
        return answer is not None and any(occ is answer[0] for _, occ in targets)

    def _mine(self, seat: int | None, view: View) -> View:
        """``view`` as the person of ``seat`` gets it: ``takes`` only if it may take."""
        if view.takes is None or self.lineup.may_take(seat):
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
            if self.result is not None and not self.game.over and occupant.minor < 1:
                # protocol 1.0 never saw a game end early: the last position, as before
                made = views(self.game, [seat])[0]
            occupant.deliver_view(self, made, self.version)

    def catch_up(self, occupant: Occupant, since: int, re: int) -> None:
        """1.4's ``catch_up``: the steps after state ``since`` (the newest
        ``MAX_MISSED_STEPS``) to ``occupant``, answering ``re``. Every seat and
        spectator gets the same public events live, so the steps are the same for all."""
        if self.seat_of(occupant) is None and occupant not in self.spectators:
            raise TableError("not_seated", "only who sits or watches here may catch up")
        if self.game is None:
            raise TableError("not_started", "the game has not started yet")
        if since > self.version:
            raise TableError(
                "invalid_field",
                f"catch_up: since ({since}) is after the table's state ({self.version})",
                "since",
            )
        steps, omitted = self.journal.since(since, MAX_MISSED_STEPS)
        occupant.deliver_missed(self, since, self.version, steps, omitted, re)

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

    # ------------------------------------------------------------- who plays each seat
    def _people(self) -> list[int]:
        """The seats of people (not server-side bots)."""
        return [s.index for s in self.seats if s.person]

    def _went_away(self, seat: int) -> None:
        """A person's connection left its seat during the game: the grace period runs."""
        if self.state == PLAYING and self.seats[seat].person:
            self.lineup.went_away(seat, self.now())
            self._due_changed()

    def life(self, clock: Clock | None = None, take: Mark | None = None) -> dict[str, Any] | None:
        """What the store keeps of the game beyond its record (``Lineup.life``)."""
        return self.lineup.life(self.store.server_id, self.rated, clock, take)

    async def save_life(self) -> None:
        """Store ``life()`` now (a running game's)."""
        life = self.life()
        if life is not None and self.state == PLAYING:
            await self.durable(self.store.save_life(self.id, life, epoch=self.epoch_held()))

    def take_over(self, seat: int) -> None:
        """A computer player plays ``seat`` from now on (until its person is back)."""
        if seat in self.lineup.stand_ins:
            return
        stand_in = self.host.stand_in(self, seat)
        if stand_in is None:
            return
        self.lineup.stood_in(seat, stand_in)
        person = self.seats[seat].occupant
        game = self.game
        to_move = game is not None and not game.over and game.to_move == seat
        # 1.1 only: 1.0 knows no takes, so nothing is taken back from it
        if person is not None and to_move and person.minor >= 1:
            self.send_view_to(person)  # the same state, its takes gone

    def _plays(self, seat: int, by: object) -> bool:
        """Whether the computer player ``by`` still plays ``seat`` (as its stand-in or
        as the bot seated there). A stand-in decides its move away from the table's
        lock: by the time the move arrives its person may be back, or a newer stand-in
        may play the seat, and the move is then no one's to make (logged, dropped)."""
        if self.lineup.plays(seat, by) or self.seats[seat].occupant is by:
            return True
        log.debug(
            "a computer player's take dropped: it no longer plays the seat",
            extra={"table": self.id, "seat": seat},
        )
        return False

    def _back(self, seat: int) -> None:
        """The person of ``seat`` is back: no more stand-in, the time-outs forgiven."""
        stand_in = self.lineup.back(seat)
        if stand_in is not None:
            later(stand_in.stop())

    def _due_changed(self) -> None:
        """Say (``on_due``) that ``next_due`` may have come earlier: called wherever a
        clock starts or a grace period begins. A later or no due time needs no call
        (the lobby finds out when the earlier one comes)."""
        self.host.due_changed(self)

    def next_due(self) -> float | None:
        """When ``tick`` next has something to do (None: nothing is pending)."""
        return self.lineup.next_due() if self.state == PLAYING else None

    # ------------------------------------------------------------- the end
    def _judge(self, ending: str) -> GameResult:
        """The result of the game ending now as ``ending`` (``Lineup.judge``)."""
        assert self.game is not None
        return self.lineup.judge(self.game, ending)

    async def _end_early(self, ends: Ends) -> None:
        """End a game before its last take as ``ends`` says (the lock held): stored,
        then everyone gets the final view with the result, then presence."""
        assert self.game is not None
        result = self.lineup.judge(self.game, ends.ending, ends.claimed_by)
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
        if self.rated:  # rated once ``finish`` was durable (``Store.when_finished``)
            self.ratings = self.store.rating_shown(self.id)
        if self.record is not None:
            self.record.result = result
        self.lineup.finished(self.now())
        self.finished_at = self.now()
        self.finish_reason = result.ending if result is not None else ending
        log.info("game finished", extra={"table": self.id, "reason": self.finish_reason})
        self.host.finished(self)
        self.host.changed(self)

    def _announce_end(self, seat: int | None) -> None:
        reason = self.finish_reason or "played_out"
        for _, occ in self.occupants():
            occ.deliver_finished(self, reason, seat)
        for stand_in in self.lineup.dismiss():
            later(stand_in.stop())
