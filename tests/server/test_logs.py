"""The log stays one JSON object per line whatever clients do, and one peer cannot
flood it (finding 7 of the hostile-client review; U+2028 of finding 11)."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import time
from collections.abc import Iterator

import pytest

from server.logs import LogLimit, peer_fields, setup_logging, source_of
from tests.helpers.servers import MakeServer

from .wsclient import WsClient, create, http_get


@pytest.fixture(params=["info"])
def log_stream(request: pytest.FixtureRequest) -> Iterator[io.StringIO]:
    """The process log set up as ``serve`` does (at ``info``, or the level a test
    parametrizes it with), into a buffer (the suite's ``_logging_as_it_was`` restores
    the logging afterwards)."""
    stream = io.StringIO()
    setup_logging(request.param, stream)
    yield stream


def json_lines(stream: io.StringIO) -> list[dict[str, object]]:
    """Every line as a line-based reader splits it (``str.splitlines``), each parsed."""
    return [json.loads(line) for line in stream.getvalue().splitlines()]


async def raw_request(port: int, data: bytes) -> bytes:
    """Send ``data`` over a raw socket; all the answer."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(data)
    await writer.drain()
    async with asyncio.timeout(10):
        answer = await reader.read(-1)
    writer.close()
    return answer


async def test_library_errors_are_json_lines_and_rate_limited(
    make_server: MakeServer, log_stream: io.StringIO
) -> None:
    setup_logging("debug", log_stream)  # the library logs a bad request with its traceback
    server = await make_server()
    started = time.monotonic()
    for _ in range(200):
        assert await raw_request(server.port, b"\x00\xff not HTTP\r\n\r\n") == b""
    took = time.monotonic() - started
    status, _, body = await http_get(server.port)  # the health check still answers
    assert status == 200 and json.loads(body)["status"] == "ok"
    lines = json_lines(log_stream)  # every line one JSON object, tracebacks included
    failed = [x for x in lines if x["msg"] == "! no valid HTTP request"]
    assert failed, "the failing requests were logged"
    assert all(str(x["logger"]).startswith("websockets") for x in failed)
    assert all(str(x["peer"]).startswith("127.0.0.1:") for x in failed)
    assert all("\n" not in line for line in log_stream.getvalue().splitlines())
    assert any("Traceback" in str(x.get("exc", "")) for x in failed)
    # one peer, one kind of line: a burst of 30, then 2 per second (200 requests take
    # a few seconds quiet; 41 lines came at a load of 30, where they took longer)
    assert len(failed) <= 30 + 2 * took, (len(failed), took)
    assert len(failed) < 100, len(failed)  # and far from one a request


async def test_healthz_with_bytes_after_its_headers_logs_no_error(
    make_server: MakeServer, log_stream: io.StringIO
) -> None:
    """It made the library fail an assertion in its handshake, logged with a
    traceback, and got no answer (finding 7); now it is answered like any other."""
    server = await make_server()
    for _ in range(20):
        answer = await raw_request(
            server.port,
            b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n\x00\xffjunk after the headers",
        )
        assert answer.startswith(b"HTTP/1.1 200 OK\r\n")
    lines = json_lines(log_stream)
    assert not [x for x in lines if x["level"] in ("warning", "error", "critical")], lines


async def test_a_name_with_line_separators_keeps_one_line(
    make_server: MakeServer, log_stream: io.StringIO
) -> None:
    server = await make_server()
    name = 'evil\u2028{"level": "error"}\u2029x'
    client = await WsClient.open(server.port, name)
    await client.close()
    await asyncio.sleep(0.05)
    lines = json_lines(log_stream)
    hello = [x for x in lines if x["msg"] == "hello"]
    assert [x["client"] for x in hello] == [name]


def test_log_limit_counts_what_it_dropped() -> None:
    now = [0.0]
    limit = LogLimit(burst=3, rate=1.0, clock=lambda: now[0])

    def rec(peer: str, msg: str = "too slow") -> logging.LogRecord:
        return logging.makeLogRecord({"name": "kupferkessel.session", "msg": msg, "peer": peer})

    assert [limit.filter(rec("1.2.3.4:5")) for _ in range(5)] == [True] * 3 + [False] * 2
    assert limit.filter(rec("1.2.3.4:6", "other line"))  # another kind of line
    assert limit.filter(rec("5.6.7.8:5"))  # another peer
    now[0] += 1.0
    passed = rec("1.2.3.4:7")  # same host, another port: same peer
    assert limit.filter(passed)
    assert passed.suppressed == 2
    assert not limit.filter(rec("1.2.3.4:7"))


