"""Operations (issue 4, test 5): /healthz, the ``kupferkessel serve`` process (signals,
close codes, JSON logs without tokens), connection and table limits, versions."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import socket

import msgpack  # type: ignore[import-untyped]
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from protocol import messages as m
from protocol.codec import decode_server
from server.app import Server
from tests.helpers.processes import ServeProcess
from tests.helpers.servers import MakeServer

from .wsclient import WsClient, create, http_get, human_table, play_seat


async def test_healthz_counts(server: Server) -> None:
    status, headers, body = await http_get(server.port)
    assert status == 200 and headers["content-type"] == "application/json"
    counts = json.loads(body)
    assert counts["status"] == "ok"
    assert (counts["tables"], counts["games_running"], counts["connections"]) == (0, 0, 0)
    _, clients, _ = await human_table(server.port, 2)
    watcher = await WsClient.open(server.port, "w")
    counts = json.loads((await http_get(server.port))[2])
    assert (counts["tables"], counts["games_running"], counts["connections"]) == (1, 1, 3)
    for c in [*clients, watcher]:
        await c.close()


async def raw_http(port: int, data: bytes, *, eof: bool = False) -> bytes:
    """Send ``data`` over a raw socket (then end the stream if ``eof``); all the answer."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(data)
    if eof:
        writer.write_eof()
    await writer.drain()
    async with asyncio.timeout(10):
        answer = await reader.read(-1)
    writer.close()
    return answer


HEALTHZ = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
UPGRADE = (
    b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
    b"Sec-WebSocket-Protocol: kupferkessel.v1\r\n\r\n"
)


@pytest.mark.parametrize(
    ("after", "eof"),
    [
        (b"\x00\xffjunk after the headers", False),  # a body the request did not declare
        (HEALTHZ, False),  # a pipelined request
        (b"", True),  # the stream ends after the request (nc -N, shutdown(SHUT_WR))
        (b"x" * 70_000, False),  # more than a WebSocket frame may hold
    ],
    ids=["junk", "pipelined", "eof", "large"],
)
async def test_healthz_answers_whatever_follows_the_headers(
    server: Server, after: bytes, eof: bool
) -> None:
    """Finding 7 of issue 14: bytes after the headers made the library fail the
    connection before its answer (an assertion in its handshake): no answer at all."""
    # in pieces too: the end of the head split across reads
    for pieces in ([HEALTHZ + after], [HEALTHZ[:-3], HEALTHZ[-3:] + after]):
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        for piece in pieces:
            writer.write(piece)
            await writer.drain()
            await asyncio.sleep(0.01)
        if eof:
            writer.write_eof()
        async with asyncio.timeout(10):
            answer = await reader.read(-1)
        writer.close()
        head, _, body = answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 200 OK\r\n"), answer[:200]
        assert b"\r\nConnection: close" in head  # a pipelined request is not answered
        assert json.loads(body)["status"] == "ok"  # one answer, nothing after it
    async with asyncio.timeout(5):  # and the server lets go of the connections at once
        while server.tcp_open:
            await asyncio.sleep(0.01)
    status, _, _ = await http_get(server.port)
    assert status == 200


@pytest.mark.parametrize("eof", [False, True], ids=["data", "eof"])
async def test_a_handshake_with_data_before_the_answer_is_refused(
    server: Server, eof: bool
) -> None:
    """A WebSocket client waits for the handshake's answer before sending (RFC 6455,
    4.1): data or the end of the stream before it gets a clear 400, not a dead socket."""
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    writer.write(UPGRADE)  # the same head alone is accepted
    async with asyncio.timeout(10):
        accepted = await reader.readuntil(b"\r\n\r\n")
    writer.close()
    assert accepted.startswith(b"HTTP/1.1 101 "), accepted
    frame = b"\x82\x80\x00\x00\x00\x00"  # an empty masked binary frame, too early
    answer = await raw_http(server.port, UPGRADE + (b"" if eof else frame), eof=eof)
    assert answer.startswith(b"HTTP/1.1 400 Bad Request\r\n"), answer[:200]
    assert b"Data after the request headers" in answer
    status, _, _ = await http_get(server.port)
    assert status == 200


