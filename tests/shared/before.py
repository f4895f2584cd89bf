"""What the engine and the bots did before they were made fast, recomputed on demand.

Why: the speed work on ``shared/`` (issue 25) must not change a single decision or
event. ``compute()`` plays a fixed set of seeded games, illegal takes and bot decisions
and reduces each to a digest; ``data/before.json`` holds the digests the code produced
*before* the optimisation, and ``test_same_as_before.py`` holds the code to them.
Regenerate only for an intended change of behaviour:
``python -m tests.shared.before > tests/shared/data/before.json``.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

from shared.bots import make_bot, play
from shared.bots.base import SearchingBot
from shared.bots.ismcts import IsmctsBot
from shared.errors import IllegalMove
from shared.events import Event
from shared.game import Game, Take
from shared.options import Options
from shared.scoring import score_game
from shared.view import view

from .bots.helpers import random_history, random_options


def _digest(obj: Any) -> str:
    text = json.dumps(obj, sort_keys=True, separators=(",", ":"), default=repr)
    return hashlib.sha256(text.encode()).hexdigest()[:20]


def _take(t: Take) -> list[Any]:
    return [t.card, t.special, None if t.targets is None else list(t.targets), t.keep]


def _state(g: Game) -> dict[str, Any]:
    return {
        "setup": g.position().to_dict(),
        "out": sorted(g.out),
        "turn_in_row": g.turn_in_row,
        "over": g.over,
        "ended_by": g.ended_by,
        "ply": g.ply,
    }


def _wrong_takes(game: Game, rng: random.Random) -> list[tuple[Take, int | None]]:
    """A few illegal (or oddly written) takes for this position, with the seat to send."""
    legal = game.legal_actions()
    some = rng.choice(legal)
    other = (game.to_move + 1) % game.players
    grid_cards = [c for c in game.grid if c >= 0]
    stray = Take(
        game.grid_ids()[rng.randrange(6)][rng.randrange(1, 5)] or "moss-2"
        if grid_cards
        else "moss-2"
    )
    return [
        (some, other),
        (Take("no-such-card"), None),
        (stray, None),
        (Take(some.card, True, (game.to_move,)), None),
        (Take(some.card, True, (other, other)), None),
        (Take(some.card, True, (7,)), None),
        (Take(some.card, True, ()), None),
        (Take(some.card, False, None, False), None),
        (Take(some.card, special=1), None),  # type: ignore[arg-type]
    ]


def engine_game(options: Options, seed: int) -> str:
    """A random game with events, every legal list, and illegal takes tried at each ply
    (their error codes, and that the state stayed as it was)."""
    rng = random.Random(seed)
    events: list[Event] = []
    game = Game.deal(options, events)
    trace: list[Any] = [[e.to_dict() for e in events], _state(game)]
    while not game.over:
        legal = game.legal_actions()
        before = _state(game)
        for take, seat in _wrong_takes(game, rng):
            try:
                trial = game.copy()
                trial.apply(take, seat=seat)
                trace.append(["ok", _take(take), _state(trial)])
            except IllegalMove as e:
                trace.append(["refused", _take(take), e.code])
            assert _state(game) == before
        take = legal[rng.randrange(len(legal))]
        events = []
        game.apply(take, seat=game.to_move, events=events)
        trace.append([[_take(t) for t in legal], _take(take), [e.to_dict() for e in events]])
        trace.append(_state(game))
    trace.append([s.to_dict() for s in score_game(game).scores])
    return _digest(trace)


def decision(name: str, options: Options, plies: int, seed: int, iterations: int) -> str:
    """One searching bot's decision after a random history it was told in full."""
    game, batches = random_history(options, plies, seed)
    if game.over:
        return "over"
    seat = game.to_move
    bot = make_bot(name, seat, seed=seed, iterations=iterations)
    for batch in batches:
        bot.observe(batch)
    seen = view(game, seat)
    out: list[Any] = []
    if isinstance(bot, IsmctsBot) and len(game.legal_actions()) > 1:
        bot.memory.sync(seen)
        root = bot.search(seen, 0.0)
        out.append(
            sorted(
                [_take(t), n.visits, n.avail, round(n.total, 9)] for t, n in root.children.items()
            )
        )
        bot = make_bot(name, seat, seed=seed, iterations=iterations)
        for batch in batches:
            bot.observe(batch)
    take = bot.decide(seen)
    assert isinstance(bot, SearchingBot)
    out += [_take(take), bot.simulations]
    return _digest(out)


def sampled(name: str, options: Options, plies: int, seed: int) -> str:
    """Determinizations a bot's memory draws for a position."""
    game, batches = random_history(options, plies, seed)
    if game.over:
        return "over"
    seat = game.to_move
    bot = make_bot(name, seat, seed=seed)
    for batch in batches:
        bot.observe(batch)
    seen = view(game, seat)
    bot.memory.sync(seen)
    rng = random.Random(seed)
    return _digest([_state(bot.memory.sample(seen, rng)) for _ in range(5)])


def bot_game(names: tuple[str, ...], options: Options, iterations: int) -> str:
    """A whole game between bots, every take."""
    takes: list[Any] = []
    bots = [
        make_bot(n, s, seed=options.seed or 0, iterations=iterations) for s, n in enumerate(names)
    ]
    game = play(options, bots, on_take=lambda s, t: takes.append([s, _take(t)]))
    return _digest([takes, _state(game)])


def compute() -> dict[str, str]:
    """Every digest, by a name that says what was played."""
    out: dict[str, str] = {}
    rng = random.Random(2025)
    for i in range(40):
        options = random_options(rng)
        out[f"engine/{i}/{options.players}p"] = engine_game(options, i)
    rng = random.Random(25)
    for i in range(30):
        options = random_options(rng)
        plies = rng.randrange(0, 45)
        for name in ("hard", "expert", "search"):
            out[f"decision/{i}/{name}"] = decision(name, options, plies, 100 + i, 40)
        for name in ("hard", "expert"):
            out[f"sample/{i}/{name}"] = sampled(name, options, plies, 200 + i)
    rng = random.Random(7)
    matches = [("expert", "hard"), ("search", "greedy"), ("hard", "medium", "easy")]
    for i, names in enumerate(matches):
        options = Options(
            players=len(names), recipes=i != 1, memory=("strict", "casual")[i % 2], seed=300 + i
        )
        out[f"game/{i}/{'-'.join(names)}"] = bot_game(names, options, 12)
    return out


if __name__ == "__main__":
    print(json.dumps(compute(), indent=1, sort_keys=True))
