"""Ratings: openskill's Plackett-Luce model over a game's places.

Why openskill rather than Glicko-2: Glicko-2 rates two-player results (a three-player
game would have to be cut into pairs, counting each game two or three times), while
Plackett-Luce rates a ranking of any number of players in one update, so two- and
three-player games count alike, ties (shared places) included. The library is kept
(openskill, MIT), fast, and its values are tested against its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from openskill.models import PlackettLuce

from server.store.players import RatingChange

__all__ = [
    "MODEL",
    "PROVISIONAL_GAMES",
    "counts",
    "display",
    "initial",
    "rate",
    "rate_game",
]

MODEL = PlackettLuce()
"""The model every rating comes from (openskill's defaults: mu 25, sigma 25/3)."""
PROVISIONAL_GAMES = 10
"""A rating is provisional until this many rated games: sigma has then fallen from 8.3
to about 4 in two- and three-player games alike, so the rating says something."""


def initial() -> tuple[float, float]:
    """A new player's (mu, sigma)."""
    r = MODEL.rating()
    return (r.mu, r.sigma)


def display(mu: float, sigma: float) -> float:
    """The rating shown and ranked by: ``mu - 3 sigma`` (openskill's ordinal)."""
    return float(MODEL.rating(mu=mu, sigma=sigma).ordinal())


def rate(before: Sequence[tuple[float, float]], places: Sequence[int]) -> list[tuple[float, float]]:
    """Every seat's (mu, sigma) after a game in which they took ``places`` (1: best;
    equal places are a tie)."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
    after = MODEL.rate(teams, ranks=[float(p) for p in places])
    return [(team[0].mu, team[0].sigma) for team in after]


def counts(result: dict[str, Any] | None, players: dict[int, str]) -> bool:
    """Whether a stored result changes ratings: an ending other than ``abandoned``,
    with a registered player in every seat, each a different one."""
    if not isinstance(result, dict) or result.get("ending") in (None, "abandoned"):
        return False
    places = result.get("places") or []
    seats = set(range(len(places)))
    return len(places) >= 2 and set(players) == seats and len(set(players.values())) == len(seats)


def rate_game(
    result: dict[str, Any], players: dict[int, str], current: dict[str, tuple[float, float] | None]
) -> list[RatingChange]:
    """The changes a counted game makes: ``current`` is each player's (mu, sigma) before
    it (None: unrated yet)."""
    places = list(result["places"])
    seats = sorted(players)
    before = [current[players[s]] for s in seats]
    after = rate([b if b is not None else initial() for b in before], [places[s] for s in seats])
    return [RatingChange(s, players[s], b, a) for s, b, a in zip(seats, before, after, strict=True)]
