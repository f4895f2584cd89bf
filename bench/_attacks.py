"""Hostile and careless clients, each as fast as the server lets it, and the probe that
measures what a normal player sees meanwhile: shared by ``bench/abuse.py`` (figures)
and the hostile-client soak (``tests/server/test_hostile_soak.py``).

Every attack is ``async def attack(port, stop) -> dict`` and runs until ``stop`` is set,
on loopback only, reconnecting when the server drops it; the returned counters say what
it managed. ``Probe`` plays an ordinary two-player game (new tables as games end) and
asks ``/healthz`` twice a second, recording take-to-ack times and health answers.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import socket
import threading
import time
from collections.abc import Awaitable, Callable
from typing import Any

import msgpack  # type: ignore[import-untyped]
from websockets.asyncio.client import ClientConnection, connect

from protocol import messages as m
from protocol.codec import decode_server

Attack = Callable[[int, asyncio.Event], Awaitable[dict[str, int]]]
ATTACKER = "127.0.0.2"
"""Attacks come from this loopback address (Linux routes all of 127/8 to loopback), the
probe from 127.0.0.1: to the server they are different peers, as they would be."""
HELLO = {"type": "hello", "id": 1, "protocol": [1, 0], "client": "attacker"}
HANDSHAKE = (
    "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
    f"Sec-WebSocket-Protocol: {m.SUBPROTOCOL}\r\n\r\n"
).encode()


def client_frame(opcode: int, payload: bytes) -> bytes:
    """A masked client frame (zero mask key), FIN set."""
    n = len(payload)
    if n < 126:
        head = bytes((0x80 | opcode, 0x80 | n))
    elif n < 0x10000:
        head = bytes((0x80 | opcode, 0x80 | 126)) + n.to_bytes(2, "big")
    else:
        head = bytes((0x80 | opcode, 0x80 | 127)) + n.to_bytes(8, "big")
    return head + b"\0\0\0\0" + payload


def raw_websocket(port: int, rcvbuf: int = 4096) -> socket.socket:
    """A WebSocket made by hand (blocking), with a small receive buffer it never reads
    beyond the handshake."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.bind((ATTACKER, 0))
    sock.settimeout(10)
    sock.connect(("127.0.0.1", port))
    sock.sendall(HANDSHAKE)
    head = b""
    while b"\r\n\r\n" not in head:
        byte = sock.recv(1)
        if not byte:
            raise ConnectionError("closed during the handshake")
        head += byte
    if not head.startswith(b"HTTP/1.1 101"):
        raise ConnectionError(head.split(b"\r\n")[0].decode("latin-1"))
    return sock


async def open_client(
    port: int, name: str = "attacker", source: str = ATTACKER, minor: int = 0, **kw: Any
) -> ClientConnection:
    ws = await connect(
        f"ws://127.0.0.1:{port}/",
        subprotocols=[m.SUBPROTOCOL],  # type: ignore[list-item]
        max_size=None,
        open_timeout=20,
        local_addr=(source, 0),
        **kw,
    )
    await ws.send(msgpack.packb({**HELLO, "client": name, "protocol": [1, minor]}))
    return ws


def _in_thread(body: Callable[[threading.Event, dict[str, int], int], None]) -> Attack:
    """Run a blocking attack loop in a thread until ``stop``."""

    async def run(port: int, stop: asyncio.Event) -> dict[str, int]:
        done = threading.Event()
        counts: dict[str, int] = {}
        thread = threading.Thread(target=body, args=(done, counts, port), daemon=True)
        thread.start()
        await stop.wait()
        done.set()
        await asyncio.to_thread(thread.join, 15)
        return counts

    return run


def _ping_flood(done: threading.Event, counts: dict[str, int], port: int) -> None:
    pings = client_frame(0x9, os.urandom(125)) * 2000
    while not done.is_set():
        try:
            sock = raw_websocket(port)
        except OSError:
            counts["refused"] = counts.get("refused", 0) + 1
            time.sleep(0.05)
            continue
        counts["connections"] = counts.get("connections", 0) + 1
        try:
            while not done.is_set():
                sock.sendall(pings)
                counts["bytes_sent"] = counts.get("bytes_sent", 0) + len(pings)
        except OSError:
            counts["dropped"] = counts.get("dropped", 0) + 1
        finally:
            sock.close()


ping_flood = _in_thread(_ping_flood)
"""Finding 1: WebSocket pings as fast as the socket takes them, never reading a pong."""


def _log_flood(done: threading.Event, counts: dict[str, int], port: int) -> None:
    bad = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n\x00\xffjunk after the headers"
    while not done.is_set():
        try:
            with socket.create_connection(
                ("127.0.0.1", port), timeout=5, source_address=(ATTACKER, 0)
            ) as sock:
                sock.sendall(bad)
                answer = b""
                while chunk := sock.recv(4096):
                    answer += chunk
            counts["requests"] = counts.get("requests", 0) + 1
            if answer.startswith(b"HTTP/1.1 200 "):
                counts["answered"] = counts.get("answered", 0) + 1
        except OSError:
            counts["failed"] = counts.get("failed", 0) + 1


