"""How a game ended and who won (RULES.md section 12): every game ends with a result.

A game is *played out* when a take empties a line (section 5); it can also end early by
resignation, abandonment, time-outs or a claim. Whatever the ending, the position is
scored as it stands (so people see it), but the result decides the winner:

- ``played_out``: the highest total wins, ties share; a seat that resigned during the
  game (three players: a computer player finished it) ranks last and cannot win.
- ``resigned``: the game stopped because resignations left at most one seat, or only
  computer players, still in it; every seat that did not resign wins.
- ``claimed``: with two players, the opponent of an absent seat ended the game and won.
- ``timed_out``: every person's seat was taken over after time-outs in a row (nobody was
  playing any more); the seats that did not time out win (none, if all did).
- ``abandoned``: no person was connected for too long; nobody wins.

``judge`` is pure: the same position and facts always give the same result, so a record
that stores them replays to its result (``shared.record``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal, get_args

from .errors import RecordError
from .events import Event, GameOver
from .game import Game
from .scoring import score_game

__all__ = [
    "ENDINGS",
    "SEAT_ENDINGS",
    "Ending",
    "GameResult",
    "SeatEnding",
    "announced",
    "judge",
    "seat_endings",
]

Ending = Literal["played_out", "resigned", "claimed", "timed_out", "abandoned"]
ENDINGS: tuple[Ending, ...] = get_args(Ending)
"""Every way a game can end."""
SeatEnding = Literal["played_out", "resigned", "timed_out", "claimed", "lost_claim", "abandoned"]
SEAT_ENDINGS: tuple[SeatEnding, ...] = get_args(SeatEnding)
"""How a game ended for one seat (``seat_endings``)."""


@dataclass(frozen=True, slots=True)
class GameResult:
    """The result of a finished game.

    ``winners``: seats that won (several share a win; none for an abandoned game).
    ``places``: each seat's place (RULES.md 12.3): the winners first, then the others,
    the seats that resigned, timed out or lost to a claim last; by total within each
    group, ties sharing a place.
    ``resigned``: seats that resigned, in order. ``replaced``: seats a computer player
    played for at some point (absent, timed out or resigned with three players).
    ``timed_out``: seats taken over after time-outs in a row. ``claimed_by``: the seat
    that claimed the win. ``totals``: each seat's score of the final position."""

    ending: str
    winners: tuple[int, ...]
    places: tuple[int, ...]
    totals: tuple[int, ...]
    resigned: tuple[int, ...] = ()
    replaced: tuple[int, ...] = ()
    timed_out: tuple[int, ...] = ()
    claimed_by: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "ending": self.ending,
            "winners": list(self.winners),
            "places": list(self.places),
            "totals": list(self.totals),
            "resigned": list(self.resigned),
            "replaced": list(self.replaced),
            "timed_out": list(self.timed_out),
            "claimed_by": self.claimed_by,
        }

    @classmethod
    def from_dict(cls, raw: Any, players: int, where: str = "result") -> GameResult:
        """Read a stored result; ``RecordError`` naming the field if malformed."""
        if not isinstance(raw, dict):
            raise RecordError("must be an object", where, "malformed")
        unknown = set(raw) - set(cls.__slots__)
        if unknown:
            raise RecordError(f"unknown field(s) {sorted(unknown)}", where, "malformed")
        ending = raw.get("ending")
        if ending not in ENDINGS:
            raise RecordError(f"must be one of {ENDINGS}", f"{where}.ending", "malformed")

        def seats(name: str, exact: bool = False) -> tuple[int, ...]:
            value = raw.get(name, [])
            if not isinstance(value, list) or any(
                isinstance(s, bool) or not isinstance(s, int) for s in value
            ):
                raise RecordError("must be a list of integers", f"{where}.{name}", "malformed")
            if exact and len(value) != players:
                raise RecordError(f"needs {players} entries", f"{where}.{name}", "malformed")
            if not exact and any(not 0 <= s < players for s in value):
                raise RecordError(f"seats are 0..{players - 1}", f"{where}.{name}", "malformed")
            return tuple(value)

        claimed = raw.get("claimed_by")
        if claimed is not None and (
            isinstance(claimed, bool) or not isinstance(claimed, int) or not 0 <= claimed < players
        ):
            raise RecordError("must be a seat or null", f"{where}.claimed_by", "malformed")
        return cls(
            ending,
            seats("winners"),
            seats("places", exact=True),
            seats("totals", exact=True),
            seats("resigned"),
            seats("replaced"),
            seats("timed_out"),
            claimed,
        )


