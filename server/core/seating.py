"""The people at a table: who sits at each seat (a person, a server-side bot, or
nobody yet), who is connected there, who watches, and since when nobody does.

``Seating`` is that, as a plain object a ``Table`` holds: no lock, no store, no
sending and no event loop; the time comes from the ``now`` it is handed. It picks the
seat a join or a bot takes (or says why none), seats and unseats occupants, finds a
seat by its token, and keeps ``idle_since`` whenever someone comes or goes. Who
*plays* each seat of a running game (stand-ins, time-outs, resignations) is the
table's ``Lineup``; what each occupant hears is its ``Telling``.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias

from .errors import TableError, same_player
from .handle import PublicSeat
from .lineup import Lineup
from .roles import Occupant as _Occupant

__all__ = ["Seat", "Seating"]

Occupant: TypeAlias = "_Occupant[Any]"
"""An occupant as the seating holds it (``server.core.table`` names it for its ``Table``)."""


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


class Seating:
    """The ``players`` seats of a table and its spectators (see the module docstring)."""

    def __init__(self, players: int, now: Callable[[], float]) -> None:
        self.seats = [Seat(i) for i in range(players)]
        self.spectators: set[Occupant] = set()
        self.rematch_votes: set[int] = set()  # the seats asking for a rematch
        self.now = now
        # since when no person has sat or watched here (None while someone does); set
        # at creation and restore, kept by ``note_presence``; the lobby expires tables
        # left unattended (``Lobby.expire_lobbies``, ``Lobby.tick``)
        self.idle_since: float | None = now()

    # ------------------------------------------------------------- queries
    def seat_of(self, occupant: Occupant) -> int | None:
        """The seat ``occupant`` sits at (None: it watches, or is not here)."""
        for s in self.seats:
            if s.occupant is occupant:
                return s.index
        return None

    def people(self) -> list[int]:
        """The seats of people (not server-side bots)."""
        return [s.index for s in self.seats if s.person]

    def occupants(self, stand_ins: Mapping[int, Occupant]) -> list[tuple[int | None, Occupant]]:
        """Everyone who hears of the table: seats' occupants, the ``stand_ins`` playing
        seats (the lineup's), spectators; each with its seat (None: a spectator)."""
        out: list[tuple[int | None, Occupant]] = [
            (s.index, s.occupant) for s in self.seats if s.occupant is not None
        ]
        out.extend(stand_ins.items())
        out.extend((None, o) for o in self.spectators)
        return out

    @property
    def attended(self) -> bool:
        """A person sits or watches here (a server-side bot does not count)."""
        return bool(self.spectators) or any(
            s.occupant is not None and s.bot is None for s in self.seats
        )

    @property
    def free(self) -> bool:
        """A seat is free."""
        return any(not s.taken for s in self.seats)

    @property
    def full_and_ready(self) -> bool:
        """Every seat is taken and everyone is ready (a bot always is): a game may start."""
        return all(s.taken and s.ready for s in self.seats)

    @property
    def bots_only(self) -> bool:
        """Every seat is a server-side bot's."""
        return all(s.bot is not None for s in self.seats)

    def public_seats(
        self,
        lineup: Lineup[Any],
        computer: Sequence[int] | None = None,
        ended: Sequence[str] | None = None,
        ratings: Mapping[int, tuple[float | None, float]] | None = None,
    ) -> list[PublicSeat]:
        """Each seat's public facts, who plays it in the game ``lineup`` among them;
        1.4's: the takes a computer made for it (``computer``, per seat), how the game
        ended for it (``ended``, once it did) and its rating before and after
        (``ratings``, a finished rated game's)."""
        ratings = ratings or {}
        return [
            PublicSeat(
                s.index,
                s.name,
                s.occupant is not None,
                s.bot,
                s.ready,
                s.index in lineup.resigned,
                lineup.absent(s.index),
                s.index in lineup.stand_ins,
                s.index in self.rematch_votes,
                s.player is not None,
                0 if computer is None else computer[s.index],
                None if ended is None else ended[s.index],
                *ratings.get(s.index, (None, None)),
            )
            for s in self.seats
        ]

    def by_token(self, token_hash: str) -> Seat | None:
        """The seat whose token hashes to ``token_hash`` (compared in constant time)."""
        for s in self.seats:
            if s.token_hash is not None and secrets.compare_digest(s.token_hash, token_hash):
                return s
        return None

    # ------------------------------------------------------------- choosing a seat
    def for_join(self, seat: int | None, player: str | None) -> Seat:
        """The seat a join takes: ``seat``, or the first free one; refused if there is
        none, or if ``player`` (a registered player) sits here already."""
        if seat is not None:
            if not 0 <= seat < len(self.seats):
                raise TableError("invalid_field", f"no seat {seat} at this table", field="seat")
            if self.seats[seat].taken:
                raise TableError("seat_taken", f"seat {seat} is taken")
            chosen = self.seats[seat]
        else:
            free = [s for s in self.seats if not s.taken]
            if not free:
                raise TableError("table_full", "every seat at this table is taken")
            chosen = free[0]
        if player is not None and any(s.player == player for s in self.seats):
            raise same_player()  # the store refuses it too (races between nodes)
        return chosen

    def for_bot(self, seat: int | None) -> Seat:
        """The seat a bot takes: ``seat`` if it is free, else the first free one."""
        free = [s for s in self.seats if not s.taken and (seat is None or s.index == seat)]
        if not free:
            raise TableError("table_full", "no free seat for a bot")
        return free[0]

    # ------------------------------------------------------------- coming and going
    def note_presence(self) -> None:
        """Keep ``idle_since`` after someone came or went."""
        if self.attended:
            self.idle_since = None
        elif self.idle_since is None:
            self.idle_since = self.now()

    def sit(
        self, seat: Seat, occupant: Occupant, name: str, token_hash: str, player: str | None
    ) -> None:
        """``occupant`` sits at ``seat`` as ``name`` (not ready yet); it watches no more."""
        seat.name, seat.token_hash, seat.player = name, token_hash, player
        seat.occupant, seat.ready = occupant, False
        self.spectators.discard(occupant)
        self.note_presence()

    def watch(self, occupant: Occupant) -> None:
        self.spectators.add(occupant)
        self.note_presence()

    def unwatch(self, occupant: Occupant) -> bool:
        """``occupant`` watches no more; whether it did."""
        if occupant not in self.spectators:
            return False
        self.spectators.discard(occupant)
        self.note_presence()
        return True

    def vacate(self, seat: int) -> None:
        """Nobody is connected at ``seat`` any more (it stays its person's)."""
        self.seats[seat].occupant = None
        self.note_presence()

    def clear(self, seat: int) -> None:
        """``seat`` is given up: free again, its token dead."""
        s = self.seats[seat]
        s.name = s.token_hash = s.player = None
        s.ready = False

    def detach(self, occupant: Occupant) -> list[int]:
        """``occupant``'s connection closed: it watches no more and is connected at no
        seat (each stays its person's); returns the seats it left."""
        self.spectators.discard(occupant)
        left = [s.index for s in self.seats if s.occupant is occupant]
        for seat in left:
            self.seats[seat].occupant = None
        self.note_presence()
        return left

    def resume(self, seat: Seat, occupant: Occupant) -> Occupant | None:
        """``occupant`` takes ``seat`` back; returns the connection it replaces, if any."""
        old = seat.occupant
        seat.occupant = occupant
        self.spectators.discard(occupant)
        self.note_presence()
        return old

    # ------------------------------------------------------------- a rematch
    def vote(self, seat: int, yes: bool) -> None:
        """``seat`` asks for a rematch (or no longer does): refused while a person here
        speaks protocol 1.0, which has no rematch (it needs every person's vote)."""
        if yes and any(s.occupant.minor < 1 for s in self.seats if s.person and s.occupant):
            raise TableError(
                "not_allowed",
                "a player here speaks protocol 1.0, which has no rematch",
                "protocol_1_0",
            )
        if yes:
            self.rematch_votes.add(seat)
        else:
            self.rematch_votes.discard(seat)

    def rematch_agreed(self) -> bool:
        """Every person seated asks for a rematch: the votes are spent on it."""
        if not set(self.people()) <= self.rematch_votes:
            return False
        self.rematch_votes.clear()
        return True
