"""Engine speed: complete random two-player games per second on one core.

Prints figures only (median of several timed runs), never fails: compare numbers
measured in one run on one machine. Usage: ``python bench/engine.py [--runs 5] [--seconds 2]``.

Two rates per run: by the wall clock, and by the CPU time the process got
(``time.process_time``). On an idle core they agree; on a machine shared with other work
the wall-clock rate falls with the load and the CPU rate is the engine's own speed.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from shared.events import Event, PassedCorner, Took
from shared.game import Game
from shared.options import Options


def play_random(seed: int) -> Game:
    """One complete game: the deal of ``seed``, then uniformly random legal takes."""
    rng = random.Random(seed)
    game = Game.deal(Options(seed=seed))
    while not game.over:
        actions = game.legal_actions()
        game.apply(actions[rng.randrange(len(actions))])
    return game


def games_per_second(seconds: float, first_seed: int) -> tuple[float, float]:
    """Complete random games played in ``seconds`` of wall-clock time, per second of
    wall-clock time and per second of the CPU time the process got."""
    seed = first_seed
    start = time.perf_counter()
    cpu = time.process_time()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        play_random(seed)
        seed += 1
    games = seed - first_seed
    return games / (time.perf_counter() - start), games / (time.process_time() - cpu)


def turns_per_game(games: int) -> tuple[float, float]:
    """Mean takes and mean corner passes per random game (counted from events)."""
    takes = passes = 0
    for seed in range(games):
        rng = random.Random(seed)
        events: list[Event] = []
        game = Game.deal(Options(seed=seed), events)
        while not game.over:
            actions = game.legal_actions()
            game.apply(actions[rng.randrange(len(actions))], events=events)
        takes += sum(isinstance(e, Took) for e in events)
        passes += sum(isinstance(e, PassedCorner) for e in events)
    return takes / games, passes / games


def copy_microseconds(repeat: int = 20_000) -> float:
    """Time of ``Game.copy`` on a mid-game position, in microseconds."""
    game = Game.deal(Options(seed=1))
    rng = random.Random(1)
    for _ in range(20):
        actions = game.legal_actions()
        game.apply(actions[rng.randrange(len(actions))])
    start = time.perf_counter()
    for _ in range(repeat):
        game.copy()
    return (time.perf_counter() - start) / repeat * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=2.0)
    args = parser.parse_args()
    runs = [games_per_second(args.seconds, 1_000_000 * (i + 1)) for i in range(args.runs)]
    takes, passes = turns_per_game(500)
    for label, rates in (("wall clock", [r[0] for r in runs]), ("CPU time", [r[1] for r in runs])):
        print(
            f"games/s (2 players, random, one core, {label}): "
            f"{statistics.median(rates):,.0f} median"
        )
        print(f"  runs: {', '.join(f'{r:,.0f}' for r in rates)}")
    print(f"takes per game: {takes:.1f}   corner passes per game: {passes:.1f}")
    print(f"copy(): {statistics.median(copy_microseconds() for _ in range(5)):.2f} us")


if __name__ == "__main__":
    main()
