"""The analysis of a game (``shared.analysis``): what it costs, and what its marks mean.

    .venv/bin/python bench/analysis.py                      # CPU time per game, one core
    .venv/bin/python bench/analysis.py --games 5 --budget 300
    .venv/bin/python bench/analysis.py --costs --games 6    # costs of decisions by level

Time (the default): games of two and three players, without and with recipes, played
by ``hard`` bots from seeds 1 to ``--games``, each analysed whole (every seat) at
``--budget`` samples a decision in this one process; the medians over the games of the
CPU time per game and per decision (the process's own CPU time, so a busy machine slows
the wall clock, not the figure), and the search iterations a CPU second.

``--costs``: two-player games (recipes off) in which both seats play one level, for
every level of ``--levels``, each analysed whole; per level the distribution of the
cost of a decision (in points of expected margin) and how many would be marked at the
thresholds of ``shared.analysis.MARKS``. docs/BOTS.md tells how the thresholds were
read off it. Games run over ``--workers`` processes.
"""

from __future__ import annotations

import argparse
import statistics
import time
from dataclasses import dataclass
from multiprocessing import Pool

from shared.analysis import DEFAULT_BUDGET, MARKS, Analysis, analyse
from shared.bots import make_bot, play
from shared.game import Game, Take
from shared.options import Options
from shared.record import Record

CONFIGS = ((2, False), (2, True), (3, False), (3, True))
LEVELS = ("expert", "hard", "medium", "easy", "beginner", "random")


def bot_game(options: Options, level: str) -> Record:
    """A game of ``level`` in every seat, as a record."""
    takes: list[Take] = []
    bots = [make_bot(level, s, seed=s + 1) for s in range(options.players)]
    play(options, bots, on_take=lambda _seat, take: takes.append(take))
    return Record(options, Game.deal_setup(options), takes)


@dataclass(frozen=True)
class Timed:
    cpu: float
    wall: float
    decisions: int
    iterations: int  # samples x legal takes, summed over the decisions


def timed(record: Record, budget: int) -> Timed:
    wall, cpu = time.perf_counter(), time.process_time()
    analysis = analyse(record, budget=budget)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    work = sum(budget * len(d.takes) for d in analysis.decisions)
    return Timed(cpu, wall, len(analysis.decisions), work)


def speed(args: argparse.Namespace) -> None:
    print(f"analysis at {args.budget} samples a decision, games of hard bots, one process")
    for players, recipes in CONFIGS:
        runs = []
        for seed in range(1, args.games + 1):
            options = Options(players=players, recipes=recipes, seed=seed)
            runs.append(timed(bot_game(options, "hard"), args.budget))
        cpu = statistics.median(r.cpu for r in runs)
        per = statistics.median(r.cpu / r.decisions for r in runs)
        rate = sum(r.iterations for r in runs) / sum(r.cpu for r in runs)
        name = f"{players} players, recipes {'on' if recipes else 'off'}"
        print(
            f"{name:<26} {len(runs)} games: median {cpu:5.1f} s CPU a game"
            f" ({statistics.median(r.wall for r in runs):5.1f} s wall),"
            f" {statistics.median(r.decisions for r in runs):.0f} decisions,"
            f" {per:.3f} s a decision, {rate:,.0f} iterations/s"
        )


def _costs(task: tuple[str, int, int]) -> list[tuple[float, float]]:
    level, seed, budget = task
    analysis: Analysis = analyse(bot_game(Options(seed=seed), level), budget=budget)
    return [(d.cost, d.noise) for d in analysis.decisions]


def costs(args: argparse.Namespace) -> None:
    tasks = [(lv, s, args.budget) for lv in args.levels for s in range(1, args.games + 1)]
    with Pool(args.workers) as pool:
        done = pool.map(_costs, tasks, chunksize=1)
    marks = ", ".join(f"{name} >= {least:g}" for name, least in reversed(MARKS))
    print(f"cost of a decision (points), {args.budget} samples a decision; marks: {marks}")
    print(
        f"{'level':<9} {'decisions':>9} {'mean':>5} {'p50':>5} {'p75':>5} {'p90':>5}"
        f" {'p95':>5} {'p99':>5} {'noise':>5}  "
        + " ".join(f"{name + '+':>11}" for name, _ in reversed(MARKS))
    )
    for level in args.levels:
        pairs = [p for t, got in zip(tasks, done, strict=True) if t[0] == level for p in got]
        cost = sorted(c for c, _ in pairs)
        cut = statistics.quantiles(cost, n=100, method="inclusive")
        share = [sum(c >= least for c in cost) / len(cost) for _, least in reversed(MARKS)]
        print(
            f"{level:<9} {len(cost):>9} {statistics.mean(cost):5.2f} {cut[49]:5.2f}"
            f" {cut[74]:5.2f} {cut[89]:5.2f} {cut[94]:5.2f} {cut[98]:5.2f}"
            f" {statistics.median(n for _, n in pairs):5.2f}  "
            + " ".join(f"{s:>10.1%} " for s in share)
        )


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--games", type=int, default=3, help="games per configuration or level")
    p.add_argument("--budget", type=int, default=DEFAULT_BUDGET, help="samples a decision")
    p.add_argument("--costs", action="store_true", help="costs of decisions by level")
    p.add_argument(
        "--levels", type=lambda s: s.split(","), default=list(LEVELS), help="for --costs"
    )
    p.add_argument("--workers", type=int, default=2, help="processes, for --costs")
    args = p.parse_args(argv)
    if args.costs:
        costs(args)
    else:
        speed(args)


if __name__ == "__main__":
    main()
