"""A small raw test client over real websockets, shared by the server tests.

It speaks protocol v1 by hand: it packs client messages with msgpack itself (so tests
can also send anything that is not a valid message), keeps every frame it receives as
raw bytes, and decodes each with ``protocol.codec.decode_server`` (which also checks
that everything the server sends is a valid server message).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json as _json
import random
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import msgpack  # type: ignore[import-untyped]
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from protocol import messages as m
from protocol.codec import decode_server
from server.app import Server, ServerConfig
from server.lobby import NO_QUOTAS
from server.players.analyses import AnalysisBounds
from server.players.hashing import NO_ADDRESS_BOUNDS
from server.store import open_store

ERROR_CODES = {c.value for c in m.ErrorCode}
Pred = Callable[[Any], bool]
REPLY_WITHIN = 30.0
"""Seconds a request, or a wait for what the server sends, waits unless told otherwise:
a hang guard (on a quiet machine answers take milliseconds). The leak oracle's six
games in one process, server and clients on one event loop, had a take unanswered
after 10 s at a load of 29 on 2 cores (CPU pressure 98%), and at a load of 40 twelve
pages of 32 KiB from 600 tables took longer than 10 s."""


class WsClient:
    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.raw: list[bytes | str] = []  # every frame received, in order
        self.msgs: list[Any] = []  # decode_server of each frame (same index)
        self._ids = itertools.count(1)
        self._changed = asyncio.Event()
        self.closed = asyncio.Event()
        self._reader = asyncio.create_task(self._read())

    json = False  # speaks the JSON subprotocol (text frames; ``raw`` keeps them as text)

    @classmethod
    async def open(
        cls,
        port: int,
        name: str | None = "tester",
        protocol: tuple[int, int] = (1, 0),
        *,
        json: bool = False,
        **kw: Any,
    ) -> WsClient:
        """Connect to 127.0.0.1:port and, if ``name`` is given, say hello (in
        ``protocol``: 1.0 unless a test needs 1.1; ``json``: over the JSON subprotocol)."""
        sub = m.JSON_SUBPROTOCOL if json else m.SUBPROTOCOL
        ws = await connect(
            f"ws://127.0.0.1:{port}/",
            subprotocols=[sub],  # type: ignore[list-item]
            max_size=None,
            open_timeout=10,
            **kw,
        )
        assert ws.subprotocol == sub
        client = cls(ws)
        client.json = json
        if name is not None:
            welcome = await client.request("hello", protocol=list(protocol), client=name)
            assert welcome.type == "welcome", welcome
        return client

    async def _read(self) -> None:
        try:
            async for frame in self.ws:
                self.raw.append(frame)
                if self.json and isinstance(frame, str):  # the same map, as msgpack
                    frame = msgpack.packb(_json.loads(frame))
                msg = decode_server(frame) if isinstance(frame, bytes) else None
                self.msgs.append(msg)
                self._changed.set()
        except ConnectionClosed:
            pass
        finally:
            self.closed.set()
            self._changed.set()

    # ------------------------------------------------------------------ sending
    def next_id(self) -> int:
        return next(self._ids)

    async def send(self, type: str, **fields: Any) -> int:
        """Send a client message (``id`` added unless given); returns its id."""
        msg_id = fields.pop("id", None)
        if msg_id is None:
            msg_id = self.next_id()
        message = {"type": type, "id": msg_id, **fields}
        await self.send_raw(_json.dumps(message) if self.json else msgpack.packb(message))
        return int(msg_id)

    async def send_raw(self, frame: bytes | str) -> None:
        await self.ws.send(frame)

    async def request(self, type: str, timeout: float = REPLY_WITHIN, **fields: Any) -> Any:
        """Send and return the message that answers it (``re`` equal to its id)."""
        msg_id = await self.send(type, **fields)
        return await self.wait_for(lambda x: getattr(x, "re", None) == msg_id, timeout=timeout)

    # ------------------------------------------------------------------ reading
    async def wait_for(self, pred: Pred, *, start: int = 0, timeout: float = REPLY_WITHIN) -> Any:
        """The first message from index ``start`` on satisfying ``pred`` (waits for it)."""
        i = start
        async with asyncio.timeout(timeout):
            while True:
                while i < len(self.msgs):
                    if self.msgs[i] is not None and pred(self.msgs[i]):
                        return self.msgs[i]
                    i += 1
                if self.closed.is_set():
                    raise ConnectionError(f"closed before the awaited message: {self.tail()}")
                self._changed.clear()
                await self._changed.wait()

    async def wait_until(self, cond: Callable[[], bool], *, timeout: float = REPLY_WITHIN) -> None:
        """Wait until ``cond()`` holds, checking it again after every frame."""
        async with asyncio.timeout(timeout):
            while not cond():
                if self.closed.is_set():
                    raise ConnectionError(f"closed while waiting: {self.tail()}")
                self._changed.clear()
                await self._changed.wait()

    async def wait_type(self, type: str, *, start: int = 0, timeout: float = REPLY_WITHIN) -> Any:
        return await self.wait_for(lambda x: x.type == type, start=start, timeout=timeout)

    def of_type(self, type: str) -> list[Any]:
        return [x for x in self.msgs if x is not None and x.type == type]

    def latest_view(self) -> Any:
        views = self.of_type("view")
        return views[-1] if views else None

    def shows(self, state_version: int) -> bool:
        """Its latest view is of ``state_version`` (not yet, before its first view)."""
        view = self.latest_view()
        return view is not None and bool(view.state_version == state_version)

    def tail(self, n: int = 3) -> list[Any]:
        return self.msgs[-n:]

    async def wait_closed(self, timeout: float = REPLY_WITHIN) -> tuple[int | None, str | None]:
        """Wait for the server to close; returns (code, reason) it sent."""
        async with asyncio.timeout(timeout):
            await self.closed.wait()
        rcvd = self.ws.close_code, self.ws.close_reason
        return rcvd

    async def ping(self, timeout: float = REPLY_WITHIN) -> None:
        """A round trip: when the pong comes, every earlier frame has been handled."""
        pong = await self.request("ping", timeout=timeout)
        assert pong.type == "pong", pong

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self.ws.close()
        # asyncio.wait, not wait_for: on Python 3.11 wait_for loses a cancellation of
        # this task that comes as the reader ends (see server.aio)
        await asyncio.wait({self._reader}, timeout=5)

    def abort(self) -> None:
        """Drop the connection abruptly (no closing handshake)."""
        self.ws.transport.abort()


# ---------------------------------------------------------------------- tables
async def create(
    client: WsClient, player: str | None = "p0", **fields: Any
) -> tuple[str, str | None, str | None]:
    """create_table (sitting down when ``player`` is given): (table id, invite, token)."""
    fields.setdefault("name", "test table")
    created = await client.request("create_table", player=player, **fields)
    assert created.type == "table_created", created
    token = None
    if player is not None:
        joined = await client.wait_type("joined")
        token = joined.token
    return created.table.id, created.invite, token


async def join(client: WsClient, table: str, player: str, **fields: Any) -> tuple[int, str]:
    """join a table: (seat, token)."""
    joined = await client.request("join", table=table, player=player, **fields)
    assert joined.type == "joined", joined
    return joined.seat, joined.token


async def human_table(
    port: int,
    players: int = 2,
    compression: str | None = None,
    *,
    minors: tuple[int, ...] = (0, 0, 0),
    create_fields: dict[str, Any] | None = None,
    **options: Any,
) -> tuple[str, list[WsClient], list[str]]:
    """A table of ``players`` connected humans, all ready: the game has started. Seat
    ``i`` speaks protocol 1.``minors[i]``; ``create_fields`` go into ``create_table``."""
    clients = [
        await WsClient.open(port, f"p{i}", (1, minors[i]), compression=compression)
        for i in range(players)
    ]
    fields = create_fields or {}
    table, _, token = await create(clients[0], options={"players": players, **options}, **fields)
    assert token is not None
    tokens = [token]
    seeded = {"seeded": True} if "seed" in options else {}
    for i, c in enumerate(clients[1:], 1):
        seat, tok = await join(c, table, f"p{i}", **seeded)
        assert seat == i
        tokens.append(tok)
    for c in clients:
        await c.send("ready")
    for c in clients:
        await c.wait_type("view")
    return table, clients, tokens


def random_take(view: Any, rng: random.Random) -> dict[str, Any]:
    """Fields of a random legal ``take`` for a view model whose seat is to move."""
    choice = rng.choice(view.choices)
    fields: dict[str, Any] = {"state_version": 0, "card": choice.card}
    if choice.ends_game:
        fields["keep"] = rng.random() < 0.5
    elif choice.symbol is not None:
        fields["special"] = rng.random() < 0.6
        if choice.symbol == "explode" and fields["special"] and len(view.explodable) > 1:
            fields["targets"] = rng.sample(view.explodable, rng.randint(0, 2))
    return fields


async def play_seat(
    client: WsClient,
    seat: int,
    rng: random.Random,
    *,
    max_takes: int | None = None,
    takes: list[tuple[int, dict[str, Any]]] | None = None,
    hints: float = 0.0,
) -> Any:
    """Play random legal takes for ``seat`` until the game is over (or ``max_takes``
    takes were made); returns the last view message. Acts only on the newest view.
    ``takes`` collects (state version decided on, take fields) of every acked take.
    ``hints``: how often to ask for a hint first (1.5, a table that allows them)."""
    done = 0
    acted = -1

    def my_move() -> bool:
        v = client.latest_view()
        return (
            v is not None
            and v.state_version > acted
            and (v.view.game_over or v.view.to_move == seat)
        )

    while True:
        await client.wait_until(my_move, timeout=30)
        view_msg = client.latest_view()
        if view_msg.view.game_over or (max_takes is not None and done >= max_takes):
            return view_msg
        if hints and rng.random() < hints:
            hint = await client.request("ask_hint")
            assert hint.type == "hint" or hint.code == "rate_limited", hint
        fields = random_take(view_msg.view, rng)
        fields["state_version"] = view_msg.state_version
        ack = await client.request("take", **fields)
        assert ack.type == "ack", (ack, fields)
        assert ack.state_version == view_msg.state_version + 1
        if takes is not None:
            takes.append((view_msg.state_version, fields))
        acted = view_msg.state_version
        done += 1


async def http_get(
    port: int, path: str = "/healthz", headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], bytes]:
    """A plain HTTP/1.1 GET over a raw socket, with ``headers``: (status, headers, body)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    extra = "".join(f"{k}: {v}\r\n" for k, v in (headers or {}).items())
    writer.write(
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{extra}Connection: close\r\n\r\n".encode()
    )
    await writer.drain()
    async with asyncio.timeout(10):
        data = await reader.read(-1)
    writer.close()
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:] if ": " in line)
    return int(lines[0].split()[1]), {k.lower(): v for k, v in headers.items()}, body


