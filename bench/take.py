"""A take's cost on the server, from the accepted intent to its frames, without the
network: the part of ``bench/load.py``'s CPU per intent that is ours alone.

A real ``Table`` (in-memory store) plays random two-player games; its seats and
spectators are occupants that frame what the table delivers exactly as a connection
does (``server.net.framing.Framing``, protocol 1.0 or 1.1 with combined updates) and
count the frames instead of writing them. Each take goes the way a connection's take
goes once decoded: ``Table.take`` (the lock, the rules, the store, the views, the
frames) and, on 1.0, the ``ack``. Printed per kind: the CPU time (this thread's) per
take, the median and the best of ``--rounds`` rounds of ``--games`` games, and the
frames and bytes per take. For 1.1 combined without spectators, the same take in its
parts (``parts``): the rules, the views, the frames, and the table's own, the rest.

Then a game's cost besides its takes, as a load client's table (``bench/_load_client.py``)
makes it, game after game: creating the table with the creator seated, the other seat
joining, both ready (the game starts), the game played out by random takes, both
leaving. Each of these is the msgpack frame a client sends, handed to a real
``Session``'s ``handle_frame`` (decoding, its state table, its handlers, the ``Lobby``
and ``Table`` behind them, the framing of what comes back), a session whose frames are
made and counted, not sent. Printed: the CPU time per game besides its takes (the
set-up, the game's end beyond an ordinary take, the leaving) and per take of the game,
and the frames per game besides the takes' (and by type, for one game).

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

import msgpack
from pydantic import BaseModel

from protocol import messages as m
from protocol.wire import encode_ack, encode_as
from server.config import ServerConfig
from server.core.intents import Play
from server.core.table import Table
from server.figures import SessionFigures
from server.lobby import NO_QUOTAS
from server.lobby.registry import Lobby
from server.net.conduct import UNMODERATED
from server.net.framing import Frame, Framing
from server.net.session import Session
from server.net.states import Phase
from server.players.account import Account
from server.store import MemoryStore
from shared.options import Options


class Counted(Framing):
    """A connection's framing (``Framing``) whose frames are made and counted, not sent."""

    def __init__(self, minor: int, combined: bool) -> None:
        self.minor, self.combined = minor, combined
        self.seq = self.frames = self.bytes = 0

    def send(self, message: BaseModel | Frame, re: int | None = None) -> None:
        self.seq += 1
        if isinstance(message, BaseModel):
            frame = encode_as(type(message), message, seq=self.seq, re=re)
        else:
            frame = message(self.seq)
        self.frames += 1
        self.bytes += len(frame)
        if isinstance(message, m.ErrorMsg):  # the bench went wrong: say so
            print(f"  (refused: {message.code}: {message.message})")
        if self.kept is not None:
            self.kept.append(frame)

    kept: list[bytes] | None = None
    """The frames made, if kept (to tell their types)."""


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
    everyone = [occ for _, occ in table.telling.occupants()]
    before = sum(o.frames for o in everyone)  # type: ignore[attr-defined]
    takes = 0
    spent = 0.0
    while table.game is not None and not table.game.over:
        occ = seats[table.game.to_move]
        take = rng.choice(table.game.legal_actions())
        msg_id = takes + 1
        started = time.thread_time()
        play = Play(take, table.version, msg_id if combined else None)
        taken = await table.apply(occ, play)  # type: ignore[arg-type]
        if not taken.answered:
            occ.send(lambda seq, v=taken.version, i=msg_id: encode_ack(v, i, seq))
        spent += time.thread_time() - started
        takes += 1
    frames = sum(o.frames for o in everyone) - before  # type: ignore[attr-defined]
    return spent, takes, frames


async def rounds(args: argparse.Namespace, minor: int, combined: bool, spectators: int) -> float:
    """``--rounds`` rounds of ``play``; prints and returns the median CPU per take."""
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
    return statistics.median(per_take)


