"""Does a bot's move wait behind analyses? A move's time with and without them running.

    .venv/bin/python bench/analysis_load.py                  # 40 moves each way
    .venv/bin/python bench/analysis_load.py --moves 100 --analysts 2

The server thinks for its bots in a ``BotPool`` (one worker process here, as on a
two-core machine) and analyses finished games in an ``Analyst`` of its own, whose
workers lower their priority to the least (``NICENESS``) at their start. This asks the
bot pool for ``--moves`` moves of the ``expert`` level (each from the same position,
a fresh bot, one after the other) three ways:

- **alone**: no analysis running;
- **beside lowered analyses**: ``--analysts`` analysis workers (by default one per
  core, so that every core is wanted) analysing games one after the other, as the
  server's would, at the server's niceness;
- **beside analyses at the moves' priority** (niceness 0): what the same work would do
  if analyses shared the bots' priority, the contrast.

Printed per way: the median, 90th percentile and largest time of a move, from asked to
answered (``BotPool.move_seconds``' measure), and how many analyses finished meanwhile.
On a loaded machine the figures move with the load; compare the ways of one run.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the checkout first

from server.bots.analyst import NICENESS, Analyst
from server.bots.pool import BotPool
from shared.bots import make_bot, play
from shared.game import Game, Take
from shared.options import Options
from shared.record import Record
from shared.view import view


def _record(seed: int) -> Record:
    """A two-player game of ``hard`` bots, as a record (what an analysis reads)."""
    options = Options(players=2, seed=seed)
    takes: list[Take] = []
    bots = [make_bot("hard", s, seed=s + seed) for s in range(2)]
    play(options, bots, on_take=lambda _seat, take: takes.append(take))
    return Record(options, Game.deal_setup(options), takes)


def _position() -> Game:
    """A game some takes in: the position every measured move is made from."""
    game = Game.deal(Options(players=2, seed=11))
    rng = random.Random(5)
    for _ in range(12):
        game.apply(rng.choice(game.legal_actions()))
    return game


async def _moves(pool: BotPool, game: Game, n: int) -> list[float]:
    seat = game.to_move
    seen = view(game, seat)
    times = []
    for i in range(n):
        bot = make_bot("expert", seat, seed=i)
        bot.observe([], seen)
        began = time.perf_counter()
        await pool.decide(bot, seen)
        times.append(time.perf_counter() - began)
    return times


async def _analysing(analyst: Analyst, records: list[Record], budget: int) -> None:
    """Analyse ``records`` one after the other, over and over (until cancelled)."""
    i = 0
    while True:
        await analyst.analyse(records[i % len(records)], budget)
        i += 1


async def _way(
    pool: BotPool,
    game: Game,
    moves: int,
    analyst: Analyst | None,
    records: list[Record],
    budget: int,
) -> tuple[list[float], int]:
    if analyst is None:
        return await _moves(pool, game, moves), 0
    runners = [
        asyncio.ensure_future(_analysing(analyst, records[k:] + records[:k], budget))
        for k in range(analyst.workers)
    ]
    await asyncio.sleep(2.0)  # the workers spawned and busy
    before = analyst.analysed
    try:
        return await _moves(pool, game, moves), analyst.analysed - before
    finally:
        for r in runners:
            r.cancel()
        await asyncio.gather(*runners, return_exceptions=True)
        analyst.shutdown()


def _line(name: str, times: list[float], done: int) -> str:
    q = statistics.quantiles(times, n=10)
    return (
        f"{name:<40} median {statistics.median(times) * 1000:7.1f} ms"
        f"   p90 {q[-1] * 1000:7.1f} ms   max {max(times) * 1000:7.1f} ms"
        f"   analyses finished {done}"
    )


async def main_async(args: argparse.Namespace) -> None:
    records = [_record(seed) for seed in (1, 2, 3)]
    game = _position()
    pool = BotPool(1)
    pool.warm()
    await _moves(pool, game, 3)  # warm: the worker spawned, its imports done
    analysts = args.analysts or os.cpu_count() or 2
    print(
        f"expert moves from one position, {args.moves} each way; bot pool of 1 worker;"
        f" {analysts} analysis workers at {args.budget} samples a decision;"
        f" {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}"
    )
    ways: list[tuple[str, Analyst | None]] = [
        ("alone", None),
        (f"beside analyses at niceness {NICENESS}", Analyst(analysts, NICENESS)),
        ("beside analyses at niceness 0", Analyst(analysts, 0)),
    ]
    for name, analyst in ways:
        times, done = await _way(pool, game, args.moves, analyst, records, args.budget)
        print(_line(name, times, done), flush=True)
    pool.shutdown()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--moves", type=int, default=40, help="moves measured each way")
    parser.add_argument("--budget", type=int, default=300, help="analysis samples a decision")
    parser.add_argument("--analysts", type=int, default=0, help="analysis workers (0: cores)")
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
