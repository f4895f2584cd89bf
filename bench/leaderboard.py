"""The leaderboard's page time with 10,000 rated players: the whole board sorted per
request (before: what ``show_leaderboard`` once did, ``Players.leaderboard``) against
the indexed keyset page (after: ``Players.leaderboard_page``), on a real store.

Each player gets rated games by the store's own path (``bench.stored.
stored_game``: table, seats linked, rated, finished; the ratings follow). Then the first
page and a deep one (the middle of the board) are asked for ``--requests`` times each
way; prints the medians and the ratio, and checks both ways give the same page.

    python bench/leaderboard.py                       # 10,000 players, SQLite
    python bench/leaderboard.py --store postgresql://kk@localhost/kkbench
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.stored import registered, stored_game
from server.players.service import DEFAULT_PAGE, Players
from server.store import open_store


def _median_ms(fn: Callable[[], Any], n: int) -> float:
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000


async def run(url: str, players: int, requests: int, concurrent: int) -> dict[str, float]:
    store = open_store(url)
    await store.start()
    try:
        service = Players(store)
        ids = await registered(store, players, "leader")
        sem = asyncio.Semaphore(concurrent)

        async def one(k: int) -> None:  # every player plays; one in three twice
            seated = [ids[k], ids[(k + 1) % players]]
            async with sem:
                await stored_game(store, seated, [1 + k % 2, 2 - k % 2])

        t0 = time.perf_counter()
        await asyncio.gather(*(one(k) for k in range(0, players, 2)))
        await asyncio.gather(*(one(k) for k in range(1, players, 6)))
        filled = time.perf_counter() - t0
        rated = store.rated_count()
        deep = rated // 2
        out: dict[str, float] = {"players": rated, "fill_s": filled}
        cursors: dict[int, str | None] = {0: None}
        cursor = None
        while len(cursors) < 2:  # the cursor of the middle page, paged to as a client does
            page = service.leaderboard_page(cursor, DEFAULT_PAGE)
            cursor = page.next
            if cursor is None:  # the whole board came before the middle (a tiny board)
                break
            if int(cursor[22:]) >= deep:
                cursors[int(cursor[22:])] = cursor
        deep = max(cursors)
        for name, start in (("first", 0), ("deep", deep)):
            cursor = cursors[start]

            def before(start: int = start) -> list[Any]:
                return service.leaderboard()[start : start + DEFAULT_PAGE]

            def after(cursor: str | None = cursor) -> list[Any]:
                return list(service.leaderboard_page(cursor, DEFAULT_PAGE).entries)

            if before() != after():
                raise SystemExit(f"FAIL: the {name} page differs between the two ways")
            out[f"{name}_before_ms"] = _median_ms(before, requests)
            out[f"{name}_after_ms"] = _median_ms(after, requests)
        return out
    finally:
        await store.close()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=10_000)
    ap.add_argument("--requests", type=int, default=21, help="pages asked for each way")
    ap.add_argument("--concurrent", type=int, default=50)
    ap.add_argument("--store", help="a PostgreSQL URL (default: a fresh SQLite file)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = args.store or str(Path(tmp) / "leaderboard.db")
        r = asyncio.run(run(url, args.players, args.requests, args.concurrent))
    print(f"{r['players']:.0f} rated players (stored in {r['fill_s']:.1f} s)")
    for name in ("first", "deep"):
        b, a = r[f"{name}_before_ms"], r[f"{name}_after_ms"]
        print(
            f"{name} page of {DEFAULT_PAGE}: median {b:.2f} ms sorting the whole board,"
            f" {a:.2f} ms paged by the index ({b / a:.0f}x); pages identical"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