def parts(args: argparse.Namespace, whole: float) -> None:
    """An ordinary take of two seats on 1.1 with combined updates, in parts, as
    ``Table`` makes it: the rules (the take applied to a copy of the game, its events
    made), the views of both seats (``shared.view.views``) and their frames
    (``protocol.wire.encode_update``, the mover's answering its take); the rest of
    ``whole`` (the median take above) is the table's: its lock, the store, the clock,
    the occupants. Medians of ``--rounds`` rounds of ``--games`` games; the parts are
    timed by the clock (``perf_counter``: the thread's CPU clock is a system call per
    read here, which would weigh on parts this small), so read them on a quiet machine."""
    from protocol.wire import encode_update
    from shared.record import Record
    from shared.view import views

    clock = time.perf_counter
    rounds: list[tuple[float, float, float]] = []
    for _ in range(args.rounds):
        rules = made = framed = 0.0
        takes = 0
        for g in range(args.games):
            _, game = Record.deal(Options(players=2, seed=g), [])
            rng = random.Random(g)
            while not game.over:
                take = rng.choice(game.legal_actions())
                mover = game.to_move
                t0 = clock()
                trial, events = game.copy(), []
                trial.apply(take, mover, events)
                t1 = clock()
                seats = views(trial, [0, 1])
                t2 = clock()
                told = tuple(events)
                for seat, view in enumerate(seats):
                    encode_update(told, view, takes, takes, takes if seat == mover else None)
                t3 = clock()
                rules, made, framed = rules + t1 - t0, made + t2 - t1, framed + t3 - t2
                game = trial
                takes += 1
        rounds.append((rules / takes, made / takes, framed / takes))
    rules, made, framed = (statistics.median(r[i] for r in rounds) * 1e6 for i in range(3))
    rest = whole * 1e6 - rules - made - framed
    print(
        f"{'1.1 combined, its parts':>28}: the rules {rules:.1f}, the views {made:.1f}, the "
        f"frames {framed:.1f} us; the table's own {rest:.1f} us (the rest of the take above)"
    )


class Connection(Counted, Session):
    """A ``Session`` in the lobby after its ``hello``, without a WebSocket: it handles
    client frames as a connection's session does; its frames are counted (``Counted``)."""

    closing = False  # no transport: it never closes

    def __init__(self, lobby: Lobby, minor: int, combined: bool) -> None:
        Counted.__init__(self, minor, combined)
        # what ``Session.__init__`` and ``on_hello`` set that the handlers use
        self.account, self.config, self.lobby = Account(None), ServerConfig(), lobby
        self.figures, self.conduct = SessionFigures(), UNMODERATED
        self.phase, self.table, self.invite, self.name = Phase.LOBBY, None, None, "load"
        self.closing = self.json = False
        self.address, self.log_extra = "127.0.0.1", {}
        self.ids = 0

    async def says(self, msg: dict[str, object]) -> None:
        """Send the server ``msg`` as a load client does (msgpack, the next id)."""
        self.ids += 1
        await self.handle_frame(msgpack.packb({**msg, "id": self.ids}))


def _take_msg(take: object, version: int) -> dict[str, object]:
    card, special, targets, keep = take  # type: ignore[misc]
    msg: dict[str, object] = {"type": "take", "state_version": version, "card": card}
    if not special:
        msg["special"] = False
    if targets is not None:
        msg["targets"] = list(targets)
    if not keep:
        msg["keep"] = False
    return msg


async def one_game(
    conns: list[Connection], rng: random.Random, cpu: dict[str, float], frames: dict[str, int]
) -> int:
    """One game of a load client's table, its CPU seconds and frames added per part
    (``setup``, ``takes`` but the last, ``end``: the last take, ``leave``); returns the
    takes."""
    first, second = conns

    async def part(name: str, *steps: tuple[Connection, dict[str, object]]) -> None:
        before = first.frames + second.frames
        started = time.thread_time()
        for conn, msg in steps:
            await conn.says(msg)
        cpu[name] += time.thread_time() - started
        frames[name] += first.frames + second.frames - before

    create = {
        "type": "create_table",
        "name": "load",
        "player": "p0",
        "seat": 0,
        "options": {"players": 2},
    }
    await part("setup", (first, create))
    table = first.table
    assert isinstance(table, Table), first.phase
    join = {"type": "join", "table": table.id, "player": "p1", "seat": 1}
    await part("setup", (second, join), (first, {"type": "ready"}), (second, {"type": "ready"}))
    takes = 0
    while table.game is not None and not table.game.over:
        game = table.game
        take = rng.choice(game.legal_actions())
        trial = game.copy()  # whether it ends the game, asked before it is timed
        trial.apply(take, game.to_move)  # (no events: nothing scored, nothing cached)
        msg = _take_msg(take, table.version)
        await part("end" if trial.over else "takes", (conns[game.to_move], msg))
        takes += 1
    await part("leave", (first, {"type": "leave"}), (second, {"type": "leave"}))
    return takes


