"""What the store keeps of a running game beyond its record: who resigned, who was
played by a computer at some point, who timed out, the clock, the server running it,
how many takes each seat's person made itself (``own``: what makes a rated game
count, ``server.players.ratings``), and which takes a computer made for a person's
seat or because its time ran out (protocol 1.4, ``server.core.journal``).

``TableLife`` is that, as one validated record: the table writes it (``to_dict``, the
stored JSON) and a restart or a node taking the table over reads it back
(``from_stored``), never trusting what it reads (a seat out of range, a wrong type:
left out).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from shared.frozen import quick
from shared.record import Record

__all__ = ["TableLife", "own_takes", "takes_per_seat"]


@quick
@dataclass(frozen=True, slots=True)
class TableLife:
    """A running game's life beyond its record (``Course.life``)."""

    resigned: tuple[int, ...] = ()
    """Seats that resigned, in order."""
    replaced: tuple[int, ...] = ()
    """Seats a computer player played at some point."""
    timed_out: tuple[int, ...] = ()
    """Seats taken over after time-outs in a row."""
    clock: dict[str, Any] | None = None
    """The clock (``shared.clock.Clock.to_dict``): reserves and the running move's start."""
    server: str = ""
    """The server running the game (``Store.server_id``): its last alive note
    (``Store.note_alive``) says until when the move ran, should it crash."""
    own: tuple[int, ...] = ()
    """Per seat, the takes its person made itself (not a computer player standing in
    or moving for it when its time ran out); empty in a life stored before they were
    counted."""
    computer: tuple[int, ...] = ()
    """The indices of the takes a computer player made for a person's seat (protocol
    1.4's ``by_computer``); empty in a life stored before they were kept."""
    expired: tuple[int, ...] = ()
    """The indices of the takes made because the seat's time ran out (each announced
    after a ``timed_out`` event)."""

    def to_dict(self) -> dict[str, Any]:
        """The stored form (JSON); the takes' indices only when there are some."""
        stored: dict[str, Any] = {
            "resigned": list(self.resigned),
            "replaced": sorted(self.replaced),
            "timed_out": sorted(self.timed_out),
            "clock": self.clock,
            "server": self.server,
            "own": list(self.own),
        }
        if self.computer:
            stored["computer"] = list(self.computer)
        if self.expired:
            stored["expired"] = list(self.expired)
        return stored

    @classmethod
    def from_stored(cls, raw: object, players: int) -> TableLife:
        """The life stored as ``raw`` (None: nothing stored) for a game of ``players``;
        whatever does not fit is left out."""
        if not isinstance(raw, dict):
            return cls()

        def seats(key: str) -> tuple[int, ...]:
            got = raw.get(key, [])
            ok = isinstance(got, list) and all(type(s) is int and 0 <= s < players for s in got)
            return tuple(dict.fromkeys(got)) if ok else ()

        def indices(key: str) -> tuple[int, ...]:
            got = raw.get(key, [])
            ok = isinstance(got, list) and all(type(n) is int and n >= 0 for n in got)
            return tuple(dict.fromkeys(got)) if ok else ()

        clock = raw.get("clock")
        server = raw.get("server")
        got = raw.get("own")
        own: list[int] = got if isinstance(got, list) else []
        counted = len(own) == players and all(type(n) is int and n >= 0 for n in own)
        return cls(
            seats("resigned"),
            seats("replaced"),
            seats("timed_out"),
            clock if isinstance(clock, dict) else None,
            server if isinstance(server, str) else "",
            tuple(own) if counted else (),
            indices("computer"),
            indices("expired"),
        )


def takes_per_seat(record: Record) -> list[int]:
    """How many of ``record``'s takes fell to each seat's turn, whoever made them."""
    game = record.start()
    counts = [0] * record.options.players
    for take in record.actions:
        counts[game.to_move] += 1
        game.apply(take)
    return counts


def own_takes(life: object, record: Callable[[], Record | None], players: int) -> list[int]:
    """Per seat, the takes its person made itself, as the stored ``life`` says; for a
    game whose life does not say (stored before they were counted), the takes of the
    seat's turns in its ``record()`` (who made them was not kept), none without one."""
    own = TableLife.from_stored(life, players).own
    if own:
        return list(own)
    replayed = record()
    return takes_per_seat(replayed) if replayed is not None else [0] * players
