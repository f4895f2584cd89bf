"""Unread output is bounded in bytes, whatever fills it (finding 1 of the hostile-client
review): a raw client flooding WebSocket pings and never reading made the library's
pongs pile up (400 MB in 10 s, held for minutes); a client that stops reading after its
output passed the limit was marked closing but never closed. Both are dropped now."""

from __future__ import annotations

import asyncio
import os
import socket
import threading
import time

import msgpack  # type: ignore[import-untyped]

from protocol import messages as m
from tests.helpers.servers import MakeServer

from .wsclient import WsClient, http_get

SEND_BUFFER = 4096
"""The servers' ``send_buffer`` here: the kernel buffers little of what is unread."""

HANDSHAKE = (
    "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
    f"Sec-WebSocket-Protocol: {m.SUBPROTOCOL}\r\n\r\n"
).encode()


def raw_client(port: int) -> socket.socket:
    """A WebSocket connection made by hand, with a tiny receive buffer it never reads."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.settimeout(10)
    sock.connect(("127.0.0.1", port))
    sock.sendall(HANDSHAKE)
    head = b""
    while b"\r\n\r\n" not in head:
        head += sock.recv(1)  # byte by byte: nothing after the response is read
    assert head.startswith(b"HTTP/1.1 101"), head
    return sock


def masked(opcode: int, payload: bytes) -> bytes:
    """A client frame (FIN set, zero mask key: the payload goes as it is)."""
    assert len(payload) < 126
    return bytes((0x80 | opcode, 0x80 | len(payload))) + b"\0\0\0\0" + payload


def flood(sock: socket.socket, chunk: bytes, seconds: float, sent: list[int]) -> None:
    deadline = time.monotonic() + seconds
    try:
        while time.monotonic() < deadline:
            sock.sendall(chunk)
            sent[0] += len(chunk)
    except OSError:  # reset: the server dropped us
        pass


async def test_a_ping_flood_that_never_reads_is_dropped(make_server: MakeServer) -> None:
    """With the incoming byte rate allowed high (this is about the pongs piling up)."""
    limits = m.DEFAULT_LIMITS.model_copy(update={"rate_messages": 100_000})
    # a small kernel send buffer (send_buffer): the pongs pass it, and the kernel's
    # own, which grows to 4 MiB, took up to a minute to fill on a loaded machine
    server = await make_server(max_output=256 * 1024, limits=limits, send_buffer=SEND_BUFFER)
    sock = await asyncio.to_thread(raw_client, server.port)
    pings = masked(0x9, os.urandom(125)) * 2000  # 262 KB of pings, as many pongs owed
    sent = [0]
    flooder = threading.Thread(target=flood, args=(sock, pings, 60.0, sent), daemon=True)
    flooder.start()
    try:
        async with asyncio.timeout(60):
            while server.unread_drops == 0:
                await asyncio.sleep(0.05)
            while server.tcp_open:  # the connection is gone, its buffers with it
                await asyncio.sleep(0.05)
        assert sent[0] < 100 * 1024 * 1024, "dropped only after a flood of 100 MB"
        status, _, _ = await http_get(server.port)  # the server is fine
        assert status == 200
        other = await WsClient.open(server.port)
        await other.ping()
        await other.close()
    finally:
        sock.close()
        await asyncio.to_thread(flooder.join, 5)


async def test_a_ping_flood_is_dropped_by_its_byte_rate(make_server: MakeServer) -> None:
    """Pings are answered by the library, past the message rate limit: the bytes a
    connection sends are limited too (max_frame x rate_messages a second), so a flood
    costs the server a bounded share of its CPU. (Unread output may pass 64 MiB here:
    the flood never reads its pongs, and with the default max_output their backlog could
    drop it, as unread, before its bytes passed their rate on a loaded machine.)"""
    # A quarter of the default byte rate: with every core busy, the server (logging each
    # ping at DEBUG under pytest) once read only 300 KB/s, under the default's 327 KB/s
    limits = m.DEFAULT_LIMITS.model_copy(update={"max_frame": 4096})
    server = await make_server(max_output=64 * 1024 * 1024, limits=limits)
    sock = await asyncio.to_thread(raw_client, server.port)
    sent = [0]
    flooder = threading.Thread(
        target=flood, args=(sock, masked(0x9, b"x" * 125) * 1000, 20.0, sent), daemon=True
    )
    flooder.start()
    try:
        async with asyncio.timeout(20):
            while server.flood_drops == 0:
                await asyncio.sleep(0.05)
        cfg = server.config
        allowed = cfg.limits.max_frame * cfg.limits.rate_messages
        assert sent[0] < 10 * allowed + 8 * 1024 * 1024  # burst, plus what sockets hold
        # the flood's address (ours too) gets no new connection until it refilled
        assert server.health()["flood_drops"] >= 1
        await asyncio.sleep(1.5)
        status, _, _ = await http_get(server.port)
        assert status == 200
    finally:
        sock.close()
        await asyncio.to_thread(flooder.join, 5)


async def test_a_client_that_stops_reading_is_dropped_not_kept(make_server: MakeServer) -> None:
    """Output past the limit: the backlog is dropped and a bye queued; a client that
    still reads nothing loses the connection CLOSE_GRACE seconds later (before, it was
    kept open, its bye and close stuck behind a socket that never drained)."""
    limits = m.DEFAULT_LIMITS.model_copy(update={"rate_messages": 10_000, "rate_burst": 10_000})
    server = await make_server(
        max_output=16_384, write_limit=4096, limits=limits, send_buffer=SEND_BUFFER
    )
    sock = await asyncio.to_thread(raw_client, server.port)
    hello = msgpack.packb({"type": "hello", "id": 1, "protocol": [1, 0], "client": "mute"})
    await asyncio.to_thread(sock.sendall, bytes((0x82, 0x80 | len(hello))) + b"\0\0\0\0" + hello)
    chat = msgpack.packb({"type": "ping", "id": 2})
    frame = bytes((0x82, 0x80 | len(chat))) + b"\0\0\0\0" + chat
    pings = 0
    try:
        async with asyncio.timeout(60):
            while not server.sessions:
                await asyncio.sleep(0.01)
            (session,) = server.sessions
            while not session.closing:  # pongs (our own): the queue passes max_output
                await asyncio.to_thread(sock.sendall, frame * 200)
                pings += 200
            closed_at = time.monotonic()
            while server.sessions or server.tcp_open:
                await asyncio.sleep(0.05)
        assert time.monotonic() - closed_at < 10
        # the socket's send buffer was the one set: with the kernel's own (up to 4 MiB)
        # some 160,000 pongs of 26 bytes went before the queue grew at all
        assert pings < 20_000, pings
    finally:
        sock.close()
