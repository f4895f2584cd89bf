"""What each occupant of a table hears: the views made for its seat, a new state's
public events, presence, chat, and a game's end.

``Telling`` is that, as a plain object a ``Table`` holds: it never sends anything
itself but calls the occupants its ``Seating`` and ``Lineup`` name (network sessions,
server-side bots, stand-ins; see ``roles.Occupant``) with views built by
``shared.view.views`` and with public events, and nothing else. It holds no game: each
call is handed the ``Scene`` it tells of (the table, as its occupants are told of it),
and synchronous, it is tested without an event loop.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from protocol.messages.missed import MAX_MISSED_STEPS
from shared.events import Event
from shared.game import Game
from shared.result import GameResult
from shared.view import View, views

from .errors import TableError
from .journal import Journal
from .lineup import Lineup
from .seating import Occupant, Seating

__all__ = ["Scene", "Telling"]


class Scene(Protocol):
    """What occupants are told of: the table they are handed with each delivery, its
    game (None before it starts), how it ended and its state version."""

    @property
    def game(self) -> Game | None: ...

    @property
    def result(self) -> GameResult | None: ...

    @property
    def version(self) -> int: ...


class Telling:
    """What everyone at ``seating`` hears, the ``lineup``'s stand-ins among them, the
    clock read at ``now`` (see the module docstring)."""

    def __init__(self, seating: Seating, lineup: Lineup[Any], now: Callable[[], float]) -> None:
        self.seating = seating
        self.lineup = lineup
        self.now = now

    def occupants(self) -> list[tuple[int | None, Occupant]]:
        """Everyone who hears of the table: seats' occupants, stand-ins, spectators."""
        return self.seating.occupants(self.lineup.stand_ins)

    # ------------------------------------------------------------- views
    def views(self, scene: Scene, seats: Sequence[int | None]) -> dict[int | None, View]:
        """The view of each of ``seats`` (None: a spectator's) now, each made once."""
        assert scene.game is not None
        unique = list(dict.fromkeys(seats))
        made = views(
            scene.game, unique, result=scene.result, clock=self.lineup.clock_view(self.now())
        )
        return dict(zip(unique, made, strict=True))

    def view_for(self, scene: Scene, seat: int | None) -> View:
        """The view of ``seat`` (None: a spectator's) now."""
        return self.views(scene, [seat])[seat]

    def _mine(self, seat: int | None, view: View) -> View:
        """``view`` as the person of ``seat`` gets it: ``takes`` only if it may take."""
        if view.takes is None or self.lineup.may_take(seat):
            return view
        return dataclasses.replace(view, takes=None)

    # ------------------------------------------------------------- telling
    def update(
        self,
        scene: Scene,
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
        made = self.views(scene, [seat for seat, _ in targets])
        stand_ins = {id(o) for o in self.lineup.stand_ins.values()}
        for seat, occ in targets:
            view = made[seat] if id(occ) in stand_ins else self._mine(seat, made[seat])
            re = answer[1] if answer is not None and occ is answer[0] else None
            occ.deliver_update(scene, events, view, scene.version, re, by_computer)
        return answer is not None and any(occ is answer[0] for _, occ in targets)

    def view_to(self, scene: Scene, occupant: Occupant, seat: int | None = None) -> None:
        """A fresh full view for one occupant (on join, watch or resume), made for its
        seat (or ``seat``, for a stand-in); nothing before the game starts."""
        if scene.game is not None:
            made = self.view_for(scene, seat) if seat is not None else None
            if made is None:
                seat = self.seating.seat_of(occupant)
                made = self._mine(seat, self.view_for(scene, seat))
            if scene.result is not None and not scene.game.over and occupant.minor < 1:
                # protocol 1.0 never saw a game end early: the last position, as before
                made = views(scene.game, [seat])[0]
            occupant.deliver_view(scene, made, scene.version)

    def presence(self, scene: Scene) -> None:
        """Who sits, watches and plays where, to everyone."""
        for _, occ in self.occupants():
            occ.deliver_presence(scene)

    def chat(self, scene: Scene, occupant: Occupant, name: str, text: str) -> None:
        """A line to everyone here: a seat speaks under its seat's name, a spectator
        under its own name marked ``(spectator)``, never as a seated player."""
        seat = self.seating.seat_of(occupant)
        name = f"{name} (spectator)" if seat is None else self.seating.seats[seat].name or name
        for _, occ in self.occupants():
            occ.deliver_chat(scene, seat, name, text)

    def result(self, scene: Scene) -> None:
        """The final view, with the result, to everyone: a game ended before its last
        take (resigned, claimed, timed out, abandoned)."""
        made = self.views(scene, [seat for seat, _ in self.occupants()])
        for seat, occ in self.occupants():
            occ.deliver_result(scene, made[seat], scene.version)

    def finished(self, scene: Scene, reason: str, seat: int | None) -> None:
        """The table is finished, as ``reason`` (``seat``: who resigned), to everyone."""
        for _, occ in self.occupants():
            occ.deliver_finished(scene, reason, seat)

    def catch_up(
        self, scene: Scene, occupant: Occupant, since: int, re: int, journal: Journal
    ) -> None:
        """1.4's ``catch_up``: the steps of ``journal`` after state ``since`` (the newest
        ``MAX_MISSED_STEPS``) to ``occupant``, answering ``re``. Every seat and
        spectator gets the same public events live, so the steps are the same for all."""
        if self.seating.seat_of(occupant) is None and occupant not in self.seating.spectators:
            raise TableError("not_seated", "only who sits or watches here may catch up")
        if scene.game is None:
            raise TableError("not_started", "the game has not started yet")
        if since > scene.version:
            raise TableError(
                "invalid_field",
                f"catch_up: since ({since}) is after the table's state ({scene.version})",
                "since",
                field="since",
            )
        steps, omitted = journal.since(since, MAX_MISSED_STEPS)
        occupant.deliver_missed(scene, since, scene.version, steps, omitted, re)
