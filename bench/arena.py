"""Arena: play bots against each other and print win rates with 95% confidence intervals.

    .venv/bin/python bench/arena.py search greedy --games 200 --budget 0.2
    .venv/bin/python bench/arena.py search greedy --players 3 --games 150
    .venv/bin/python bench/arena.py search greedy --strength 0.05,0.1,0.2 --games 100

Two players: bot A against bot B. Three players: A against two Bs. Every deal is played
once per seating (A in each seat), so no side profits from the seat or the deal; games
run in parallel over ``--workers`` processes. Win rates are for sole wins, with Wilson
95% intervals; a shared win is a draw. The search bot's speed is the number of playouts
it ran divided by the time it spent thinking.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from dataclasses import dataclass
from multiprocessing import Pool

from shared.bots import KINDS, LEVELS, SearchBot, make_bot, play
from shared.options import Options
from shared.scoring import score_game


@dataclass(frozen=True)
class Task:
    seed: int
    names: tuple[str, ...]  # bot name per seat
    recipes: bool
    memory: str
    budget: float | None
    iterations: int | None


@dataclass(frozen=True)
class Outcome:
    names: tuple[str, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    simulations: int
    thinking: float
    searches: int


def run(task: Task) -> Outcome:
    """Play one game of the arena (in a worker process)."""
    options = Options(
        players=len(task.names), recipes=task.recipes, memory=task.memory, seed=task.seed
    )
    bots = [
        make_bot(
            name, seat, seed=task.seed * 10 + seat, budget=task.budget, iterations=task.iterations
        )
        for seat, name in enumerate(task.names)
    ]
    result = score_game(play(options, bots))
    searchers = [b for b in bots if isinstance(b, SearchBot)]
    return Outcome(
        task.names,
        tuple(s.total for s in result.scores),
        result.winners,
        sum(b.simulations for b in searchers),
        sum(b.thinking for b in searchers),
        sum(b.searches for b in searchers),
    )


def seatings(a: str, b: str, players: int) -> list[tuple[str, ...]]:
    """A in every seat, Bs in the others."""
    return [tuple(a if s == k else b for s in range(players)) for k in range(players)]


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for ``k`` successes in ``n`` trials."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    mid = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, mid - half), min(1.0, mid + half)


@dataclass
class Tally:
    games: int = 0
    wins: int = 0
    draws: int = 0
    score: float = 0.0
    margin: int = 0
    simulations: int = 0
    thinking: float = 0.0
    searches: int = 0


def match(args: argparse.Namespace, a: str, b: str, budget: float | None) -> Tally:
    """Play the arena's games between ``a`` and ``b``, print the figures, return A's tally."""
    seats = seatings(a, b, args.players)
    deals = max(1, math.ceil(args.games / len(seats)))
    tasks = [
        Task(args.seed + i, names, args.recipes, args.memory, budget, args.iterations)
        for i in range(deals)
        for names in seats
    ]
    tally = {a: Tally(), b: Tally()} if a != b else {a: Tally()}
    start = time.perf_counter()
    with Pool(args.workers) as pool:
        for done, out in enumerate(pool.imap_unordered(run, tasks, chunksize=1), 1):
            for name, t in tally.items():
                mine = [s for s, n in enumerate(out.names) if n == name]
                t.games += 1
                t.score += sum(out.totals[s] for s in mine) / len(mine)
                if set(out.winners) <= set(mine):
                    t.wins += 1
                elif set(out.winners) & set(mine):
                    t.draws += 1
            seat = out.names.index(a)
            t = tally[a]
            t.margin += out.totals[seat] - max(x for s, x in enumerate(out.totals) if s != seat)
            tally[a].simulations += out.simulations
            tally[a].thinking += out.thinking
            tally[a].searches += out.searches
            if done % 20 == 0 or done == len(tasks):
                rate = tally[a].wins / done
                print(f"  ... {done}/{len(tasks)} games, {a} wins {rate:.0%}", file=sys.stderr)
    wall = time.perf_counter() - start
    budget_text = (
        f"{args.iterations} playouts/move"
        if args.iterations is not None
        else "level's time/move"
        if budget is None
        else f"{budget} s/move"
    )
    print(
        f"{a} vs {'two ' if args.players == 3 else ''}{b}: {args.players} players, "
        f"{len(tasks)} games ({deals} deals x {len(seats)} seatings), search {budget_text}, "
        f"recipes {'on' if args.recipes else 'off'}, memory {args.memory}"
    )
    for name, t in tally.items():
        lo, hi = wilson(t.wins, t.games)
        side = f"{b} x2" if name == b and args.players == 3 else name  # a B won
        print(
            f"  {side:>8}: wins {t.wins}/{t.games} = {t.wins / t.games:.1%} "
            f"(95% CI {lo:.1%}-{hi:.1%}), draws {t.draws}, mean score {t.score / t.games:.1f}"
        )
    ta = tally[a]
    print(f"  {a} mean margin over the best other: {ta.margin / ta.games:+.1f}")
    if ta.thinking:
        print(f"  search playouts: {ta.simulations / ta.thinking:,.0f} simulated games/s")
    print(f"  wall {wall:.0f} s on {args.workers} workers", flush=True)
    return ta


def main(argv: list[str] | None = None) -> None:
    names = [*KINDS, *LEVELS]
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("a", choices=names, help="bot A")
    p.add_argument("b", choices=names, help="bot B (two of them with --players 3)")
    p.add_argument("--games", type=int, default=200, help="games to play (rounded up to seatings)")
    p.add_argument("--budget", type=float, default=None, help="search: seconds per move")
    p.add_argument("--iterations", type=int, default=None, help="search: playouts per move")
    p.add_argument("--players", type=int, choices=(2, 3), default=2)
    p.add_argument("--recipes", action="store_true", help="play the recipe variant")
    p.add_argument("--memory", choices=("strict", "casual"), default="strict")
    p.add_argument("--workers", type=int, default=2, help="processes (default: 2)")
    p.add_argument("--seed", type=int, default=1, help="first deal's seed")
    p.add_argument(
        "--strength",
        default=None,
        help="comma-separated budgets: A's strength against B at each (e.g. 0.05,0.1,0.2)",
    )
    args = p.parse_args(argv)
    if args.strength is None:
        match(args, args.a, args.b, args.budget)
        return
    rows = []
    for budget in [float(x) for x in args.strength.split(",")]:
        t = match(args, args.a, args.b, budget)
        rows.append((budget, t))
    print(f"\nstrength of {args.a} against {args.b} by budget:")
    print("  budget s/move  win rate (95% CI)      draws  margin  playouts/move")
    for budget, t in rows:
        lo, hi = wilson(t.wins, t.games)
        per_move = t.simulations / t.searches if t.searches else 0
        print(
            f"  {budget:>13}  {t.wins / t.games:6.1%} ({lo:.1%}-{hi:.1%})  {t.draws:>5}  "
            f"{t.margin / t.games:+6.1f}  {per_move:>13.0f}"
        )


if __name__ == "__main__":
    main()
