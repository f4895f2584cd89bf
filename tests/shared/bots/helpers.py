"""Helpers for the bot tests: random positions reached by legal play."""

from __future__ import annotations

import random

from shared.events import Event
from shared.game import Game
from shared.options import Options


def random_options(rng: random.Random) -> Options:
    """Table options drawn at random over what changes what a bot sees or may do."""
    return Options(
        players=rng.choice((2, 3)),
        recipes=rng.random() < 0.5,
        memory=rng.choice(("strict", "casual")),
        start_card=rng.choice(("no_player_colors", "not_own_color")),
        seed=rng.randrange(10**9),
    )


def random_history(options: Options, plies: int, seed: int) -> tuple[Game, list[list[Event]]]:
    """A game after up to ``plies`` random takes, and its event batches (deal first)."""
    rng = random.Random(seed)
    events: list[Event] = []
    game = Game.deal(options, events)
    batches = [events]
    while not game.over and game.ply < plies:
        events = []
        game.apply(rng.choice(game.legal_actions()), events=events)
        batches.append(events)
    return game, batches
