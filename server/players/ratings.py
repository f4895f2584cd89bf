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

from server.store.players import RatingChange, shown

__all__ = [
    "MODEL",
    "OWN_TAKES",
    "PROVISIONAL_GAMES",
    "counts",
    "display",
    "forfeited",
    "initial",
    "rate",
    "rate_game",
    "rated_seats",
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
    """The rating shown and ranked by: ``mu - 3 sigma`` (openskill's ordinal; the
    store's ``shown``, which a finished table's ``presence`` reads: one formula)."""
    return shown(mu, sigma)


def rate(before: Sequence[tuple[float, float]], places: Sequence[int]) -> list[tuple[float, float]]:
    """Every seat's (mu, sigma) after a game in which they took ``places`` (1: best;
    equal places are a tie)."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
    after = MODEL.rate(teams, ranks=[float(p) for p in places])
    return [(team[0].mu, team[0].sigma) for team in after]


OWN_TAKES = 3
"""A rated game counts in full only once every seat's person has made this many takes
itself (takes a computer made for the seat, standing in or when its time ran out, are
not its own): a game resigned, claimed or left at once rates nobody who did not lose it
by their own doing (``rated_seats``)."""


def counts(result: dict[str, Any] | None, players: dict[int, str]) -> bool:
    """Whether a stored result may change ratings: an ending other than ``abandoned``,
    with a registered player in every seat, each a different one."""
    if not isinstance(result, dict) or result.get("ending") in (None, "abandoned"):
        return False
    places = result.get("places") or []
    seats = set(range(len(places)))
    return len(places) >= 2 and set(players) == seats and len(set(players.values())) == len(seats)


def forfeited(result: dict[str, Any]) -> set[int]:
    """The seats that lost the game by their own doing: they resigned, timed out in a
    row until the computer took over, or were absent when the opponent claimed."""
    seats = set(result.get("resigned") or ()) | set(result.get("timed_out") or ())
    claimant = result.get("claimed_by")
    if result.get("ending") == "claimed" and claimant is not None:
        seats |= set(range(len(result["places"]))) - {claimant}
    return seats


def rated_seats(result: dict[str, Any], own: Sequence[int]) -> tuple[list[int], list[int]]:
    """Whose ratings a counting game changes, and the places they are rated by: every
    seat, by the result's places, once each seat made ``OWN_TAKES`` takes itself. Before
    that, only the seats that forfeited (``forfeited``) lose, as to the other seats,
    and nobody else's rating moves: a second account resigning at once feeds nobody a
    win, and a player who sees a poor deal cannot leave it for free either (resigning,
    stalling on the clock and leaving are all losses). Nobody's when nobody, or
    everybody, forfeited."""
    places = list(result["places"])
    if all(n >= OWN_TAKES for n in own):
        return list(range(len(places))), places
    lost = forfeited(result)
    if not lost or len(lost) == len(places):
        return [], places
    return sorted(lost), [2 if s in lost else 1 for s in range(len(places))]


def rate_game(
    result: dict[str, Any],
    players: dict[int, str],
    current: dict[str, tuple[float, float] | None],
    own: Sequence[int],
) -> list[RatingChange]:
    """The changes a counted game makes (``counts``): ``current`` is each player's (mu,
    sigma) before it (None: unrated yet), ``own`` each seat's own takes; only the seats
    ``rated_seats`` names change."""
    changed, places = rated_seats(result, own)
    seats = sorted(players)
    before = [current[players[s]] for s in seats]
    after = rate([b if b is not None else initial() for b in before], [places[s] for s in seats])
    return [
        RatingChange(s, players[s], b, a)
        for s, b, a in zip(seats, before, after, strict=True)
        if s in changed
    ]