@pytest.mark.parametrize("behind_proxy", [True, False], ids=["behind-proxy", "direct"])
async def test_the_log_limit_counts_clients_as_the_quotas_do(
    make_server: MakeServer, log_stream: io.StringIO, behind_proxy: bool
) -> None:
    """Behind a trusted proxy every connection comes from the proxy's address: the
    per-peer limit must count the forwarded clients (as the quotas do), or one
    client's flood silences everyone's lines; without ``--behind-proxy`` the header
    is nobody's word and the connection's address counts."""
    setup_logging("debug", log_stream)  # the library's "connection open" lines too
    (handler,) = logging.getLogger().handlers
    handler.filters[:] = [LogLimit(burst=10, rate=0.0)]  # no refill: no timing in the test
    server = await make_server(trust_forwarded=behind_proxy)
    for i in range(15):
        client = await WsClient.open(
            server.port, f"c{i}", additional_headers={"X-Forwarded-For": f"203.0.113.{i}"}
        )
        await client.close()
    lines = json_lines(log_stream)
    ours = [x for x in lines if x["msg"] == "connect"]
    library = [x for x in lines if x["msg"] == "connection open"]
    if behind_proxy:  # 15 clients, one line each: nothing dropped
        assert [x["address"] for x in ours] == [f"203.0.113.{i}" for i in range(15)]
        assert len(library) == 15
    else:  # one address: the burst of each kind, then nothing
        assert len(ours) == 10 and all("address" not in x for x in ours)
        assert len(library) == 10


def test_log_limit_counts_by_the_quota_address() -> None:
    limit = LogLimit(burst=2, rate=0.0, clock=lambda: 0.0)

    def rec(peer: str, address: str) -> logging.LogRecord:
        fields: dict[str, object] = {"name": "kupferkessel.session", "msg": "too slow"}
        fields.update(peer_fields(peer, address))
        return logging.makeLogRecord(fields)

    proxy = "127.0.0.1:4000"
    assert peer_fields(proxy, "127.0.0.1") == {"peer": proxy}  # no proxy: nothing added
    assert source_of(rec(proxy, "198.51.100.2")) == "198.51.100.2"
    assert [limit.filter(rec(proxy, "198.51.100.2")) for _ in range(3)] == [True, True, False]
    assert limit.filter(rec(proxy, "198.51.100.3"))  # another client behind the same proxy
    assert not limit.filter(rec("127.0.0.1:4001", "198.51.100.2"))  # same client, new socket

    class Connection:  # what the library logs with: its connection, as ``websocket``
        remote_address = ("127.0.0.1", 4002)
        quota_address = "198.51.100.4"

    library = logging.makeLogRecord({"name": "websockets.server", "msg": "x"})
    library.websocket = Connection()
    assert source_of(library) == "198.51.100.4"
    del Connection.quota_address
    assert source_of(library) == "127.0.0.1"


@pytest.mark.parametrize("log_stream", ["debug"], indirect=True)
async def test_a_debug_log_quotes_no_seat_token(
    log_stream: io.StringIO, make_server: MakeServer
) -> None:
    """At ``--log-level debug`` the log says more, but never what a client sent: its
    seat token (or a player's secret) would be in websockets' frame records."""
    server = await make_server()
    a = await WsClient.open(server.port, "a", json=True)  # frames of text
    _, _, token = await create(a, "ann", options={"players": 2})
    assert token is not None
    b = await WsClient.open(server.port, "b", json=True)
    resumed = await b.request("resume", token=token)
    assert resumed.type == "resumed", resumed
    await a.close()
    await b.close()
    lines = json_lines(log_stream)
    assert any(
        line["level"] == "debug" and str(line["logger"]).startswith("websockets") for line in lines
    )
    assert token not in log_stream.getvalue()
