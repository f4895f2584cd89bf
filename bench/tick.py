"""The tick's cost: what checking clocks and grace periods costs an idle server.

The server calls ``Lobby.tick`` every ``ServerConfig.tick`` (0.25 s) on its event loop.
Here a real ``Lobby`` (with the in-memory store) holds N running two-player tables in
which nothing is due: seat 0 a server-side bot (not playing: nothing is attached), seat
1 a person, connected or gone (a grace period running), with or without a clock (one
hour per move, so no move expires). Each round calls ``Lobby.tick`` as the server does
and times it; a round runs without awaiting anything when nothing is due, so its
duration is how long it holds the event loop (the stall every client's message waits
behind). Printed per N and kind: a round's CPU time (median), its wall-clock time
(median and max: the stall), and the share of one core the tick takes at four rounds a
second (median CPU time times four).

``Lobby.tick`` finds what is due from a deadline heap (``Lobby.due``); ``--scan`` times
the simple path it replaces (``Lobby.due_scan``: a look at every table) instead.

Prints figures only, never fails. Usage: ``python bench/tick.py [--rounds 40]
[--tables 1000,5000,10000] [--scan]``. The machine is shared: compare figures from one run.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the checkout first

from server.app import ServerConfig
from server.core.journal import Step
from server.core.table import Table
from server.lobby import NO_QUOTAS, Lobby
from server.store import MemoryStore
from shared.clock import TimeRules
from shared.events import Event
from shared.options import Options
from shared.view import View

KINDS = {
    "no clock, people here": (TimeRules(), False),
    "clock, people here": (TimeRules(move=3600.0), False),
    "clock, a person gone": (TimeRules(move=3600.0, grace=3600.0), True),
}


class Person:
    """A person's connection that hears everything and says nothing."""

    minor = 2

    def deliver_view(self, table: Table, view: View, version: int) -> None:
        pass

    def deliver_update(
        self,
        table: Table,
        events: Sequence[Event],
        view: View,
        version: int,
        re: int | None = None,
        by_computer: bool = False,
    ) -> None:
        pass

    def deliver_missed(
        self, table: Table, since: int, version: int, steps: Sequence[Step], omitted: int, re: int
    ) -> None:
        pass

    def deliver_result(self, table: Table, view: View, version: int) -> None:
        pass

    def deliver_presence(self, table: Table) -> None:
        pass

    def deliver_chat(self, table: Table, seat: int | None, name: str, text: str) -> None:
        pass

    def deliver_finished(self, table: Table, reason: str, seat: int | None) -> None:
        pass

    def deliver_rematch(self, table: Table, new: Table, seat: int | None) -> bool:
        return False

    def replaced(self, table: Table, seat: int) -> None:
        pass


async def add_tables(lobby: Lobby, n: int, timing: TimeRules, gone: bool) -> None:
    """``n`` more running tables of one bot and one person (gone, if ``gone``)."""
    for _ in range(n):
        table, _ = await lobby.create("bench", Options(), bots=[(0, "bench")], timing=timing)
        person = Person()
        await table.join("person", person)
        await table.set_ready(person)
        if gone:
            table.detach(person)


async def scan_tick(lobby: Lobby) -> None:
    """``Lobby.tick`` with the simple path (``due_scan``: a look at every table)."""
    now = lobby.now()
    for table in lobby.due_scan(now):
        await table.tick(now)


async def rounds(lobby: Lobby, count: int, scan: bool) -> tuple[list[float], list[float]]:
    """Seconds each of ``count`` rounds of ``Lobby.tick`` took: wall-clock time (the
    stall) and the thread's CPU time (the cost, less disturbed by a busy machine)."""
    wall, cpu = [], []
    for _ in range(count):
        start, start_cpu = time.perf_counter(), time.thread_time()
        await (scan_tick(lobby) if scan else lobby.tick())
        cpu.append(time.thread_time() - start_cpu)
        wall.append(time.perf_counter() - start)
        await asyncio.sleep(0)
    return wall, cpu


async def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rounds", type=int, default=40, help="rounds timed per N and kind")
    p.add_argument("--tables", default="1000,5000,10000", help="Ns, comma-separated, rising")
    p.add_argument("--scan", action="store_true", help="time the simple path (due_scan)")
    args = p.parse_args()
    sizes = sorted(int(n) for n in args.tables.split(","))
    per_second = 1 / ServerConfig().tick
    path = "due_scan (every table)" if args.scan else "due (the deadline heap)"
    print(f"Lobby.tick every {ServerConfig().tick} s by {path}; {args.rounds} rounds per row")
    print(f"{'':<32} {'CPU ms':>8} {'wall ms':>9} {'':>8}")
    print(f"{'kind':<24} {'tables':>7} {'median':>8} {'median':>9} {'max':>8} {'% core':>7}")
    for kind, (timing, gone) in KINDS.items():
        lobby = Lobby(MemoryStore(), max_tables=max(sizes), bot_levels=("bench",), quotas=NO_QUOTAS)
        for n in sizes:
            await add_tables(lobby, n - len(lobby.tables), timing, gone)
            wall, cpu = await rounds(lobby, args.rounds, args.scan)
            med = statistics.median(cpu)
            print(
                f"{kind:<24} {n:>7,} {med * 1000:>8.3f} {statistics.median(wall) * 1000:>9.3f}"
                f" {max(wall) * 1000:>8.3f} {med * per_second * 100:>6.1f}%",
                flush=True,
            )


if __name__ == "__main__":
    asyncio.run(main())
