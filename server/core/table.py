"""Tables: seats, spectators and the one game each table plays, from its start to its
result and, if everyone wants, a rematch.

A ``Table`` owns its ``Game`` and every secret of it; what it holds and how it talks to
its occupants is its ``Room`` (``server.core.room``), who plays each seat of its game
its ``Lineup`` (``server.core.lineup``). Intents to one table are applied one at a time
under its lock; each is validated against the state version it was decided on,
applied to a copy of the game, made durable in the store, and only then acknowledged
and broadcast. Likewise a game's end (the last take, a resignation, a claim,
time-outs, an abandoned table) is stored before anyone hears of it, and every ending
has a result (``shared.result``, RULES.md section 12).

A table's life beyond the moves (RULES.md section 12, docs/PROTOCOL.md "A table's whole
life") is driven by ``tick``, which the lobby calls with the current time: a seat whose
person is disconnected longer than the grace period is played by a computer player (a
*stand-in*) until the person resumes; on a clocked table a move whose time ran out is
made by a computer player; the time comes from ``Table.now``, injected in tests.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeAlias, assert_never

from shared.bots import make_bot
from shared.clock import Clock
from shared.errors import RuleError
from shared.events import Event, TimedOut
from shared.game import Game, Take
from shared.record import Record
from shared.result import announced

from ..aio import outlast, to_the_end
from ..store import PlayerSeated
from . import intents as i
from .errors import TableError, same_player
from .handle import TableHandle
from .lineup import Ends, Mark
from .roles import DETACHED, Detached
from .roles import Occupant as _Occupant
from .roles import StandIn as _StandIn
from .roles import TableHost as _TableHost
from .room import FINISHED, LOBBY, PLAYING, Room, Seat
from .tokens import hash_token, new_token

__all__ = [
    "DETACHED",
    "EXPIRY_BOT",
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

EXPIRY_BOT = "easy"
"""The computer player that makes a move whose time ran out: quick and sound."""

Occupant: TypeAlias = "_Occupant[Table]"
"""Who receives a seat's or a spectator's traffic (``roles.Occupant``)."""
StandIn: TypeAlias = "_StandIn[Table]"
"""A computer player playing a person's seat (``roles.StandIn``)."""
TableHost: TypeAlias = "_TableHost[Table]"
"""Whoever serves a table (``roles.TableHost``): the lobby."""
Answer: TypeAlias = "tuple[Occupant, int]"
"""The occupant a take's update answers, and its message's id (``Play.re``)."""


