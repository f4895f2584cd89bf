"""Ratings over months of play: 10,000 rated games through the real store and rating
path, then every rating recomputed from the store; the leaderboard must come out the
same, figure for figure.

Each game is stored as a server stores one (table, seats linked to registered players,
rated, started, finished with a result of random places, 2 or 3 players, some of them
abandoned), and its ratings follow by the server's own path (``Store.finish``, then the
players' listener). Games run CONCURRENT at a time, so the store's group commit shares
commits as under a server's load. Prints games per second of the play, the recompute's
time, and the medians over --repeat runs.

    python bench/ratings.py                     # 10,000 games, 200 players, SQLite
    python bench/ratings.py --games 2000 --store postgresql://kk@localhost/kkbench
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.stored import registered, stored_game
from server.players.service import Players
from server.store import open_store


def _places(rng: random.Random, n: int) -> list[int]:
    """Competition places of ``n`` seats, ties now and then."""
    scores = [rng.randint(0, 6) for _ in range(n)]
    return [1 + sum(o > s for o in scores) for s in scores]


async def run(url: str, games: int, players: int, concurrent: int, seed: int) -> dict[str, float]:
    store = open_store(url)
    await store.start()
    try:
        service = Players(store)
        ids = await registered(store, players)
        rng = random.Random(seed)
        plan = []
        for _ in range(games):
            n = rng.choice([2, 3])
            seated = rng.sample(ids, n)
            ending = (
                "abandoned"
                if rng.random() < 0.03
                else rng.choice(["played_out", "played_out", "resigned", "claimed", "timed_out"])
            )
            plan.append((seated, _places(rng, n), ending))
        sem = asyncio.Semaphore(concurrent)

        async def one(game: tuple[list[str], list[int], str]) -> None:
            async with sem:
                await stored_game(store, game[0], game[1], ending=game[2])

        t0 = time.perf_counter()
        await asyncio.gather(*(one(g) for g in plan))
        played = time.perf_counter() - t0
        board = service.leaderboard()
        t1 = time.perf_counter()
        counted = await service.recompute()
        recomputed = time.perf_counter() - t1
        again = service.leaderboard()
        if again != board:
            raise SystemExit("FAIL: the recomputed leaderboard differs from the played one")
        expected = sum(1 for g in plan if g[2] != "abandoned")
        if counted != expected:
            raise SystemExit(f"FAIL: {counted} games counted, {expected} expected")
        return {
            "games_per_s": games / played,
            "recompute_s": recomputed,
            "counted": counted,
            "rated_players": len(board),
        }
    finally:
        await store.close()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--players", type=int, default=200)
    ap.add_argument("--concurrent", type=int, default=50)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--store", help="a PostgreSQL URL (default: a fresh SQLite file each run)")
    args = ap.parse_args()
    runs = []
    for i in range(args.repeat):
        with tempfile.TemporaryDirectory() as tmp:
            url = args.store or str(Path(tmp) / "ratings.db")
            r = asyncio.run(run(url, args.games, args.players, args.concurrent, 1000 + i))
        runs.append(r)
        print(
            f"run {i + 1}: {args.games} rated games at {r['games_per_s']:.0f}/s,"
            f" {r['counted']:.0f} counted, {r['rated_players']:.0f} rated players;"
            f" recompute {r['recompute_s']:.2f} s; leaderboard identical"
        )
    print(
        f"median over {len(runs)}: {statistics.median(r['games_per_s'] for r in runs):.0f}"
        f" games/s, recompute {statistics.median(r['recompute_s'] for r in runs):.2f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
