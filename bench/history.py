"""Each history request's cost with 100 to 100,000 games in the store: flat.

A player ("star") plays every game of a fresh SQLite store, against 50 others in turn
(one game in three at a private table). The rows are written in bulk, as a server
stores them (tables, seats, games with results, player links, the history rows and
counters of migration 12). Then, ``--requests`` times each, the median of:

- ``first``: ``list_games`` of the star, first page (20), as another player sees it;
- ``deep``: a page from the middle of the history (its cursor);
- ``empty``: a page at a cursor past every game (the old ``g<huge offset>``);
- ``profile``: ``show_profile`` (the counters, no count of games);
- ``seats``: what ``sign_in`` reads of the player's seats (the tables in memory).

    python bench/history.py                    # 100, 1,000, 10,000 and 100,000 games
    python bench/history.py --sizes 100 1000
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.leaderboard import _median_ms
from bench.stored import result
from server.players.account import Account
from server.players.service import DEFAULT_PAGE, Players, games_cursor
from server.store import open_store

OTHERS = 50


async def _schema(path: str) -> None:
    store = open_store(path)
    await store.start()
    await store.close()


def _fill(path: str, games: int) -> None:
    """``games`` finished games of the star, in bulk."""
    rng = random.Random(games)
    con = sqlite3.connect(path)
    players = [("star", "star", "Star")] + [
        (f"o{i}", f"other{i}", f"Other {i}") for i in range(OTHERS)
    ]
    con.executemany(
        "INSERT INTO players (id, name_key, name, created, rated_games) VALUES (?, ?, ?, 1.0, 0)",
        players,
    )
    tables, seats, rows, links, history = [], [], [], [], []
    counts = {p[0]: [0, 0, 0] for p in players}  # games, wins, public
    shared: dict[tuple[str, str], int] = {}  # private games two players played
    for g in range(games):
        tid, other = f"t{g:07d}", f"o{g % OTHERS}"
        private = int(g % 3 == 0)
        finished = 1.7e9 + g // 2  # two games a second: ties of time too
        places = [1, 2] if rng.random() < 0.5 else [2, 1]
        if private:
            for pair in (("star", other), (other, "star")):
                shared[pair] = shared.get(pair, 0) + 1
        tables.append((tid, f"table {g}", "{}", private, finished - 600, "finished", finished))
        rows.append((tid, "{}", finished - 600, finished, json.dumps(result(places))))
        for seat, pid in enumerate(("star", other)):
            seats.append((tid, seat, pid))
            links.append((tid, seat, pid))
            history.append((pid, tid, seat, round(finished * 1000), private))
            c = counts[pid]
            c[0] += 1
            c[1] += places[seat] == 1
            c[2] += 1 - private
    con.executemany(
        "INSERT INTO tables (id, name, options, private, created, state, finished)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        tables,
    )
    con.executemany("INSERT INTO seats (table_id, seat, name) VALUES (?, ?, ?)", seats)
    con.executemany(
        "INSERT INTO games (table_id, record, started, finished, result) VALUES (?, ?, ?, ?, ?)",
        rows,
    )
    con.executemany("INSERT INTO player_seats (table_id, seat, player_id) VALUES (?, ?, ?)", links)
    con.executemany(
        "INSERT INTO history (player_id, table_id, seat, finished, private) VALUES (?, ?, ?, ?, ?)",
        history,
    )
    con.executemany(
        "UPDATE players SET games = ?, wins = ?, public_games = ? WHERE id = ?",
        [(*c, pid) for pid, c in counts.items()],
    )
    con.executemany(
        "INSERT INTO shared_private (player_id, other_id, games) VALUES (?, ?, ?)",
        [(a, b, n) for (a, b), n in shared.items()],
    )
    con.commit()
    con.execute("ANALYZE")
    con.close()


async def run(games: int, requests: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "history.db")
        await _schema(path)
        _fill(path, games)
        store = open_store(path)
        await store.start()
        try:
            service = Players(store)
            star, viewer = store.player_by_id("star"), store.player_by_id("o1")
            assert star is not None and viewer is not None
            everything = service.games(star, viewer)
            middle = everything[len(everything) // 2].place
            account = Account(service)
            account.player = star
            lobby: Any = SimpleNamespace(tables={})

            def page(cursor: str | None) -> Callable[[], Any]:
                return lambda: service.games_page(star, cursor, DEFAULT_PAGE, viewer)

            first = page(None)()
            if [g.table for g in first.games] != [
                g.info.table_id for g in everything[:DEFAULT_PAGE]
            ]:
                raise SystemExit("FAIL: the first page is not the simple path's")

            out = {
                "first": _median_ms(page(None), requests),
                "deep": _median_ms(page(games_cursor(middle)), requests),
                "empty": _median_ms(page("g" + "0" * 14 + "1"), requests),
                "seats": _median_ms(lambda: account.seats(lobby), requests),
            }
            times = []
            for _ in range(requests):
                t0 = time.perf_counter()
                await service.info(star)
                times.append(time.perf_counter() - t0)
            out["profile"] = statistics.median(times) * 1000
            return out
        finally:
            await store.close()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[100, 1_000, 10_000, 100_000])
    ap.add_argument("--requests", type=int, default=51, help="requests of each kind")
    args = ap.parse_args()
    heads = ("first", "deep", "empty", "profile", "seats")
    print(f"{'games':>8} " + " ".join(f"{h:>8}" for h in heads) + "  (median ms)")
    for n in args.sizes:
        r = asyncio.run(run(n, args.requests))
        print(
            f"{n:>8,} {r['first']:>8.3f} {r['deep']:>8.3f} {r['empty']:>8.3f}"
            f" {r['profile']:>8.3f} {r['seats']:>8.3f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