class Table(Room):
    """A table (see the module docstring)."""

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
                seat = self.seat_of(occupant)
                if seat is None:
                    raise TableError("not_seated", "spectators cannot act; join a seat to play")
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
                self.chat(occupant, name, text)
            case i.CatchUp(since, re):
                self.catch_up(occupant, since, re)
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
            # stored with the game: a crash knows the first move's start
            clock = self.lineup.new_clock(game.to_move, self.now())
            await self.durable(
                self.store.start_game(self.id, record, self.life(clock), epoch=epoch)
            )
            self.record, self.game, self.version = record, game, 0
            self.state = PLAYING
            self.lineup.clock = clock
            self._due_changed()
            log.info("game started", extra={"table": self.id})
            self._send_update(events)
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
            if by is not None and not self._plays(seat, by):
                return i.Taken(self.version)
            game = self._running(state_version)
            if seat != game.to_move:
                raise TableError("not_your_turn", f"it is seat {game.to_move}'s turn")
            if person:
                if seat in self.lineup.resigned:
                    raise TableError("not_allowed", "you resigned: a computer plays your seat")
                if seat in self.lineup.stand_ins:  # the person is back and acts
                    self._back(seat)
            # a person's own take is stored with it (``life``): what makes a rated game count
            held = self.lineup.person_takes(seat) if person else None
            by_computer = not person and self.seats[seat].person  # 1.4's mark
            try:
                answered = await self._apply_locked(seat, take, [], answer, by_computer)
            except Exception:  # a refused take is no take: the time-outs in a row stand
                if held is not None:
                    self.lineup.refused(seat, held)
                raise
            return i.Taken(self.version, answered)

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

    async def _apply_locked(
        self,
        seat: int,
        take: Take,
        events: list[Event],
        answer: Answer | None = None,
        by_computer: bool = False,
    ) -> bool:
        """Validate, store, then announce one take (the lock held); the last take of
        the game stores and announces its result too. Returns whether its update
        answered ``answer``. ``by_computer``: a computer player makes it for a
        person's seat (kept with it: ``Mark``)."""
        assert self.game is not None and self.record is not None
        epoch = self.epoch_held()  # the claim this take is accepted under; its writes carry it
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
        commit = self._commit(mark, take, trial, clock, events, epoch, answer)
        return await (to_the_end(commit) if trial.over else commit)

    async def _commit(
        self,
        mark: Mark,
        take: Take,
        trial: Game,
        clock: Clock | None,
        events: list[Event],
        epoch: int | None,
        answer: Answer | None,
    ) -> bool:
        """Store take ``mark.index`` under ``epoch``, then make it the table's (and
        announce it): cancelled meanwhile, all of that first (``outlast``), and nothing
        after it suspends but a game's last take, which its caller runs in a task of its
        own."""
        assert self.record is not None and self.game is not None
        life = self.life(clock, mark)
        write = self.store.append_action(self.id, mark.index, take, life, epoch=epoch)
        cancelled = await outlast(write)
        await self.durable(write)  # done: its failure, if any, raised at once
        seat = self.game.to_move
        self.lineup.made(mark)
        self.record.actions.append(take)
        self.game = trial
        self.lineup.clock = clock
        self.version += 1
        self._due_changed()
        if trial.over:  # the end is stored before anyone hears of it
            result = self._judge("played_out")
            await self._store_end(result, epoch=epoch)
            events = announced(events, result)
        self.journal.add(seat, tuple(events), mark.by_computer)
        answered = self._send_update(events, answer, mark.by_computer)
        if trial.over:
            self._announce_end(None)
        if cancelled:
            raise asyncio.CancelledError
        return answered

    # ------------------------------------------------------------- time
    async def tick(self, now: float | None = None) -> None:
        """Whatever is due by ``now``: stand-ins for seats absent past the grace period,
        and the move of a seat whose time ran out."""
        now = self.now() if now is None else now
        if self.state != PLAYING:
            return
        due = self.lineup.due(now)
        for take_over in due:
            self.take_over(take_over.seat)
        if due:
            async with self.lock:
                await self.save_life()
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
            bot = make_bot(EXPIRY_BOT, seat, seed=secrets.randbits(32))
            take = bot.decide(self.view_for(seat))
            log.info("time out", extra={"table": self.id, "seat": seat})
            self.lineup.ran_out(seat)
            await self._apply_locked(seat, take, [TimedOut(seat)], None, self.seats[seat].person)
            if self.state != PLAYING:
                return
            todo = self.lineup.after_time_out(seat, self._people())
            if not todo:
                return
            self.take_over(seat)
            await self.save_life()
            if isinstance(todo[-1], Ends):
                await self._end_early(todo[-1])
                return
        self.broadcast_presence()

    # ------------------------------------------------------------- endings
    async def resign(self, occupant: Occupant) -> int:
        """Resign (RULES.md section 12.1, ``Lineup.resign``): with two players, or when
        nobody but computer players would be left, the game ends and the others win;
        otherwise a computer player plays the seat to the end and it ranks last. Returns
        the state version after it."""
        seat = self.seat_of(occupant)
        if seat is None:
            raise TableError("not_seated", "only a seated player can resign")
        async with self.lock:
            if self.state == FINISHED:
                raise TableError("game_over", "the game is over")
            if self.state != PLAYING or self.game is None:
                raise TableError("not_started", "there is no game running to resign")
            todo = self.lineup.resign(seat, self._people())
            if isinstance(todo, Ends):
                await self._end_early(todo)
                return self.version
            await self.save_life()  # the resignation is durable before it is heard of
            self.take_over(todo.seat)
        self.broadcast_presence()
        return self.version

    async def claim(self, occupant: Occupant) -> int:
        """With two players, end the game and win while the opponent is absent; returns
        the state version after it."""
        seat = self.seat_of(occupant)
        if seat is None:
            raise TableError("not_seated", "only a seated player can claim")
        async with self.lock:
            if self.state != PLAYING or self.game is None:
                code = "game_over" if self.state == FINISHED else "not_started"
                raise TableError(code, "there is no game running to claim")
            await self._end_early(self.lineup.claim(seat))
        return self.version

    async def back(self, occupant: Occupant) -> int:
        """The person takes its seat back from the computer player standing in; returns
        the state version."""
        seat = self.seat_of(occupant)
        if seat is None:
            raise TableError("not_seated", "only a seated player can come back")
        if self.state != PLAYING:
            code = "game_over" if self.state == FINISHED else "not_started"
            raise TableError(code, "there is no game running")
        if not self.absent(seat):
            raise TableError("not_allowed", "no computer player plays your seat")
        self._back(seat)
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
            if self.game is None:  # abandoned before its game started: no result
                await self._store_end(None, ending, epoch=self.epoch_held())
                self._announce_end(None)
            elif self.game.over:
                await self._store_end(self._judge("played_out"), epoch=self.epoch_held())
                self._announce_end(None)
            else:
                await self._end_early(Ends(ending))
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
            await self._end_early(self.lineup.close(resigning))
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
        seat = self.seat_of(occupant)
        if seat is None:
            raise TableError("not_seated", "only a seated player can ask for a rematch")
        if self.state != FINISHED or self.result is None:
            raise TableError("not_finished", "a rematch follows a game that has ended")
        if yes and any(s.occupant.minor < 1 for s in self.seats if s.person and s.occupant):
            raise TableError(  # it needs every person's vote, and 1.0 has no rematch
                "not_allowed",
                "a player here speaks protocol 1.0, which has no rematch",
                "protocol_1_0",
            )
        if yes:
            self.rematch_votes.add(seat)
        else:
            self.rematch_votes.discard(seat)
        self.broadcast_presence()
        people = {s.index for s in self.seats if s.person}
        if people <= self.rematch_votes:
            self.rematch_votes.clear()
            await self.host.rematch(self)


if TYPE_CHECKING:  # mypy proves that a table is a handle (``server.core.handle``)
    _a_table_is_a_handle: type[TableHandle] = Table
