"""What the store keeps of a running game beyond its record: who resigned, who was
played by a computer at some point, who timed out, the clock, and the server running
it.

``TableLife`` is that, as one validated record: the table writes it (``to_dict``, the
stored JSON) and a restart or a node taking the table over reads it back
(``from_stored``), never trusting what it reads (a seat out of range, a wrong type:
left out).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from shared.frozen import quick

__all__ = ["TableLife"]


@quick
@dataclass(frozen=True, slots=True)
class TableLife:
    """A running game's life beyond its record (``Table.life``)."""

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

    def to_dict(self) -> dict[str, Any]:
        """The stored form (JSON)."""
        return {
            "resigned": list(self.resigned),
            "replaced": sorted(self.replaced),
            "timed_out": sorted(self.timed_out),
            "clock": self.clock,
            "server": self.server,
        }

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

        clock = raw.get("clock")
        server = raw.get("server")
        return cls(
            seats("resigned"),
            seats("replaced"),
            seats("timed_out"),
            clock if isinstance(clock, dict) else None,
            server if isinstance(server, str) else "",
        )