@pytest.mark.e2e
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
async def test_serve_process_stops_cleanly_and_logs_no_token(sig: int) -> None:
    serve = await ServeProcess.start()
    try:
        port = serve.port.result()
        player = await WsClient.open(port, "alice")
        _, _, token = await create(player, bots=[{"seat": 1, "level": "easy"}])
        assert token is not None
        await player.send("ready")
        final = await play_seat(player, 0, random.Random(sig))
        assert final.view.game_over
        idle = await WsClient.open(port, "bob")  # still connected at shutdown
        await idle.ping()
        code = await serve.stop(sig)
    finally:
        if serve.proc.returncode is None:
            serve.proc.kill()
            await serve.proc.wait()
    assert code == 0
    for client in (player, idle):
        bye = await client.wait_type("bye")
        assert bye.reason == "shutdown"
        assert (await client.wait_closed())[0] == 1001
    records = serve.records()  # every line is a JSON object
    msgs = [r["msg"] for r in records]
    for expected in (
        "listening",
        "connect",
        "hello",
        "seated",
        "game started",
        "game finished",
        "disconnect",
        "shutting down",
    ):
        assert expected in msgs, expected
    assert all({"ts", "level", "logger", "msg"} <= r.keys() for r in records)
    log_text = "".join(serve.lines)
    assert token not in log_text


async def test_connection_limit(make_server: MakeServer) -> None:
    server = await make_server(max_connections=2)
    a = await WsClient.open(server.port, "a")
    b = await WsClient.open(server.port, "b")
    c = await WsClient.open(server.port, None)
    code, reason = await c.wait_closed()
    assert code == 1013 and reason is not None and reason.startswith("server_full")
    assert [x.reason for x in c.of_type("bye")] == ["server_full"]
    await a.ping()
    await b.close()
    async with asyncio.timeout(5):
        while len(server.sessions) > 1:
            await asyncio.sleep(0.01)
    again = await WsClient.open(server.port, "again")
    await again.ping()
    await again.close()
    await a.close()


async def test_table_limit(make_server: MakeServer) -> None:
    server = await make_server(max_tables=1)
    a = await WsClient.open(server.port, "a")
    await create(a, player=None)
    err = await a.request("create_table", name="second")
    assert err.type == "error" and err.code == "server_full"
    await a.close()


async def test_version_unsupported_then_clean_close(server: Server) -> None:
    c = await WsClient.open(server.port, None)
    err = await c.request("hello", protocol=[2, 0], client="future")
    assert err.type == "error" and err.code == "version_unsupported"
    assert "1.x" in err.message and "2.0" in err.message and err.detail == "1"
    bye = await c.wait_type("bye")
    assert bye.reason == "version_unsupported"
    code, _ = await c.wait_closed()
    assert code == 1000


async def test_newer_minor_version_is_welcome(server: Server) -> None:
    c = await WsClient.open(server.port, None)
    welcome = await c.request("hello", protocol=[1, 9], client="newer")
    assert welcome.type == "welcome" and tuple(welcome.protocol) == m.PROTOCOL_VERSION
    await c.close()


@pytest.mark.parametrize("offered", [None, ["kupferkessel.v2"]])
async def test_handshake_needs_the_subprotocol(server: Server, offered: list[str] | None) -> None:
    with pytest.raises(InvalidStatus) as e:
        await connect(f"ws://127.0.0.1:{server.port}/", subprotocols=offered)  # type: ignore[arg-type]
    assert e.value.response.status_code == 400


async def test_idle_connection_is_closed(make_server: MakeServer) -> None:
    server = await make_server(limits=m.DEFAULT_LIMITS.model_copy(update={"idle_timeout": 1}))
    c = await WsClient.open(server.port, "sleepy")
    bye = await c.wait_type("bye", timeout=5)
    assert bye.reason == "idle"
    assert (await c.wait_closed())[0] == 1000


