"""What ``GET /metrics`` costs: a scrape's time on the event loop, and the figures a
take records on its way.

A real ``Server`` (port 0, a SQLite store in a temporary folder, the metrics on) holds N
tables made through its lobby (each a stored table waiting for players). Each round
scrapes it as Prometheus would: ``generate_latest`` over the server's registry, the
whole text (the custom collector reads every table, session and figure), on the event
loop, which is what every client waits behind during a scrape. Printed per N: a scrape's
wall-clock time (median, max) and its size. Then the cost a take pays for the figures
(``Timings.observe`` with two ``perf_counter`` calls) against a take's measured time
(``bench/take.py``: about a millisecond): the median of many calls.

Prints figures only, never fails. Usage: ``python bench/metrics.py [--rounds 20]
[--tables 100,1000,10000]``. The machine is shared: compare figures from one run.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the checkout first

from prometheus_client import generate_latest

from server.app import Server, ServerConfig
from server.figures import Timings
from server.lobby import NO_QUOTAS
from server.store import open_store
from shared.options import Options


async def scrapes(tables: int, rounds: int) -> tuple[list[float], int]:
    with tempfile.TemporaryDirectory() as folder:
        config = ServerConfig(
            port=0, metrics=True, quotas=NO_QUOTAS, max_tables=tables + 1, bot_workers=0
        )
        server = Server(config, open_store(Path(folder) / "kk.db"))
        await server.start()
        try:
            for i in range(tables):
                await server.lobby.create(f"t{i}", Options(players=2 + i % 2))
            assert server.metrics is not None
            registry = server.metrics.registry
            times, size = [], 0
            for _ in range(rounds):
                started = time.perf_counter()
                size = len(generate_latest(registry))
                times.append(time.perf_counter() - started)
            return times, size
        finally:
            await server.stop()


def take_cost(calls: int = 200_000) -> float:
    """Seconds one take spends on its figure (median of five runs of ``calls``)."""
    runs = []
    t = Timings()
    for _ in range(5):
        started = time.perf_counter()
        for _ in range(calls):
            arrived = time.perf_counter()
            t.observe(time.perf_counter() - arrived)
        runs.append((time.perf_counter() - started) / calls)
    return statistics.median(runs)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--rounds", type=int, default=20)
    p.add_argument("--tables", default="100,1000,10000")
    args = p.parse_args(argv)
    for n in (int(x) for x in args.tables.split(",")):
        times, size = asyncio.run(scrapes(n, args.rounds))
        ms = [t * 1000 for t in times]
        print(
            f"{n:>6} tables: a scrape {statistics.median(ms):.2f} ms median,"
            f" {max(ms):.2f} ms max, {size / 1024:.1f} KiB ({args.rounds} rounds)"
        )
    print(f"a take's figure: {take_cost() * 1e9:.0f} ns median (a take: about 1 ms)")


if __name__ == "__main__":
    main()
