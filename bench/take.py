"""A take's cost on the server, from the accepted intent to its frames, without the
network: the part of ``bench/load.py``'s CPU per intent that is ours alone.

A real ``Table`` (in-memory store) plays random two-player games; its seats and
spectators are occupants that frame what the table delivers exactly as a connection
does (``server.net.framing.Framing``, protocol 1.0 or 1.1 with combined updates) and
count the frames instead of writing them. Each take goes the way a connection's take
goes once decoded: ``Table.take`` (the lock, the rules, the store, the views, the
frames) and, on 1.0, the ``ack``. Printed per kind: the CPU time (this thread's) per
take, the median and the best of ``--rounds`` rounds of ``--games`` games, and the
frames and bytes per take.

Prints figures only, never fails. Usage: ``python bench/take.py [--games 40]
[--rounds 7] [--spectators 0,3]``. The machine is shared: compare figures from one run
(the best of the rounds moves least with the load).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the checkout first

from pydantic import BaseModel

from protocol.wire import encode_ack, encode_as
from server.core.table import Table
from server.net.framing import Frame, Framing
from server.store import MemoryStore
from shared.options import Options


class Counted(Framing):
    """A connection's framing (``Framing``) whose frames are made and counted, not sent."""

    def __init__(self, minor: int, combined: bool) -> None:
        self.minor, self.combined = minor, combined
        self.answering: int | None = None
        self.seq = self.frames = self.bytes = 0

    def send(self, message: BaseModel | Frame, re: int | None = None) -> None:
        self.seq += 1
        if isinstance(message, BaseModel):
            frame = encode_as(type(message), message, seq=self.seq, re=re)
        else:
            frame = message(self.seq)
        self.frames += 1
        self.bytes += len(frame)


async def play(seed: int, minor: int, combined: bool, spectators: int) -> tuple[float, int, int]:
    """One game; returns the CPU seconds its takes cost, the takes, and the frames."""
    rng = random.Random(seed)
    table = Table(f"t{seed}", "bench", Options(players=2), MemoryStore())
    seats = [Counted(minor, combined) for _ in range(2)]
    for i, occ in enumerate(seats):
        await table.join(f"p{i}", occ, i)  # type: ignore[arg-type]
    for _ in range(spectators):
        table.watch(Counted(minor, combined))  # type: ignore[arg-type]
    for occ in seats:
        await table.set_ready(occ, True)  # type: ignore[arg-type]
    everyone = [occ for _, occ in table.occupants()]
    before = sum(o.frames for o in everyone)  # type: ignore[attr-defined]
    takes = 0
    spent = 0.0
    while table.game is not None and not table.game.over:
        occ = seats[table.game.to_move]
        take = rng.choice(table.game.legal_actions())
        msg_id = takes + 1
        started = time.thread_time()
        occ.answering = msg_id if combined else None
        version = await table.take(occ, take, table.version)  # type: ignore[arg-type]
        if not (combined and occ.answering is None):
            occ.send(lambda seq, v=version, i=msg_id: encode_ack(v, i, seq))
        occ.answering = None
        spent += time.thread_time() - started
        takes += 1
    frames = sum(o.frames for o in everyone) - before  # type: ignore[attr-defined]
    return spent, takes, frames


async def rounds(args: argparse.Namespace, minor: int, combined: bool, spectators: int) -> None:
    per_take = []
    takes = frames = 0
    for _ in range(args.rounds):
        spent, taken = 0.0, 0
        for g in range(args.games):
            s, t, f = await play(g, minor, combined, spectators)  # the same games each round
            spent, taken, frames = spent + s, taken + t, frames + f
        per_take.append(spent / taken)
        takes += taken
    kind = f"1.{minor}" + (" combined" if combined else "") + f", {spectators} spectator(s)"
    print(
        f"{kind:>28}: {statistics.median(per_take) * 1e6:6.1f} us per take (best "
        f"{min(per_take) * 1e6:.1f}), {frames / takes:.2f} frames per take"
    )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=40, help="games per round")
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--spectators", default="0,3", help="spectators per table, in turn")
    args = p.parse_args()
    print(f"bench/take.py: {args.rounds} rounds of {args.games} games (CPU time per take)")
    for spectators in (int(s) for s in args.spectators.split(",")):
        for minor, combined in ((0, False), (1, True)):
            asyncio.run(rounds(args, minor, combined, spectators))


if __name__ == "__main__":
    main()