log_flood = _in_thread(_log_flood)
"""Finding 7: ``/healthz`` with bytes after its headers, which made the WebSocket library
fail with a traceback and no answer; now each is answered (``answered``)."""


async def slow_handshakes(port: int, stop: asyncio.Event, n: int = 1100) -> dict[str, int]:
    """Finding 8: ``n`` TCP connections that never send their request, reopened as the
    server drops them."""
    counts = {"opened": 0}
    loop = asyncio.get_running_loop()
    socks: list[socket.socket] = []
    try:
        while not stop.is_set():
            socks = [s for s in socks if s.fileno() >= 0]
            while len(socks) < n and not stop.is_set():
                sock = socket.socket()
                sock.bind((ATTACKER, 0))
                sock.setblocking(False)
                try:
                    await loop.sock_connect(sock, ("127.0.0.1", port))
                except OSError:
                    sock.close()
                    await asyncio.sleep(0.01)
                    continue
                socks.append(sock)
                counts["opened"] += 1
            await asyncio.sleep(0.2)
            for sock in socks:  # dropped by the server? (a read of 0 bytes, or a reset)
                try:
                    if sock.recv(1, socket.MSG_PEEK) == b"":
                        sock.close()
                except BlockingIOError:
                    pass
                except OSError:
                    sock.close()
    finally:
        for sock in socks:
            sock.close()
    return counts


async def _flood_requests(
    port: int, stop: asyncio.Event, make: Callable[[int], dict[str, Any]], conns: int, rate: float
) -> dict[str, int]:
    """``conns`` connections each sending ``make(i)`` at ``rate`` per second (the rate
    limit's pace), counting the answers and refusals that have come meanwhile."""
    counts = {"sent": 0, "answers": 0, "refused": 0, "closed": 0}

    async def one(k: int) -> None:
        while not stop.is_set():
            try:
                async with await open_client(port, f"flood{k}") as ws:
                    await flood(ws)
            except Exception:
                counts["closed"] += 1
                await asyncio.sleep(0.1)

    async def flood(ws: ClientConnection) -> None:
        i = 2
        while not stop.is_set():
            await ws.send(msgpack.packb({**make(i), "id": i}))
            counts["sent"] += 1
            i += 1
            with contextlib.suppress(TimeoutError):  # take what has come, without waiting
                while True:
                    msg = decode_server(await asyncio.wait_for(ws.recv(), 0.0001))  # type: ignore[arg-type]
                    counts["refused" if msg.type == "error" else "answers"] += 1
            await asyncio.sleep(1 / rate)

    await asyncio.gather(*(one(k) for k in range(conns)))
    return counts


async def list_flood(port: int, stop: asyncio.Event) -> dict[str, int]:
    """Finding 2: three connections asking for the biggest listing pages at the rate limit."""
    return await _flood_requests(
        port, stop, lambda i: {"type": "list_tables", "limit": m.MAX_PAGE}, 3, 19.0
    )


async def table_flood(port: int, stop: asyncio.Event) -> dict[str, int]:
    """Finding 4: fourteen connections creating tables as fast as they may."""
    name = "a table with a long name to take room " * 2
    return await _flood_requests(
        port, stop, lambda i: {"type": "create_table", "name": name[:48]}, 14, 19.0
    )


async def bot_flood(port: int, stop: asyncio.Event) -> dict[str, int]:
    """Finding 5: three-seat games of hard bots only, as fast as the rate limit allows."""
    bots = [{"seat": s, "level": "hard"} for s in range(3)]
    return await _flood_requests(
        port,
        stop,
        lambda i: {"type": "create_table", "name": "bots", "options": {"players": 3}, "bots": bots},
        1,
        19.0,
    )


ATTACKS: dict[str, Attack] = {
    "ping flood, never reading": ping_flood,
    "list_tables, biggest pages": list_flood,
    "create_table, 14 connections": table_flood,
    "hard bot games": bot_flood,
    "1,100 silent handshakes": slow_handshakes,
    "log flood (bad /healthz)": log_flood,
}


# ---------------------------------------------------------------------- sign-in
SIGNIN_NAME = "Ada"
"""The registered name the sign-in floods guess secrets of (``abuse.py`` registers it)."""


async def _signin_flood(port: int, stop: asyncio.Event, sources: list[str]) -> dict[str, int]:
    """20 connections from ``sources`` (in turn), each reconnecting as fast as it can:
    hello in 1.3, a wrong ``sign_in`` of ``SIGNIN_NAME``, and close at once without
    waiting for the answer (its work, if queued, is a closed connection's), except every
    fourth, which reads its answer to count it."""
    counts = {"sent": 0, "bad_secret": 0, "rate_limited": 0, "closed_early": 0, "failed": 0}

    async def one(k: int) -> None:
        n = 0
        while not stop.is_set():
            n += 1
            try:
                ws = await open_client(port, f"guess{k}", sources[k % len(sources)], 3)
                async with ws:
                    guess = {"type": "sign_in", "id": 2, "name": SIGNIN_NAME}
                    await ws.send(msgpack.packb({**guess, "secret": os.urandom(24).hex()}))
                    counts["sent"] += 1
                    if n % 4:
                        counts["closed_early"] += 1
                        continue
                    async with asyncio.timeout(30):
                        while True:
                            msg = decode_server(await ws.recv())  # type: ignore[arg-type]
                            if getattr(msg, "re", None) == 2:
                                key = getattr(msg, "code", msg.type)
                                counts[key] = counts.get(key, 0) + 1
                                break
            except Exception:
                counts["failed"] += 1
                await asyncio.sleep(0.05)

    await asyncio.gather(*(one(k) for k in range(20)))
    return counts