async def per_game(args: argparse.Namespace, minor: int, combined: bool) -> None:
    """``--games`` games per round, one after the other at the same two connections (a
    fresh lobby each round); prints the medians of the rounds."""
    rounds: list[dict[str, float]] = []
    frames: dict[str, int] = dict.fromkeys(("setup", "takes", "end", "leave"), 0)
    takes = 0
    for r in range(args.rounds):
        lobby = Lobby(MemoryStore(), quotas=NO_QUOTAS)  # as bench/_load_server.py
        conns = [Connection(lobby, minor, combined) for _ in range(2)]
        rng = random.Random(r)
        cpu = dict.fromkeys(frames, 0.0)
        taken = sum([await one_game(conns, rng, cpu, frames) for _ in range(args.games)])
        take = cpu["takes"] / (taken - args.games)  # an ordinary take (not the last)
        besides = cpu["setup"] + cpu["leave"] + cpu["end"] - args.games * take
        n = args.games
        rounds.append(
            {
                "besides": besides / n,
                "take": take,
                "end": cpu["end"] / n - take,
                "setup": cpu["setup"] / n,
                "leave": cpu["leave"] / n,
                "whole": sum(cpu.values()) / taken,
            }
        )
        takes += taken
    games = args.rounds * args.games
    mid = {k: statistics.median(r[k] for r in rounds) * 1e6 for k in rounds[0]}
    best = min(r["besides"] for r in rounds) * 1e6
    ordinary = frames["takes"] / (takes - games)
    besides = (frames["setup"] + frames["leave"] + frames["end"]) / games - ordinary
    kind = f"1.{minor}" + (" combined" if combined else "")
    print(
        f"{kind:>28}: {mid['besides']:6.0f} us per game besides its takes (best {best:.0f}; "
        f"set-up {mid['setup']:.0f}, the end {mid['end']:+.0f} over a take, leaving "
        f"{mid['leave']:.0f}), {mid['whole']:.1f} us per take all in ({mid['take']:.1f} an "
        f"ordinary take), {takes / games:.1f} takes; {besides:.1f} frames per game besides "
        f"the takes', {sum(frames.values()) / takes:.2f} per take all in"
    )


async def frame_types(minor: int, combined: bool) -> None:
    """The frames of one game (the second at the same connections), by message type."""
    lobby = Lobby(MemoryStore(), quotas=NO_QUOTAS)  # as bench/_load_server.py
    conns = [Connection(lobby, minor, combined) for _ in range(2)]
    rng = random.Random(0)
    frames: dict[str, int] = dict.fromkeys(("setup", "takes", "end", "leave"), 0)
    cpu = dict.fromkeys(frames, 0.0)
    for _ in range(2):
        for c in conns:
            c.kept = []
        takes = await one_game(conns, rng, cpu, frames)
    kinds: dict[str, int] = {}
    for c in conns:
        for frame in c.kept or []:
            kind = msgpack.unpackb(frame)["type"]
            kinds[kind] = kinds.get(kind, 0) + 1
    told = ", ".join(f"{k} {n}" for k, n in sorted(kinds.items(), key=lambda kv: -kv[1]))
    print(f"{'':>28}  one game of {takes} takes, its frames: {told}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=40, help="games per round")
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--spectators", default="0,3", help="spectators per table, in turn")
    args = p.parse_args()
    print(f"bench/take.py: {args.rounds} rounds of {args.games} games (CPU time per take)")
    for spectators in (int(s) for s in args.spectators.split(",")):
        for minor, combined in ((0, False), (1, True)):
            whole = asyncio.run(rounds(args, minor, combined, spectators))
            if spectators == 0 and combined:
                parts(args, whole)
    print("a load client's game, game after game (CPU time besides its takes, per take)")
    for minor, combined in ((0, False), (1, True)):
        asyncio.run(per_game(args, minor, combined))
        asyncio.run(frame_types(minor, combined))


if __name__ == "__main__":
    main()
