"""Arena: play bots against each other and print win rates with 95% confidence intervals.

    .venv/bin/python bench/arena.py hard medium --games 400
    .venv/bin/python bench/arena.py hard medium --players 3 --games 399
    .venv/bin/python bench/arena.py expert:0.1s search:0.1s --games 400
    .venv/bin/python bench/arena.py expert greedy --strength 0.05,0.1,0.2,0.5,1 --games 100
    .venv/bin/python bench/arena.py --ladder --games 400 [--players 3]
    .venv/bin/python bench/arena.py --speed

A bot is a level or kind of ``shared.bots`` (``make_bot``), optionally with its work per
decision: ``expert:500`` (500 iterations, deterministic) or ``expert:0.1s`` (0.1 seconds,
a time budget, so it depends on the machine). Without one, a level searches its own
iteration budget and ``search`` 0.2 s; ``--budget``/``--iterations`` set a default. A
third part names a searching bot's playout policy: ``expert:200:plain`` (to measure the
policies against each other).

``--ladder`` plays every level against the one below it (and, with two players, against
``greedy``) and prints the table of docs/BOTS.md.

Two players: bot A against bot B. Three players: A against two Bs. Every deal is played
once per seating (A in each seat), so no side profits from the seat or the deal; games
run in parallel over ``--workers`` processes. Win rates are for sole wins, with Wilson
95% intervals; a shared win is a draw. A searching bot's speed is the iterations (or
playouts) it ran divided by the time it spent thinking; ``--speed`` measures it alone,
on one core, for every searching level (at its own budget unless ``--iterations``), per
second of wall time and per second of the CPU time the process got.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from dataclasses import dataclass
from multiprocessing import Pool
from typing import Any

from shared.bots import KINDS, LADDER, LEVELS, make_bot, play
from shared.bots.base import BaseBot, SearchingBot
from shared.bots.playout import POLICIES
from shared.game import Game
from shared.options import Options
from shared.scoring import score_game
from shared.view import view

NAMES = (*LEVELS, *KINDS)


@dataclass(frozen=True)
class Task:
    seed: int
    specs: tuple[str, ...]  # bot spec per seat
    recipes: bool
    memory: str
    budget: float | None
    iterations: int | None


@dataclass(frozen=True)
class Outcome:
    specs: tuple[str, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    simulations: tuple[int, ...]  # per seat (0 for bots that do not search)
    thinking: tuple[float, ...]
    searches: tuple[int, ...]


def spec(text: str) -> str:
    """Check a bot spec for argparse: ``name``, ``name:N`` or ``name:Ts``, then
    optionally ``:POLICY``."""
    name, _, rest = text.partition(":")
    work, _, policy = rest.partition(":")
    if name not in NAMES:
        raise argparse.ArgumentTypeError(f"unknown bot {name!r}: one of {', '.join(NAMES)}")
    if policy and policy not in POLICIES:
        raise argparse.ArgumentTypeError(f"unknown policy {policy!r}: one of {POLICIES}")
    try:
        parse(text, None, None)
    except ValueError:
        raise argparse.ArgumentTypeError(f"bad work bound {work!r}: N or Ts") from None
    return text


def parse(text: str, budget: float | None, iterations: int | None) -> tuple[str, dict[str, Any]]:
    """The bot name of a spec and its ``make_bot`` work bound (the spec's, else the
    arena's default)."""
    name, _, rest = text.partition(":")
    work = rest.partition(":")[0]
    if work.endswith("s"):
        return name, {"budget": float(work[:-1]), "iterations": None}
    if work:
        return name, {"budget": None, "iterations": int(work)}
    return name, {"budget": budget, "iterations": iterations}


def build(text: str, seat: int, seed: int, budget: float | None, iterations: int | None) -> BaseBot:
    name, work = parse(text, budget, iterations)
    bot = make_bot(name, seat, seed=seed, **work)
    policy = text.split(":")[2:]
    if policy and isinstance(bot, SearchingBot):
        bot.policy = policy[0]
    return bot


def _work(bot: BaseBot) -> tuple[int, float, int]:
    if isinstance(bot, SearchingBot):
        return bot.simulations, bot.thinking, bot.searches
    return 0, 0.0, 0


def run(task: Task) -> Outcome:
    """Play one game of the arena (in a worker process)."""
    options = Options(
        players=len(task.specs), recipes=task.recipes, memory=task.memory, seed=task.seed
    )
    bots = [
        build(s, seat, task.seed * 10 + seat, task.budget, task.iterations)
        for seat, s in enumerate(task.specs)
    ]
    result = score_game(play(options, bots))
    work = [_work(b) for b in bots]
    return Outcome(
        task.specs,
        tuple(s.total for s in result.scores),
        result.winners,
        tuple(w[0] for w in work),
        tuple(w[1] for w in work),
        tuple(w[2] for w in work),
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
                mine = [s for s, n in enumerate(out.specs) if n == name]
                t.games += 1
                t.score += sum(out.totals[s] for s in mine) / len(mine)
                if set(out.winners) <= set(mine):
                    t.wins += 1
                elif set(out.winners) & set(mine):
                    t.draws += 1
                t.simulations += sum(out.simulations[s] for s in mine)
                t.thinking += sum(out.thinking[s] for s in mine)
                t.searches += sum(out.searches[s] for s in mine)
            seat = out.specs.index(a)
            tally[a].margin += out.totals[seat] - max(
                x for s, x in enumerate(out.totals) if s != seat
            )
            if done % 20 == 0 or done == len(tasks):
                rate = tally[a].wins / done
                print(f"  ... {done}/{len(tasks)} games, {a} wins {rate:.0%}", file=sys.stderr)
    wall = time.perf_counter() - start
    default = (
        f"{args.iterations} iterations/move"
        if args.iterations is not None
        else "level's own budget"
        if budget is None
        else f"{budget} s/move"
    )
    print(
        f"{a} vs {'two ' if args.players == 3 else ''}{b}: {args.players} players, "
        f"{len(tasks)} games ({deals} deals x {len(seats)} seatings), work {default} "
        f"unless given, recipes {'on' if args.recipes else 'off'}, memory {args.memory}"
    )
    for name, t in tally.items():
        lo, hi = wilson(t.wins, t.games)
        side = f"{b} x2" if name == b and args.players == 3 else name  # a B won
        speed = ""
        if t.searches:
            speed = (
                f", {t.simulations / t.searches:,.0f} iterations/decision, "
                f"{t.thinking / t.searches:.3f} s/decision, "
                f"{t.simulations / t.thinking:,.0f} iterations/s"
            )
        print(
            f"  {side:>12}: wins {t.wins}/{t.games} = {t.wins / t.games:.1%} "
            f"(95% CI {lo:.1%}-{hi:.1%}), draws {t.draws}, mean score {t.score / t.games:.1f}"
            f"{speed}"
        )
    ta = tally[a]
    print(f"  {a} mean margin over the best other: {ta.margin / ta.games:+.1f}")
    print(f"  wall {wall:.0f} s on {args.workers} workers", flush=True)
    return ta


def speed(seconds: float, iterations: int | None) -> None:
    """Iterations per second of every searching level and of ``search``, from positions
    of a few real games (one process, no other work of ours): per second of the bots'
    own clock (wall time) and per second of the CPU time the process got, which on a
    shared machine is the bots' speed whatever the load."""
    positions = []
    for seed in range(3):
        game = Game.deal(Options(seed=seed))
        while not game.over:
            if game.ply % 6 == 0 and len(game.legal_actions()) > 1:
                positions.append(game.copy())
            game.apply(game.legal_actions()[0])
    print(f"search speed over {len(positions)} positions of 3 games, ~{seconds} s each bot:")
    for name in NAMES:
        if not isinstance(make_bot(name, 0), SearchingBot):
            continue
        total = 0
        spent = 0.0
        cpu = 0.0
        while spent < seconds:
            for g in positions:
                bot = build(name, g.to_move, 1, None, iterations)
                assert isinstance(bot, SearchingBot)
                seen = view(g, g.to_move)
                bot.observe((), seen)
                before = time.process_time()
                bot.decide(seen)
                cpu += time.process_time() - before
                total += bot.simulations
                spent += bot.thinking
        print(
            f"  {name:>8}: {total / spent:,.0f} iterations/s (wall), "
            f"{total / cpu:,.0f} iterations/s (CPU)"
        )


def ladder(args: argparse.Namespace) -> None:
    """Each level against the one below (two or three players) and, with two players,
    against ``greedy``; then the summary table."""
    names = [lv.name for lv in LADDER]
    pairs = list(zip(names[1:], names[:-1], strict=True))
    if args.players == 2:
        pairs += [(n, "greedy") for n in names]
    rows = [(a, b, match(args, a, b, args.budget)) for a, b in pairs]
    vs = "two of " if args.players == 3 else ""
    print(f"\nthe ladder, {args.players} players:")
    print("| match | games | A wins (95 % CI) | draws | mean margin |")
    print("|---|---|---|---|---|")
    for a, b, t in rows:
        lo, hi = wilson(t.wins, t.games)
        print(
            f"| {a} vs {vs}{b} | {t.games} | {t.wins / t.games:.1%} ({lo:.1%}-{hi:.1%}) "
            f"| {t.draws} | {t.margin / t.games:+.1f} |"
        )


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("a", type=spec, nargs="?", help="bot A")
    p.add_argument("b", type=spec, nargs="?", help="bot B (two of them with --players 3)")
    p.add_argument("--games", type=int, default=200, help="games to play (rounded up to seatings)")
    p.add_argument("--budget", type=float, default=None, help="default seconds per move")
    p.add_argument("--iterations", type=int, default=None, help="default iterations per move")
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
    p.add_argument("--ladder", action="store_true", help="every level against the one below")
    p.add_argument(
        "--speed", type=float, nargs="?", const=5.0, default=None, help="iterations/s, seconds"
    )
    args = p.parse_args(argv)
    if args.speed is not None:
        speed(args.speed, args.iterations)
        return
    if args.ladder:
        ladder(args)
        return
    if args.a is None or args.b is None:
        p.error("two bots, --ladder or --speed")
    if args.strength is None:
        match(args, args.a, args.b, args.budget)
        return
    rows = []
    for budget in [float(x) for x in args.strength.split(",")]:
        rows.append((budget, match(args, args.a, args.b, budget)))
    print(f"\nstrength of {args.a} against {args.b} by A's seconds per move:")
    print("  budget s/move  win rate (95% CI)      draws  margin  iterations/move")
    for budget, t in rows:
        lo, hi = wilson(t.wins, t.games)
        per_move = t.simulations / t.searches if t.searches else 0
        print(
            f"  {budget:>13}  {t.wins / t.games:6.1%} ({lo:.1%}-{hi:.1%})  {t.draws:>5}  "
            f"{t.margin / t.games:+6.1f}  {per_move:>15.0f}"
        )


if __name__ == "__main__":
    main()