def judge(
    game: Game,
    ending: str,
    *,
    resigned: Iterable[int] = (),
    replaced: Iterable[int] = (),
    timed_out: Iterable[int] = (),
    claimed_by: int | None = None,
) -> GameResult:
    """The result of ``game`` ending as ``ending`` (see the module docstring).
    ``ValueError`` for facts that do not fit (an unknown ending, a seat out of range,
    ``played_out`` before the game is over, a claim without a claimant)."""
    n = game.players
    res = tuple(dict.fromkeys(resigned))
    rep = tuple(sorted(set(replaced) | (set(res) if n > 2 and ending == "played_out" else set())))
    tim = tuple(sorted(set(timed_out)))
    if ending not in ENDINGS:
        raise ValueError(f"unknown ending {ending!r}")
    for s in (*res, *rep, *tim, *(() if claimed_by is None else (claimed_by,))):
        if not 0 <= s < n:
            raise ValueError(f"no seat {s}")
    if (ending == "played_out") != game.over:
        raise ValueError("a game is played out exactly when its last card is taken")
    if (ending == "claimed") != (claimed_by is not None):
        raise ValueError("a claim names the seat that claimed, and only a claim does")
    totals = tuple(s.total for s in score_game(game).scores)
    losers = set(res)  # rank last whatever they scored
    if ending == "played_out":
        best = max((totals[s] for s in range(n) if s not in losers), default=None)
        winners = tuple(s for s in range(n) if s not in losers and totals[s] == best)
    elif ending == "resigned":
        winners = tuple(s for s in range(n) if s not in losers)
    elif ending == "claimed":
        assert claimed_by is not None
        winners = (claimed_by,)
        losers |= set(range(n)) - {claimed_by}
    elif ending == "timed_out":
        losers |= set(tim)
        winners = tuple(s for s in range(n) if s not in losers)
    else:  # abandoned
        winners = ()
    key = [(s not in winners, s in losers, -totals[s]) for s in range(n)]
    places = tuple(1 + sum(1 for k in key if k < key[s]) for s in range(n))
    return GameResult(ending, winners, places, totals, res, rep, tim, claimed_by)


def announced(events: Sequence[Event], result: GameResult) -> list[Event]:
    """``events`` of a game's last take as ``result`` tells them: the ``game_over``
    event names the result's winners. The engine's event names the highest totals, but
    a seat that resigned cannot win (section 12.1), and whoever reads the event must
    learn the winners the view and the result name."""
    return [replace(e, winners=result.winners) if isinstance(e, GameOver) else e for e in events]


def seat_endings(result: GameResult) -> tuple[SeatEnding, ...]:
    """How the game ended for each seat: it ``resigned``, ``timed_out`` (its time ran
    out in a row until a computer took it over), ``claimed`` the win or lost to a claim
    (``lost_claim``), the game was ``abandoned``, or the seat played on to the end
    (``played_out``, whatever ended the game for the others)."""

    def ending(seat: int) -> SeatEnding:
        if seat in result.resigned:
            return "resigned"
        if seat in result.timed_out:
            return "timed_out"
        if result.ending == "claimed":
            return "claimed" if seat == result.claimed_by else "lost_claim"
        if result.ending == "abandoned":
            return "abandoned"
        return "played_out"

    return tuple(ending(seat) for seat in range(len(result.places)))
