"""The load clients of ``bench/load.py``: one process runs many asyncio WebSocket
clients, every seat of its tables, against our server (protocol v1) or the bare relay
(``bench/relay.py``). Frames are packed and unpacked with plain msgpack (no models), so
that the clients spend as little of the shared CPU as they can.

Latency is measured at the seat that acts: from sending a ``take`` to receiving the
``view`` of the state it produced (or, with ``combined``, protocol 1.1's ``update``
carrying it).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import random
import time
from dataclasses import dataclass, field
from typing import Any

import msgpack  # type: ignore[import-untyped]
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

SUBPROTOCOL = "kupferkessel.v1"


@dataclass
class Plan:
    """What one client process does (times are ``time.monotonic()``, shared by every
    process on Linux)."""

    port: int
    target: str  # "ours" or "relay"
    tables: int
    players: int
    prefix: str  # unique per process
    warmup: float = 2.0  # seconds after the start before the window opens
    seconds: float = 10.0  # the measured window
    paced: float | None = None  # seconds between two moves of a table; None: flat out
    games: int | None = None  # games per table, then close (None: play until end_at)
    idle: bool = False  # only connect and say hello, then hold the connection
    create_port: int | None = None  # create each table through this port (another node)
    deflate: bool = False  # offer permessage-deflate (the server decides)
    combined: bool = False  # protocol 1.1: one ``update`` per new state (hello.combined)
    seed: int = 0
    # set when the orchestrator says go (monotonic times, the same in every process)
    start_at: float = float("inf")  # no take before this
    window: tuple[float, float] = (0.0, 0.0)  # takes answered in it are counted
    end_at: float = float("inf")

    def go(self, start: float) -> None:
        self.start_at = start
        self.window = (start + self.warmup, start + self.warmup + self.seconds)
        self.end_at = self.window[1]


@dataclass
class Stats:
    intents: int = 0  # takes answered inside the window
    latencies: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    games: int = 0
    connections: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "intents": self.intents,
            "latencies": self.latencies,
            "errors": self.errors,
            "games": self.games,
            "connections": self.connections,
        }


class Conn:
    """One connection: a reader task, requests answered by ``re``."""

    def __init__(self, ws: ClientConnection, seat: int, table: Table) -> None:
        self.ws, self.seat, self.table = ws, seat, table
        self.ids = itertools.count(1)
        self.waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.sent_at: tuple[int, float] | None = None  # (state version, time) of our take
        self.last_view: dict[str, Any] | None = None
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                msg = msgpack.unpackb(raw)
                re = msg.get("re")
                if re in self.waiting:
                    fut = self.waiting.pop(re)
                    if not fut.done():
                        fut.set_result(msg)
                kind = msg.get("type")
                if kind == "view" or kind == "update":
                    self.table.on_view(self, msg)
                elif kind == "error":
                    code = msg.get("code", "?")
                    errors = self.table.stats.errors
                    errors[code] = errors.get(code, 0) + 1
                    self.sent_at = None
        except ConnectionClosed:
            pass

    async def request(self, msg: dict[str, Any]) -> dict[str, Any]:
        msg["id"] = next(self.ids)
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.waiting[msg["id"]] = fut
        await self.ws.send(msgpack.packb(msg))
        async with asyncio.timeout(60):
            return await fut

    async def take(self, version: int, card: str) -> None:
        if self.sent_at is not None or time.monotonic() > self.table.plan.end_at:
            return
        self.sent_at = (version, time.monotonic())
        msg = {"type": "take", "id": next(self.ids), "state_version": version, "card": card}
        with contextlib.suppress(ConnectionClosed):
            await self.ws.send(msgpack.packb(msg))


class Table:
    """The seats of one table, all in this process; plays game after game."""

    def __init__(self, plan: Plan, index: int, stats: Stats, rng: random.Random) -> None:
        self.plan, self.index, self.stats, self.rng = plan, index, stats, rng
        self.conns: list[Conn] = []
        self.creator: Conn | None = None  # with ``plan.create_port``
        self.game = 0
        self.version = -1
        self.next_due = 0.0
        self.done = asyncio.Event()
        self.tasks: set[asyncio.Task[None]] = set()

    async def connect(self) -> None:
        for seat in range(self.plan.players):
            ws = await connect(
                f"ws://127.0.0.1:{self.plan.port}/",
                subprotocols=[SUBPROTOCOL],  # type: ignore[list-item]
                compression="deflate" if self.plan.deflate else None,
                max_size=None,
                ping_interval=None,
                open_timeout=60,
            )
            conn = Conn(ws, seat, self)
            self.conns.append(conn)
            self.stats.connections += 1
            if self.plan.target == "ours":
                hello: dict[str, Any] = {"type": "hello", "protocol": [1, 0], "client": "load"}
                if self.plan.combined:
                    hello.update(protocol=[1, 1], combined=True)
                assert (await conn.request(hello))["type"] == "welcome"

    async def new_game(self) -> None:
        """Sit every seat at a fresh table; the game starts when all are seated/ready."""
        self.version = -1
        if self.plan.target == "relay":
            name = f"{self.plan.prefix}-{self.index}-{self.game}"
            for c in self.conns:
                join = {"type": "join", "table": name, "seat": c.seat, "players": len(self.conns)}
                join["combined"] = self.plan.combined
                await c.request(join)
            return
        if self.game > 0:
            for c in self.conns:
                await c.request({"type": "leave"})
        if self.plan.create_port is not None:  # created on one node, played at another
            await self._new_game_elsewhere(self.plan.create_port)
            return
        first = self.conns[0]
        created = await first.request(
            {
                "type": "create_table",
                "name": "load",
                "player": "p0",
                "seat": 0,
                "options": {"players": self.plan.players},
            }
        )
        table_id = created["table"]["id"]
        for c in self.conns[1:]:
            joined = await c.request(
                {"type": "join", "table": table_id, "player": f"p{c.seat}", "seat": c.seat}
            )
            assert joined["type"] == "joined", joined
        for c in self.conns:
            await c.ws.send(msgpack.packb({"type": "ready", "id": next(c.ids)}))

    async def _new_game_elsewhere(self, port: int) -> None:
        """The table is created by a connection to ``port`` that does not sit down
        (so that node owns it); every seat joins through ``plan.port``."""
        if self.creator is None:
            ws = await connect(
                f"ws://127.0.0.1:{port}/",
                subprotocols=[SUBPROTOCOL],  # type: ignore[list-item]
                max_size=None,
                ping_interval=None,
                open_timeout=60,
            )
            self.creator = Conn(ws, -1, self)
            hello = {"type": "hello", "protocol": [1, 0], "client": "load-creator"}
            assert (await self.creator.request(hello))["type"] == "welcome"
        created = await self.creator.request(
            {
                "type": "create_table",
                "name": "load",
                "player": None,
                "options": {"players": self.plan.players},
            }
        )
        table_id = created["table"]["id"]
        for c in self.conns:
            joined = await c.request(
                {"type": "join", "table": table_id, "player": f"p{c.seat}", "seat": c.seat}
            )
            assert joined["type"] == "joined", joined
        for c in self.conns:
            await c.ws.send(msgpack.packb({"type": "ready", "id": next(c.ids)}))

    def kick(self) -> None:
        """Start playing: act on the views that came during the set-up."""
        if self.plan.paced:
            self.next_due = self.plan.start_at + self.rng.uniform(0, self.plan.paced)
        for c in self.conns:
            if c.last_view is not None:
                self.on_view(c, c.last_view)

    def on_view(self, conn: Conn, msg: dict[str, Any]) -> None:
        conn.last_view = msg
        if self.plan.start_at == float("inf"):
            return  # not started: kick() comes back to it
        version = msg["state_version"]
        view = msg["view"]
        now = time.monotonic()
        if conn.sent_at is not None and version > conn.sent_at[0]:
            if self.plan.window[0] <= now <= self.plan.window[1]:
                self.stats.intents += 1
                self.stats.latencies.append(now - conn.sent_at[1])
            conn.sent_at = None
        if version > self.version:
            self.version = version
            if self.plan.paced:
                self.next_due = max(self.next_due, now) + self.plan.paced
        if view.get("game_over"):
            if conn.seat == 0:
                self._spawn(self._after_game())
            return
        if view.get("to_move") == conn.seat and conn.sent_at is None:
            card = self.rng.choice(view["choices"])["card"]
            delay = max(0.0, self.plan.start_at - now, self.next_due - now)
            if delay <= 0:
                self._spawn(conn.take(version, card))
            else:
                asyncio.get_running_loop().call_later(
                    delay, lambda: self._spawn(conn.take(version, card))
                )

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _after_game(self) -> None:
        self.game += 1
        self.stats.games += 1
        if (self.plan.games is not None and self.game >= self.plan.games) or (
            time.monotonic() > self.plan.end_at
        ):
            self.done.set()
            return
        with contextlib.suppress(ConnectionClosed):  # closed at the end of the run
            await self.new_game()

    async def close(self) -> None:
        for c in [*self.conns, *([self.creator] if self.creator else [])]:
            await c.ws.close()
            c.reader.cancel()


async def run_plan(plan: Plan, ready: Any, go: Any, start: Any) -> Stats:
    """Set up every table, report ready, wait for go (``start.value`` is the start
    time), play, then close."""
    stats = Stats()
    rng = random.Random(plan.seed)
    tables = [Table(plan, i, stats, random.Random(rng.random())) for i in range(plan.tables)]
    sem = asyncio.Semaphore(50)  # bounded concurrent handshakes

    async def setup(t: Table) -> None:
        async with sem:
            await t.connect()
            if not plan.idle:
                await t.new_game()

    await asyncio.gather(*(setup(t) for t in tables))
    ready.put({"ready": plan.prefix})
    if not await asyncio.to_thread(go.wait, 900):
        raise TimeoutError("no go")
    plan.go(start.value)
    for t in tables:
        t.kick()
    if plan.games is not None:
        async with asyncio.timeout(300):
            await asyncio.gather(*(t.done.wait() for t in tables))
    else:
        await asyncio.sleep(max(0.0, plan.end_at - time.monotonic()))
    await asyncio.gather(*(t.close() for t in tables), return_exceptions=True)
    return stats


def process_main(plan: Plan, out: Any, go: Any, start: Any) -> None:
    """Entry point of one client process: run the plan, put the stats on ``out``."""
    try:
        stats = asyncio.run(run_plan(plan, out, go, start))
        out.put(stats.to_dict())
    except BaseException as e:
        out.put({"failed": repr(e)})
        raise