async def advance(clients: list[WsClient], rng: random.Random, takes: int) -> int:
    """Make up to ``takes`` random legal takes, each by whichever seat is to move
    (``clients[seat]``); returns the state version reached."""
    version = max(c.latest_view().state_version for c in clients)
    for _ in range(takes):
        await clients[0].wait_until(lambda v=version: clients[0].latest_view().state_version >= v)
        view = clients[0].latest_view().view
        if view.game_over:
            break
        actor = clients[view.to_move]
        await actor.wait_until(lambda a=actor, v=version: a.latest_view().state_version >= v)
        fields = random_take(actor.latest_view().view, rng)
        ack = await actor.request("take", **{**fields, "state_version": version})
        assert ack.type == "ack", ack
        version = ack.state_version
    return version


FEW_SAMPLES = AnalysisBounds(budget=4, workers=0, queue=64, per_hour=1e9, burst=10**9)
"""Analyses of 4 samples a decision (a game's in a fraction of a second), in a thread,
with no budget per address or player and a long line (many games at once)."""


@contextlib.asynccontextmanager
async def serving(db: str | Path, **config: Any) -> AsyncIterator[Server]:
    """A started server (port 0) on the store ``db`` (a SQLite file or a PostgreSQL
    URL, see ``server.store.open_store``), stopped on exit."""
    config.setdefault("quotas", NO_QUOTAS)  # many players from one address
    config.setdefault("signin", NO_ADDRESS_BOUNDS)  # and sign-ins too
    config.setdefault("analysis", FEW_SAMPLES)  # and analyses, quick and in a thread
    server = Server(ServerConfig(port=0, ping_interval=None, **config), open_store(db))
    await server.start()
    try:
        yield server
    finally:
        await server.stop()