async def test_too_slow_reader_is_closed_1013(make_server: MakeServer) -> None:
    """A client that stops reading: frames first pile up in the sockets, then in the
    session's outgoing queue; once that passes ``max_output`` bytes the server drops the
    backlog, sends ``bye`` too_slow and closes with 1013, and nothing else breaks. The
    client reads nothing (``max_queue=1`` stops its library reading the socket) and has
    a small receive buffer, so the stall comes quickly."""
    limits = m.DEFAULT_LIMITS.model_copy(update={"rate_messages": 10_000, "rate_burst": 10_000})
    # a page is made only while the unread output leaves room for a whole one under half
    # of max_output (on_list_tables): with the default 32 KiB cap every request here
    # would be refused with a small error, and the errors (~90 bytes) may all fit in the
    # socket buffers; pages of 4 KiB at most are answered while the queue is short
    server = await make_server(
        max_output=16_384, write_limit=4096, limits=limits, max_listing_bytes=4096
    )
    maker = await WsClient.open(server.port, "maker")
    for i in range(20):
        await create(maker, player=None, name=f"table {i:02d} with a long enough name")
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", server.port))
    ws = await connect(
        f"ws://127.0.0.1:{server.port}/",
        sock=sock,
        subprotocols=[m.SUBPROTOCOL],  # type: ignore[list-item]
        max_queue=1,
        max_size=None,
    )
    await ws.send(msgpack.packb({"type": "hello", "id": 1, "protocol": [1, 0], "client": "slow"}))
    async with asyncio.timeout(20):
        while not any(s.name == "slow" for s in server.sessions):
            await asyncio.sleep(0.01)
    (session,) = [s for s in server.sessions if s.name == "slow"]
    # and a small send buffer at the server's end: the kernel grows one as it is written
    # (up to net.ipv4.tcp_wmem's maximum, 4 MiB), and on a loaded machine up to a
    # thousand pages were held there before the queue filled; read back one by one they
    # took longer than the server's CLOSE_GRACE, so it dropped the reader before its bye
    session.ws.transport.get_extra_info("socket").setsockopt(
        socket.SOL_SOCKET, socket.SO_SNDBUF, 4096
    )
    sent = 0
    while not session.closing and sent < 3000:  # each answer lists 20 tables: ~3 KB
        await ws.send(msgpack.packb({"type": "list_tables", "id": 2 + sent}))
        sent += 1
        await asyncio.sleep(0)
    # the requests sent may still wait in the sockets (a busy or cold server reads them
    # later than they were written): the server must get to them and drop the reader
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(20):
            while not session.closing:
                await asyncio.sleep(0.01)
    assert session.closing, "the stalled reader was never dropped"
    frames = []
    with contextlib.suppress(ConnectionClosed):
        async with asyncio.timeout(20):
            async for frame in ws:
                frames.append(decode_server(frame))  # type: ignore[arg-type]
    assert frames[0].type == "welcome" and frames[-1].type == "bye", (len(frames), frames[-3:])
    assert frames[1].type == "tables" and len(frames[1].tables) == 20  # pages, not refusals
    assert frames[-1].reason == "too_slow"
    assert len(frames) < sent, "the backlog was not dropped"
    assert ws.close_code == 1013
    other = await WsClient.open(server.port, "fine")
    await other.ping()
    await other.close()
    await maker.close()


@pytest.mark.e2e
async def test_ctrl_c_at_a_terminal_stops_serve_without_a_traceback() -> None:
    """Ctrl-C at a terminal interrupts every process of the command's group, the bot
    workers too: only the server itself may act on it, and the log stays clean."""
    serve = await ServeProcess.start("--bot-workers", "1", group=True)
    try:
        port = serve.port.result()
        player = await WsClient.open(port, "alice")
        _, _, _ = await create(player, bots=[{"seat": 1, "level": "hard"}])
        await player.send("ready")
        await play_seat(player, 0, random.Random(3), max_takes=3)  # the worker has thought
        os.killpg(serve.proc.pid, signal.SIGINT)
        async with asyncio.timeout(15):
            code = await serve.proc.wait()
            await serve._reader
    finally:
        if serve.proc.returncode is None:
            serve.proc.kill()
            await serve.proc.wait()
    text = "".join(serve.lines)
    assert code == 0, text[-2000:]
    assert "Traceback" not in text and "KeyboardInterrupt" not in text, text[-2000:]
    assert "shutting down" in [r["msg"] for r in serve.records()]
