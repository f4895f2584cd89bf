"""Playing a game between bots, through views and public events only.

``play`` is the reference host: the ``Game`` stays here, and each bot gets only
``view(game, seat)`` and the public events, exactly as the server gives them to a person.
The arena and the tests use it; a server runs the same loop over its tables.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..events import Event
from ..game import Game, Take
from ..options import Options
from ..view import View, view
from .base import Bot

__all__ = ["play"]


def play(
    options: Options,
    bots: Sequence[Bot],
    *,
    game: Game | None = None,
    on_take: Callable[[int, Take], None] | None = None,
) -> Game:
    """Play a game to the end, ``bots[s]`` playing seat ``s``: the deal of ``options``
    (or ``game``, an explicit start). Returns the finished game. ``on_take(seat, take)``
    is called after each take (for records or logs)."""
    events: list[Event] = []
    if game is None:
        game = Game.deal(options, events)
    _tell(game, bots, events)
    while not game.over:
        seat = game.to_move
        take = bots[seat].decide(view(game, seat))
        events = []
        game.apply(take, seat=seat, events=events)
        if on_take is not None:
            on_take(seat, take)
        _tell(game, bots, events)
    return game


def _tell(game: Game, bots: Sequence[Bot], events: list[Event]) -> None:
    for seat, bot in enumerate(bots):
        seen: View = view(game, seat)
        bot.observe(tuple(events), seen)
