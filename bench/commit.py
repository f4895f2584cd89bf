"""The store's share of a take under group commit: many tables playing at once against
a real SQLite store, as ``bench/load.py``'s SQLite target does, without the network.

``--tables`` real ``Table``s (``SqliteStore`` in a temporary directory, WAL,
``synchronous=FULL``) each play random two-player games at the same time, every take
awaiting its durable write, so the writer thread commits many tables' takes at once.
The occupants frame what the table delivers as a 1.1 connection with combined updates
does (``server.net.framing.Framing``) and count the frames instead of writing them.
Printed per round and as medians over ``--rounds``: the process's CPU time per take
(the event loop's thread and the writer's), its context switches per take (from
``/proc/self/status``: each is a hand-over between the two threads, or a wait on the
disk), and the writes per commit; and the same for the in-memory store, whose takes
never wait, as the floor.

Prints figures only, never fails. Usage: ``python bench/commit.py [--tables 200]
[--takes 8000] [--rounds 5]``. The machine is shared: compare figures from one run.
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

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the checkout first

from pydantic import BaseModel

from protocol.wire import encode_as
from server.core.intents import Play
from server.core.table import Table
from server.net.framing import Frame, Framing
from server.store import MemoryStore, SqliteStore, Store
from shared.options import Options


class Counted(Framing):
    """A 1.1 connection's framing (combined updates) that makes and counts its frames."""

    minor, combined = 1, True

    def __init__(self) -> None:
        self.seq = self.frames = 0

    def send(self, message: BaseModel | Frame, re: int | None = None) -> None:
        self.seq += 1
        if isinstance(message, BaseModel):
            encode_as(type(message), message, seq=self.seq, re=re)
        else:
            message(self.seq)
        self.frames += 1


def switches() -> int:
    """The process's context switches so far (every thread's), voluntary or not."""
    total = 0
    for task in Path("/proc/self/task").iterdir():
        for line in (task / "status").read_text().splitlines():
            if "ctxt_switches:" in line:
                total += int(line.split(":")[1])
    return total


async def table_plays(store: Store, name: str, rng: random.Random, left: list[int]) -> None:
    """Games one after another at one table until ``left[0]`` takes have been made."""
    game_no = 0
    while left[0] > 0:
        game_no += 1
        table = Table(f"{name}-{game_no}", "bench", Options(players=2), store)
        await store.create_table(table.id, table.name, table.options, False, None)
        seats = [Counted() for _ in range(2)]
        for i, occ in enumerate(seats):
            await table.join(f"p{i}", occ, i)  # type: ignore[arg-type]
        for occ in seats:
            await table.set_ready(occ, True)  # type: ignore[arg-type]
        while table.game is not None and not table.game.over and left[0] > 0:
            occ = seats[table.game.to_move]
            left[0] -= 1
            play = Play(rng.choice(table.game.legal_actions()), table.version)
            await table.apply(occ, play)  # type: ignore[arg-type]


async def one_round(store: Store, tables: int, takes: int, seed: int) -> tuple[float, float]:
    """CPU seconds and context switches per take for ``takes`` takes over ``tables``."""
    left = [takes]
    rng = random.Random(seed)
    cpu, cs = time.process_time(), switches()
    await asyncio.gather(*(table_plays(store, f"r{seed}t{i}", rng, left) for i in range(tables)))
    made = takes - left[0]
    return (time.process_time() - cpu) / made, (switches() - cs) / made


async def run(kind: str, args: argparse.Namespace, folder: Path) -> None:
    store: Store = MemoryStore() if kind == "memory" else SqliteStore(folder / f"{kind}.db")
    await store.start()
    try:
        cpu, cs = [], []
        writer = getattr(store, "_writer", None)
        commits = writes = 0
        for r in range(args.rounds):
            if writer is not None:
                commits, writes = writer.commits, writer.writes
            c, s = await one_round(store, args.tables, args.takes, r)
            cpu.append(c)
            cs.append(s)
        per_commit = ""
        if writer is not None:  # the last round's
            made = (writer.writes - writes) / max(1, writer.commits - commits)
            per_commit = f", {made:.1f} writes per commit"
        print(
            f"{kind:>7}: {statistics.median(cpu) * 1e6:6.1f} us CPU per take (best "
            f"{min(cpu) * 1e6:.1f}), {statistics.median(cs):.2f} context switches per take"
            + per_commit
        )
    finally:
        await store.close()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tables", type=int, default=200, help="tables playing at once")
    p.add_argument("--takes", type=int, default=8000, help="takes per round")
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--stores", default="memory,sqlite", help="memory, sqlite or both")
    args = p.parse_args()
    print(
        f"bench/commit.py: {args.tables} tables at once, {args.rounds} rounds of "
        f"{args.takes} takes (process CPU per take, both threads)"
    )
    with tempfile.TemporaryDirectory() as folder:
        for kind in args.stores.split(","):
            asyncio.run(run(kind, args, Path(folder)))


if __name__ == "__main__":
    main()
