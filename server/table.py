"""Tables: seats, spectators and the one game each table plays.

A ``Table`` owns its ``Game`` and every secret of it. It never sends anything itself:
it calls its occupants (network sessions or server-side bots, see ``Occupant``) with
views built by ``shared.view.view`` and with public events, and nothing else. Intents to
one table are applied one at a time under its lock; each is validated against the
state version it was decided on, applied to a copy of the game, made durable in the
store, and only then acknowledged and broadcast. Likewise a game's end (the last take,
a resignation, an abandoned table) is stored before anyone hears of it.
"""

from __future__ import annotations

import asyncio
import hashlib
import itertools
import logging
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from shared.errors import RuleError
from shared.events import Event
from shared.game import Game, Take
from shared.options import Options
from shared.record import Record
from shared.scoring import score_game
from shared.view import View, view, views

from .store import Store

__all__ = ["Occupant", "Seat", "Table", "TableError", "hash_token", "new_token"]

log = logging.getLogger("kupferkessel.table")

LOBBY, PLAYING, FINISHED = "lobby", "playing", "finished"

_serials = itertools.count(1)
"""Every table made in this process gets the next number: the lobby listing's order."""


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

    def deliver_presence(self, table: Table) -> None: ...

    def deliver_chat(self, table: Table, seat: int | None, name: str, text: str) -> None: ...

    def deliver_finished(self, table: Table, reason: str, seat: int | None) -> None: ...

    def replaced(self, table: Table, seat: int) -> None:
        """Another connection resumed this seat with its token."""
        ...


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
    ) -> None:
        self.id = table_id
        self.name = name
        self.options = options  # may carry a seed chosen by the creator
        self.store = store
        self.private = private
        self.invite_hash = invite_hash
        self.created = time.time() if created is None else created
        self.seats = [Seat(i) for i in range(options.players)]
        self.spectators: set[Occupant] = set()
        self.state = LOBBY
        self.game: Game | None = None
        self.record: Record | None = None
        self.version = 0
        self.finished_at: float | None = None
        self.finish_reason: str | None = None
        self.resigned: int | None = None  # the seat that resigned, if the game ended so
        self.lock = asyncio.Lock()
        self.on_finish: Callable[[Table], None] | None = None
        # since when no person has sat or watched here (None while someone does); set
        # at creation and restore, kept by ``_note_presence``; the lobby expires tables
        # left unattended before their game started (``Lobby.expire_lobbies``)
        self.idle_since: float | None = time.time()
        self.serial = next(_serials)

    # ------------------------------------------------------------- queries
    def occupants(self) -> list[tuple[int | None, Occupant]]:
        out: list[tuple[int | None, Occupant]] = [
            (s.index, s.occupant) for s in self.seats if s.occupant is not None
        ]
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
            self.idle_since = time.time()

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
    def open(self) -> bool:
        """Waiting in the lobby with a free seat: someone may join."""
        return self.state == LOBBY and any(not s.taken for s in self.seats)

    @property
    def seeded(self) -> bool:
        """The creator chose the seed: they may know the whole deal."""
        return self.options.seed is not None

    # ------------------------------------------------------------- sending
    def _send_update(self, events: Sequence[Event]) -> None:
        """A new state: to every seat and spectator its public events and the view made
        for it (spectators share one)."""
        assert self.game is not None
        targets = self.occupants()
        seats: list[int | None] = [seat for seat, _ in targets if seat is not None]
        if self.spectators:
            seats.append(None)  # one view for every spectator
        made = dict(zip(seats, views(self.game, seats), strict=True))
        for seat, occ in targets:
            occ.deliver_update(self, events, made[seat], self.version)

    def send_view_to(self, occupant: Occupant) -> None:
        """A fresh full view for one occupant (on join, watch or resume)."""
        if self.game is not None:
            occupant.deliver_view(self, view(self.game, self.seat_of(occupant)), self.version)

    def broadcast_presence(self) -> None:
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
            await self.store.set_seat(self.id, chosen.index, name, th, None)
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
            await self.store.set_seat(self.id, chosen.index, name, None, level)
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
        the player's (resume with the token) and only the connection detaches."""
        if occupant in self.spectators:
            self.spectators.discard(occupant)
            self._note_presence()
            self.broadcast_presence()
            return
        async with self.lock:
            seat = self.seat_of(occupant)  # under the lock: a resume may have replaced it
            if seat is None:
                raise TableError("not_seated", "you are not at this table")
            s = self.seats[seat]
            s.occupant = None
            self._note_presence()
            if self.state == LOBBY:
                # the token dies before the store is written: a ``resume`` of it racing
                # this leave finds no seat (not a seat without a name)
                s.name = s.token_hash = None
                s.ready = False
                await self.store.clear_seat(self.id, seat)
        self.broadcast_presence()

    def detach(self, occupant: Occupant) -> None:
        """The connection closed: keep the seat, mark it disconnected."""
        self.spectators.discard(occupant)
        for s in self.seats:
            if s.occupant is occupant:
                s.occupant = None
        self._note_presence()
        self.broadcast_presence()

    def resume(self, token_hash: str, occupant: Occupant) -> int:
        """Take a seat back with its token; an older connection on it is replaced."""
        for s in self.seats:
            if s.token_hash is not None and secrets.compare_digest(s.token_hash, token_hash):
                old = s.occupant
                s.occupant = occupant
                self.spectators.discard(occupant)
                self._note_presence()
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
            options = self.options
            if options.seed is None:
                options = options.replace(seed=secrets.randbits(63))
            events: list[Event] = []
            record, game = Record.deal(options, events)
            await self.store.start_game(self.id, record)
            self.record, self.game, self.version = record, game, 0
            self.state = PLAYING
            log.info("game started", extra={"table": self.id})
            self._send_update(events)
        self.broadcast_presence()

    # ------------------------------------------------------------- play
    async def take(self, occupant: Occupant, take: Take, state_version: int) -> int:
        """Apply a take for the occupant's seat; returns the new state version."""
        seat = self.seat_of(occupant)
        if seat is None:
            raise TableError("not_seated", "spectators cannot act; join a seat to play")
        return await self.take_for_seat(seat, take, state_version)

    async def take_for_seat(self, seat: int, take: Take, state_version: int) -> int:
        async with self.lock:
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
            if seat != game.to_move:
                raise TableError("not_your_turn", f"it is seat {game.to_move}'s turn")
            trial = game.copy()
            events: list[Event] = []
            try:
                trial.apply(take, seat, events)
            except RuleError as e:
                raise TableError("illegal_move", e.message, e.code) from e
            index = len(self.record.actions)
            await self.store.append_action(self.id, index, take)  # durable before the ack
            self.record.actions.append(take)
            self.game = trial
            self.version += 1
            if trial.over:  # the end is stored before anyone hears of it
                await self._store_finish("game_over", None)
            self._send_update(events)
            if trial.over:
                self._announce_finish("game_over", None)
            return self.version

    async def resign(self, occupant: Occupant) -> None:
        seat = self.seat_of(occupant)
        if seat is None:
            raise TableError("not_seated", "only a seated player can resign")
        async with self.lock:
            if self.state == FINISHED:
                raise TableError("game_over", "the game is over")
            if self.state != PLAYING:
                raise TableError("not_started", "there is no game running to resign")
            await self._store_finish("resigned", seat)
            self._announce_finish("resigned", seat)

    async def finish(
        self, reason: str, *, only_if: Callable[[Table], bool] | None = None
    ) -> bool:
        """End the table (``game_over`` for a game played out, ``abandoned``): stored
        first, then announced to everyone at the table. Runs under the table's lock,
        where ``only_if`` (if given) must still hold; returns whether the table ended."""
        async with self.lock:
            if self.state == FINISHED or (only_if is not None and not only_if(self)):
                return False
            await self._store_finish(reason, None)
            self._announce_finish(reason, None)
        return True

    async def _store_finish(self, reason: str, seat: int | None) -> None:
        """Store the end (with the lock held), then mark the table finished."""
        result: dict[str, Any] | None = None
        if self.game is not None and self.game.over:
            res = score_game(self.game)
            result = {"winners": list(res.winners), "totals": [s.total for s in res.scores]}
        elif reason == "resigned":
            result = {"resigned": seat}
        await self.store.finish(self.id, result)
        self.state = FINISHED
        self.finished_at = time.time()
        self.finish_reason = reason
        if reason == "resigned":
            self.resigned = seat
        log.info("game finished", extra={"table": self.id, "reason": reason})
        if self.on_finish is not None:
            self.on_finish(self)

    def _announce_finish(self, reason: str, seat: int | None) -> None:
        for _, occ in self.occupants():
            occ.deliver_finished(self, reason, seat)
