"""Tables: seats, spectators and the one game each table plays, from its start to its
result and, if everyone wants, a rematch.

A ``Table`` owns its ``Game`` and every secret of it. It plays it and holds its parts,
each handed what it needs: ``Seating`` (who sits and watches where), ``Telling`` (what
each hears), ``Lineup`` (who plays each seat of the game), ``StandIns`` (the computer
players standing in), ``Writes`` (its durable writes), ``Course`` (the game: each take tried on
a copy, stored, then made its own and told) and ``Ending`` (its end stored, then
told). Intents to one table are applied one at a time under its lock, each checked
against the state version it was decided on; every ending has a result
(``shared.result``, RULES.md section 12).

A table's life beyond the moves (RULES.md section 12, docs/PROTOCOL.md "A table's whole
life") is driven by ``tick``, which the lobby calls with the current time: a seat whose
person is disconnected longer than the grace period is played by a computer player (a
*stand-in*) until the person resumes; on a clocked table a move whose time ran out is
made by a computer player; the time comes from ``Table.now``, injected in tests.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeAlias, assert_never

from shared.clock import TimeRules
from shared.events import TimedOut
from shared.game import Game, Take
from shared.options import Options
from shared.record import Record
from shared.result import GameResult, seat_endings

from ..store import PlayerSeated, Store
from . import intents as i
from .course import Course
from .ending import Ending
from .errors import TableError, same_player
from .handle import PublicSeat, TableHandle, next_serial
from .lineup import Ends, Lineup
from .roles import DETACHED, Detached
from .roles import Occupant as _Occupant
from .roles import StandIn as _StandIn
from .roles import TableHost as _TableHost
from .seating import Seat, Seating
from .standins import StandIns
from .telling import Telling
from .tokens import hash_token, invite_admits, new_token
from .writes import Writes

__all__ = [
    "DETACHED",
    "FINISHED",
    "LOBBY",
    "PLAYING",
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
Answer: TypeAlias = "tuple[Occupant, int]"
"""The occupant a take's update answers, and its message's id (``Play.re``)."""


class Table:
    """A table (see the module docstring)."""

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
        self.private = private
        self.invite_hash = invite_hash
        self.timing = timing or TimeRules()
        self.now = now or time.time
        self.created = self.now() if created is None else created
        self.lock = asyncio.Lock()
        # the client address whose quotas the table counts against (``server.lobby.quotas``)
        self.made_by: str | None = None
        self.serial = next_serial()  # the lobby listing's order
        # the parts, each handed what it needs
        self.seating = Seating(options.players, self.now)
        self.lineup: Lineup[StandIn] = Lineup(options.players, self.timing)
        self.telling = Telling(self.seating, self.lineup, self.now)
        self.writes = Writes(store, table_id, lambda: self.host.lost(self))
        self.stand_ins = StandIns(
            self.lineup,
            self.seating,
            self.telling,
            lambda seat: self.host.stand_in(self, seat),
            table_id,
        )
        self.ending = Ending(
            self.writes,
            self.lineup,
            self.telling,
            self.stand_ins,
            self.now,
            self._end_stored,
            rated=rated,
        )
        self.course = Course(
            self.writes,
            self.lineup,
            self.telling,
            self.ending,
            self.now,
            self._due_changed,
            server=store.server_id,
            rated=rated,
        )

    # ------------------------------------------------------------- facts
    @property
    def state(self) -> str:
        """``lobby`` until the game starts, then ``playing`` until its end is stored."""
        if self.ending.done:
            return FINISHED
        return LOBBY if self.game is None else PLAYING

    @property
    def game(self) -> Game | None:
        return self.course.game

    @property
    def record(self) -> Record | None:
        return self.course.record

    @property
    def version(self) -> int:
        return self.course.version

    @property
    def result(self) -> GameResult | None:
        return self.ending.result

    @property
    def finished_at(self) -> float | None:
        return self.ending.at

    @property
    def finish_reason(self) -> str | None:
        return self.ending.reason

    @property
    def seats(self) -> list[Seat]:
        return self.seating.seats

    @property
    def spectator_count(self) -> int:
        return len(self.seating.spectators)

    @property
    def open(self) -> bool:
        """Waiting in the lobby with a free seat: someone may join."""
        return self.state == LOBBY and self.seating.free

    @property
    def seeded(self) -> bool:
        """The creator chose the seed: they may know the whole deal."""
        return self.options.seed is not None

    def public_seats(self) -> list[PublicSeat]:
        """Each seat's public facts (``TableFacts``): what listings and presence show."""
        return self.seating.public_seats(
            self.lineup,
            self.course.journal.computer_takes(self.options.players),
            None if self.result is None else seat_endings(self.result),
            self.ending.ratings,
        )

    def seat_of(self, occupant: Occupant) -> int | None:
        return self.seating.seat_of(occupant)

    def invite_ok(self, code: str | None) -> bool:
        """Whether ``code`` lets one join or watch (any code will do at a public table)."""
        return invite_admits(self.private, self.invite_hash, code)

    def next_due(self) -> float | None:
        """When ``tick`` next has something to do (None: nothing is pending)."""
        return self.lineup.next_due() if self.state == PLAYING else None

    # ------------------------------------------------------------- telling
    def send_view_to(self, occupant: Occupant, seat: int | None = None) -> None:
        """A fresh full view for one occupant (``Telling.view_to``)."""
        self.telling.view_to(self, occupant, seat)

    def catch_up(self, occupant: Occupant, since: int, re: int) -> None:
        """1.4's ``catch_up`` (``Telling.catch_up``), from the game's journal."""
        self.telling.catch_up(self, occupant, since, re, self.course.journal)

    async def hint(self, occupant: Occupant, re: int) -> None:
        """1.5's ``ask_hint``: the expert's take for the occupant's seat on its turn,
        weighed from that seat's view only (``TableHost.hint``), told to it alone."""
        seat = self._seated(occupant, "spectators get no hints")
        if not self.lineup.may_take(seat):
            raise TableError("not_allowed", "a computer plays your seat now")
        record, version = self.course.hinted(seat, self.options.hints)
        occupant.deliver_hint(self, version, await self.host.hint(self, record), re)

    def broadcast_presence(self) -> None:
        """Presence to everyone here, once the host knows what changed."""
        self.host.changed(self)
        self.telling.presence(self)

    # ------------------------------------------------------------- intents
    async def apply(self, occupant: Occupant, intent: i.Intent) -> Any:
        """Apply ``intent`` of ``occupant`` here: the one way sessions, local or of
        another node, act at a table. Returns a ``Join``'s (seat, token), a ``Resume``'s
        seat, a ``Play``'s ``Taken``, the state version after an ending, else None."""
        match intent:
            case i.Join(player, seat, seeded, player_id):
                return await self.join(player, occupant, seat, seeded=seeded, player_id=player_id)
            case i.Watch():
                self.watch(occupant)
            case i.Resume(token_hash):
                return self.resume(token_hash, occupant)
            case i.Leave():
                await self.leave(occupant)
            case i.Detach():
                self.detach(occupant)
            case i.Ready(ready):
                await self.set_ready(occupant, ready)
            case i.Play(take, state_version, re):  # the update to ``occupant`` answers ``re``
                seat = self._seated(occupant, "spectators cannot act; join a seat to play")
                answer = None if re is None else (occupant, re)
                return await self.take_for_seat(
                    seat, take, state_version, person=True, answer=answer
                )
            case i.Resign():
                return await self.resign(occupant)
            case i.Claim():
                return await self.claim(occupant)
            case i.Back():
                return await self.back(occupant)
            case i.Rematch(yes):
                await self.vote_rematch(occupant, yes)
            case i.Chat(name, text):
                self.telling.chat(self, occupant, name, text)
            case i.CatchUp(since, re):
                self.catch_up(occupant, since, re)
            case i.Hint(re):
                await self.hint(occupant, re)
            case _:
                assert_never(intent)
        return None

    # ------------------------------------------------------------- lobby
    async def join(
        self,
        name: str,
        occupant: Occupant,
        seat: int | None = None,
        *,
        seeded: bool = False,
        player_id: str | None = None,
    ) -> tuple[int, str]:
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
            chosen = self.seating.for_join(seat, player_id)  # under the lock (races: the store)
            token = new_token()
            th = hash_token(token)
            try:
                await self.writes.seat(
                    chosen.index, name, th, None, epoch=self.writes.epoch_held(), player=player_id
                )
            except PlayerSeated as e:  # nothing stored: the table is as it was
                raise same_player() from e
            self.seating.sit(chosen, occupant, name, th, player_id)
        self.broadcast_presence()
        return chosen.index, token

    async def add_bot(self, level: str, seat: int | None = None) -> int:
        """Fill a free seat with a server-side bot of ``level`` (ready at once)."""
        async with self.lock:
            if self.state != LOBBY:
                raise TableError("not_in_lobby", "bots can only be seated before the game")
            chosen = self.seating.for_bot(seat)
            name = f"{level} bot"
            await self.writes.seat(chosen.index, name, None, level, epoch=self.writes.epoch_held())
            chosen.name, chosen.bot, chosen.ready = name, level, True
        self.broadcast_presence()
        return chosen.index

    def place_bot(self, seat: int, occupant: Occupant) -> None:
        """The bot player ``occupant`` plays ``seat`` from now on."""
        self.seats[seat].occupant = occupant

    def watch(self, occupant: Occupant) -> None:
        self.seating.watch(occupant)
        self.send_view_to(occupant)
        self.broadcast_presence()

    async def leave(self, occupant: Occupant) -> None:
        """Leave the table. Before the game a seat is given up; during it the seat stays
        the player's (resume with the token) and only the connection detaches: after
        the grace period a computer player plays it until the person resumes."""
        if self.seating.unwatch(occupant):
            self.broadcast_presence()
            return
        async with self.lock:
            # under the lock: a resume may have replaced it
            seat = self._seated(occupant, "you are not at this table")
            epoch = self.writes.epoch_held()
            self.seating.vacate(seat)
            self._went_away(seat)
            if self.state == LOBBY:
                # the token dies before the store is written: a ``resume`` of it racing
                # this leave finds no seat (not a seat without a name)
                self.seating.clear(seat)
                await self.writes.clear_seat(seat, epoch=epoch)
        self.broadcast_presence()

    def detach(self, occupant: Occupant) -> None:
        """The connection closed: keep the seat, mark it disconnected."""
        for seat in self.seating.detach(occupant):
            self._went_away(seat)
        self.broadcast_presence()

    def resume(self, token_hash: str, occupant: Occupant) -> int:
        """Take a seat back with its token; an older connection on it is replaced, and
        a computer player standing in for an absent person stops."""
        s = self.seating.by_token(token_hash)
        if s is None:
            raise TableError("bad_token", "that seat token is not valid here")
        old = self.seating.resume(s, occupant)
        self.stand_ins.back(s.index)
        if old is not None and old is not occupant:
            old.replaced(self, s.index)
        self.send_view_to(occupant)
        self.broadcast_presence()
        return s.index

    async def set_ready(self, occupant: Occupant, ready: bool = True) -> None:
        seat = self._seated(occupant, "only a seated player can be ready")
        if self.state != LOBBY:
            raise TableError("not_in_lobby", "the game has already started")
        self.seats[seat].ready = ready
        self.broadcast_presence()
        await self.maybe_start()

    async def maybe_start(self) -> None:
        """Start the game once every seat is taken and everyone is ready (a bot always is)."""
        async with self.lock:
            if self.state != LOBBY or not self.seating.full_and_ready:
                return
            await self.course.start(self, self.options)  # playing from now on
        self.broadcast_presence()

    # ------------------------------------------------------------- play
    async def take_for_seat(
        self,
        seat: int,
        take: Take,
        state_version: int,
        *,
        person: bool = False,
        by: Occupant | None = None,
        answer: Answer | None = None,
    ) -> i.Taken:
        """Apply a take for ``seat``: its person's (``person``), or a computer player's,
        which names itself (``by``) if it may stop playing the seat while it decides:
        its take is then dropped unless it still plays the seat (``_plays``). The
        update to ``answer``'s occupant carries its message id."""
        async with self.lock:
            if by is not None and not self.stand_ins.plays(seat, by):
                return i.Taken(self.version)
            game = self.course.running(state_version)
            if seat != game.to_move:
                raise TableError("not_your_turn", f"it is seat {game.to_move}'s turn")
            if person:
                if seat in self.lineup.resigned:
                    raise TableError("not_allowed", "you resigned: a computer plays your seat")
                if seat in self.lineup.stand_ins:  # the person is back and acts
                    self.stand_ins.back(seat)
            # a person's own take is stored with it (``life``): what makes a rated game count
            held = self.lineup.person_takes(seat) if person else None
            by_computer = not person and self.seats[seat].person  # 1.4's mark
            try:
                answered = await self.course.take(self, seat, take, [], answer, by_computer)
            except Exception:  # a refused take is no take: the time-outs in a row stand
                if held is not None:
                    self.lineup.refused(seat, held)
                raise
            return i.Taken(self.version, answered)

    # ------------------------------------------------------------- time
    async def tick(self, now: float | None = None) -> None:
        """Whatever is due by ``now``: stand-ins for seats absent past the grace period,
        and the move of a seat whose time ran out."""
        now = self.now() if now is None else now
        if self.state != PLAYING:
            return
        due = self.lineup.due(now)
        for take_over in due:
            self.stand_ins.take_over(self, take_over.seat)
        if due:
            async with self.lock:
                await self.course.save_life()
            self.broadcast_presence()
        if self.lineup.time_up(now) is not None:
            await self._expire(self.version)

    async def _expire(self, version: int) -> None:
        """The running move's time is up: a computer player moves for the seat (the
        ``timed_out`` event says so); after ``absent_after`` in a row the seat counts as
        absent, and once every person's seat is, the game ends as timed out."""
        async with self.lock:
            if self.state != PLAYING or self.version != version or self.game is None:
                return  # someone moved meanwhile
            seat = self.game.to_move
            take = self.stand_ins.expiry_move(self, seat)
            log.info("time out", extra={"table": self.id, "seat": seat})
            self.lineup.ran_out(seat)
            await self.course.take(
                self, seat, take, [TimedOut(seat)], None, self.seats[seat].person
            )
            if self.state != PLAYING:
                return
            todo = self.lineup.after_time_out(seat, self.seating.people())
            if not todo:
                return
            self.stand_ins.take_over(self, seat)
            await self.course.save_life()
            if isinstance(todo[-1], Ends):
                await self.ending.early(self, todo[-1])
                return
        self.broadcast_presence()

    # ------------------------------------------------------------- endings
    async def resign(self, occupant: Occupant) -> int:
        """Resign (RULES.md section 12.1, ``Lineup.resign``): with two players, or when
        nobody but computer players would be left, the game ends and the others win;
        otherwise a computer player plays the seat to the end and it ranks last. Returns
        the state version after it."""
        seat = self._seated(occupant, "only a seated player can resign")
        async with self.lock:
            if self.state == FINISHED:
                raise TableError("game_over", "the game is over")
            if self.state != PLAYING or self.game is None:
                raise TableError("not_started", "there is no game running to resign")
            todo = self.lineup.resign(seat, self.seating.people())
            if isinstance(todo, Ends):
                await self.ending.early(self, todo)
                return self.version
            await self.course.save_life()  # the resignation is durable before it is heard of
            self.stand_ins.take_over(self, todo.seat)
        self.broadcast_presence()
        return self.version

    async def claim(self, occupant: Occupant) -> int:
        """With two players, end the game and win while the opponent is absent; returns
        the state version after it."""
        seat = self._seated(occupant, "only a seated player can claim")
        async with self.lock:
            if self.state != PLAYING or self.game is None:
                code = "game_over" if self.state == FINISHED else "not_started"
                raise TableError(code, "there is no game running to claim")
            await self.ending.early(self, self.lineup.claim(seat))
        return self.version

    async def back(self, occupant: Occupant) -> int:
        """The person takes its seat back from the computer player standing in; returns
        the state version."""
        seat = self._seated(occupant, "only a seated player can come back")
        if self.state != PLAYING:
            code = "game_over" if self.state == FINISHED else "not_started"
            raise TableError(code, "there is no game running")
        if not self.lineup.absent(seat):
            raise TableError("not_allowed", "no computer player plays your seat")
        self.stand_ins.back(seat)
        self.send_view_to(occupant)  # now with the takes, if the seat is to move
        self.broadcast_presence()
        return self.version

    async def finish(self, ending: str, *, only_if: Callable[[Any], bool] | None = None) -> bool:
        """End the table (``played_out`` for a game whose last take was made,
        ``abandoned``): stored first, then announced. Runs under the table's lock, where
        ``only_if`` (if given) must still hold; returns whether the table ended."""
        async with self.lock:
            if self.state == FINISHED or (only_if is not None and not only_if(self)):
                return False
            await self.ending.end(self, ending)
        return True

    async def close(self, resigning: int | None = None) -> bool:
        """An operator ends the table now (``kupferkessel admin close``): with
        ``resigning``, that seat resigns and every other seat wins (``resigned``);
        without, it ends as ``abandoned`` (nobody wins; a table in the lobby just
        closes). Stored first, then announced, as every ending; False if it had ended."""
        if resigning is None:
            return await self.finish("abandoned")
        async with self.lock:
            if self.state == FINISHED:
                return False
            if self.state != PLAYING or self.game is None:
                raise TableError("not_started", "no game runs there: close it without a seat")
            await self.ending.early(self, self.lineup.close(resigning))
        return True

    async def end_by_operator(self, resigning: int | None = None) -> tuple[str, list[int]]:
        """``close`` for the operator's ``admin close``, here or from another node of a
        cluster: how the table ended and its winners; refused ``game_over`` if it had
        ended already."""
        if not await self.close(resigning):
            raise TableError("game_over", f"table {self.id} had ended already")
        winners = [] if self.result is None else list(self.result.winners)
        return self.finish_reason or "abandoned", winners

    async def vote_rematch(self, occupant: Occupant, yes: bool) -> None:
        """Ask for (or withdraw) a rematch (RULES.md section 12.6); when every person
        seated asks, the host starts it."""
        seat = self._seated(occupant, "only a seated player can ask for a rematch")
        if self.state != FINISHED or self.result is None:
            raise TableError("not_finished", "a rematch follows a game that has ended")
        self.seating.vote(seat, yes)
        self.broadcast_presence()
        if self.seating.rematch_agreed():
            await self.host.rematch(self)

    # ------------------------------------------------------------- seats, the host
    def _seated(self, occupant: Occupant, refusal: str) -> int:
        """The seat ``occupant`` sits at; refused ``not_seated`` (``refusal``) if none."""
        seat = self.seating.seat_of(occupant)
        if seat is None:
            raise TableError("not_seated", refusal)
        return seat

    def _went_away(self, seat: int) -> None:
        """A person's connection left its seat during the game: the grace period runs."""
        if self.state == PLAYING and self.seats[seat].person:
            self.lineup.went_away(seat, self.now())
            self._due_changed()

    def _due_changed(self) -> None:
        """Say (``on_due``) that ``next_due`` may have come earlier: called wherever a
        clock starts or a grace period begins. A later or no due time needs no call
        (the lobby finds out when the earlier one comes)."""
        self.host.due_changed(self)

    def _end_stored(self) -> None:
        """The game's end is stored (``Ending``): the host hears of it."""
        self.host.finished(self)
        self.host.changed(self)


if TYPE_CHECKING:  # mypy proves that a table is a handle (``server.core.handle``)
    _a_table_is_a_handle: type[TableHandle] = Table