async def signin_flood(port: int, stop: asyncio.Event) -> dict[str, int]:
    """Issue finding: 20 reconnecting connections of one address guessing secrets."""
    return await _signin_flood(port, stop, [ATTACKER])


async def signin_flood_spread(port: int, stop: asyncio.Event) -> dict[str, int]:
    """The same from 20 addresses (127.0.4.1-20): each with a budget of its own, so it
    is the overall queue's bound that holds."""
    return await _signin_flood(port, stop, [f"127.0.4.{k + 1}" for k in range(20)])


SIGNIN_ATTACKS: dict[str, Attack] = {
    "sign-in guesses, 1 address": signin_flood,
    "sign-in guesses, 20 addresses": signin_flood_spread,
}


# ---------------------------------------------------------------------- the probe
async def http_health(port: int, timeout: float = 2.0) -> float | None:
    """Seconds ``/healthz`` took to answer 200, or None."""
    start = time.perf_counter()
    try:
        async with asyncio.timeout(timeout):
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            data = await reader.read(-1)
            writer.close()
    except (OSError, TimeoutError):
        return None
    return time.perf_counter() - start if data.startswith(b"HTTP/1.1 200") else None


class Probe:
    """A normal two-player game (one take every ``pace`` seconds) and the health check."""

    def __init__(self, port: int, pace: float = 0.05) -> None:
        self.port = port
        self.pace = pace
        self.acks: list[float] = []
        self.health: list[float | None] = []
        self.errors = 0

    async def run(self, stop: asyncio.Event) -> None:
        await asyncio.gather(self._play(stop), self._health(stop))

    async def _health(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            self.health.append(await http_health(self.port))
            await asyncio.sleep(0.5)

    async def _play(self, stop: asyncio.Event) -> None:
        rng = random.Random(1)
        while not stop.is_set():
            try:
                await self._one_game(stop, rng)
            except Exception:
                self.errors += 1
                await asyncio.sleep(0.2)

    async def _one_game(self, stop: asyncio.Event, rng: random.Random) -> None:
        a = await open_client(self.port, "probe-a", source="127.0.0.1")
        b = await open_client(self.port, "probe-b", source="127.0.0.1")
        try:
            inbox: dict[ClientConnection, list[Any]] = {a: [], b: []}

            async def until(ws: ClientConnection, pred: Callable[[Any], bool]) -> Any:
                async with asyncio.timeout(20):
                    while True:
                        for msg in inbox[ws]:
                            if pred(msg):
                                inbox[ws].remove(msg)
                                return msg
                        inbox[ws].append(decode_server(await ws.recv()))  # type: ignore[arg-type]

            await a.send(
                msgpack.packb({"type": "create_table", "id": 2, "name": "probe", "player": "a"})
            )
            created = await until(a, lambda x: x.type == "table_created")
            join = {"type": "join", "id": 2, "table": created.table.id, "player": "b"}
            await b.send(msgpack.packb(join))
            await until(b, lambda x: x.type == "joined")
            for ws in (a, b):
                await ws.send(msgpack.packb({"type": "ready", "id": 3}))
            seats = {0: a, 1: b}
            ids = 10
            version = 0
            while not stop.is_set():
                views = [
                    await until(ws, lambda x, n=version: x.type == "view" and x.state_version >= n)
                    for ws in (a, b)
                ]
                v = views[0].view
                if v.game_over:
                    return
                actor = seats[v.to_move]
                own = views[v.to_move].view
                choice = rng.choice(own.choices)
                take: dict[str, Any] = {"type": "take", "id": ids, "card": choice.card}
                take["state_version"] = version
                if choice.ends_game:
                    take["keep"] = True
                ids += 1
                start = time.perf_counter()
                await actor.send(msgpack.packb(take))
                ack = await until(actor, lambda x, i=ids - 1: getattr(x, "re", None) == i)
                if ack.type != "ack":
                    self.errors += 1
                    return
                self.acks.append(time.perf_counter() - start)
                version = ack.state_version
                await asyncio.sleep(self.pace)
        finally:
            for ws in (a, b):
                with contextlib.suppress(Exception):
                    await ws.close()


def percentile(xs: list[float], q: float) -> float:
    ys = sorted(xs)
    if not ys:
        return float("nan")
    return ys[min(len(ys) - 1, int(q * len(ys)))]
