"""The server's other doors, each attack against a real server: a ``Host`` it does not
answer to (DNS rebinding) refused on every path and at the handshake, ``/metrics``
under ``metrics_loopback`` refused behind any forwarding header, a header read as one
value given twice answered 400 without a traceback, and no credential in the log at
debug."""

from __future__ import annotations

import asyncio
import io
import json
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from protocol import messages as m
from server.logs import setup_logging
from tests.helpers.servers import MakeServer

from .wsclient import WsClient, create


async def raw(port: int, lines: list[str], host: str | None = "127.0.0.1") -> tuple[int, bytes]:
    """A request of ``lines`` (after the request line), with ``Host: host`` first unless
    None; the answer's status and body."""
    named = [f"Host: {host}:{port}"] if host is not None else []
    data = "\r\n".join([lines[0], *named, *lines[1:], "Connection: close", "", ""]).encode()
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(data)
    await writer.drain()
    async with asyncio.timeout(10):
        head = await reader.readuntil(b"\r\n\r\n")
        status = int(head.split()[1])
        body = b"" if status == 101 else await reader.read(-1)  # a WebSocket stays open
    writer.close()
    return status, body


HANDSHAKE = [
    "GET / HTTP/1.1",
    "Upgrade: websocket",
    "Connection: Upgrade",
    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
    "Sec-WebSocket-Version: 13",
    f"Sec-WebSocket-Protocol: {m.SUBPROTOCOL}",
]


# ------------------------------------------------------------------ the Host allowlist
@pytest.mark.parametrize("path", ["/", "/healthz", "/metrics"])
async def test_a_rebound_name_is_refused_on_every_path(make_server: MakeServer, path: str) -> None:
    server = await make_server(metrics=True)
    status, body = await raw(server.port, [f"GET {path} HTTP/1.1"], host="rebind.example")
    assert status == 421 and b"--allow-host" in body
    status, _ = await raw(server.port, [f"GET {path} HTTP/1.1"])  # its own address
    assert status == 200


async def test_a_rebound_pages_handshake_is_refused(make_server: MakeServer) -> None:
    """The page of rebind.example (resolved to this server) is "the server's own page"
    by its Origin: the Host is what tells it apart."""
    server = await make_server()
    origin = [f"Origin: http://rebind.example:{server.port}"]
    status, body = await raw(server.port, HANDSHAKE + origin, host="rebind.example")
    assert status == 421 and b"rebind.example" in body
    url = f"ws://rebind.example:{server.port}/"
    with pytest.raises(InvalidStatus) as e:  # the library's client as a page would send
        async with connect(
            url,
            host="127.0.0.1",
            port=server.port,
            origin=f"http://rebind.example:{server.port}",  # type: ignore[arg-type]
            subprotocols=[m.SUBPROTOCOL],  # type: ignore[list-item]
        ):
            pass
    assert e.value.response.status_code == 421
    # a program (no Origin: never a browser) reaches the server by any name
    async with connect(
        url,
        host="127.0.0.1",
        port=server.port,
        subprotocols=[m.SUBPROTOCOL],  # type: ignore[list-item]
    ) as program:
        assert program.subprotocol == m.SUBPROTOCOL
    # its addresses and loopback names are answered, and a program's request without Host
    for host in ("127.0.0.1", "localhost", "LOCALHOST.", "kk.localhost", "[::1]", "192.0.2.7"):
        origin = [f"Origin: http://{host}:{server.port}"]
        assert (await raw(server.port, HANDSHAKE + origin, host=host))[0] == 101
        assert (await raw(server.port, ["GET /healthz HTTP/1.1"], host=host))[0] == 200
    assert (await raw(server.port, ["GET /healthz HTTP/1.0"], host=None))[0] == 200


async def test_the_operator_allows_names(make_server: MakeServer) -> None:
    named = await make_server(allowed_hosts=("KK.example.org",))
    assert (await raw(named.port, ["GET / HTTP/1.1"], host="kk.example.org"))[0] == 200
    assert (await raw(named.port, ["GET / HTTP/1.1"], host="evil.example.org"))[0] == 421
    listening = await make_server(host="localhost")  # the name it listens on
    assert (await raw(listening.port, ["GET / HTTP/1.1"], host="localhost"))[0] == 200
    anyone = await make_server(allowed_hosts=("*",))
    assert (await raw(anyone.port, ["GET / HTTP/1.1"], host="whatever.example"))[0] == 200


# ------------------------------------------------------------------ metrics behind a proxy
@pytest.mark.parametrize(
    "header",
    [
        "Forwarded: for=203.0.113.9",
        "X-Real-IP: 203.0.113.9",
        "CF-Connecting-IP: 203.0.113.9",
        "True-Client-IP: 203.0.113.9",
        "X-Forwarded-Host: kk.example.org",
        "X-Forwarded-Proto: https",
        "X-Client-IP: 203.0.113.9",
        "X-Cluster-Client-IP: 203.0.113.9",
        "Fastly-Client-IP: 203.0.113.9",
        "Client-IP: 203.0.113.9",
        "Via: 1.1 proxy",
        "X-Original-Forwarded-For: 203.0.113.9",
    ],
)
async def test_loopback_metrics_refuse_any_forwarded_request(
    make_server: MakeServer, header: str
) -> None:
    server = await make_server(metrics=True, metrics_loopback=True)
    assert (await raw(server.port, ["GET /metrics HTTP/1.1"]))[0] == 200
    status, body = await raw(server.port, ["GET /metrics HTTP/1.1", header])
    assert status == 403 and b"this machine only" in body


# ------------------------------------------------------------------ headers given twice
@pytest.mark.parametrize(
    "twice",
    [
        ["Origin: http://127.0.0.1", "Origin: http://evil.example"],
        ["Host: 127.0.0.1", "Host: rebind.example"],
        ["Upgrade: websocket", "Upgrade: websocket"],
        ["Authorization: Bearer a", "Authorization: Bearer b"],
    ],
)
@pytest.mark.parametrize("path", ["/", "/metrics"])
async def test_a_header_given_twice_is_a_bad_request(
    make_server: MakeServer, twice: list[str], path: str
) -> None:
    stream = io.StringIO()
    setup_logging("info", stream)
    server = await make_server(metrics=True, metrics_token="t0ken")
    lines = [f"GET {path} HTTP/1.1", *twice]
    if "Upgrade" not in twice[0]:
        lines += HANDSHAKE[1:] if path == "/" else []
    else:
        lines += HANDSHAKE[2:]
    status, body = await raw(server.port, lines, host=None if "Host" in twice[0] else "127.0.0.1")
    assert status == 400 and b"more than once" in body
    logged = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert not [line for line in logged if "exc" in line or line["level"] == "error"]
    assert (await raw(server.port, ["GET /healthz HTTP/1.1"]))[0] == 200  # it serves on


async def test_a_proxys_forwarded_for_given_twice_is_read_whole(
    make_server: MakeServer,
) -> None:
    """``X-Forwarded-For`` is a list: given twice it is one list (RFC 9110), and the
    address a trusted proxy saw is its last."""
    server = await make_server(trust_forwarded=True)
    twice = ["X-Forwarded-For: 198.51.100.1", "X-Forwarded-For: 203.0.113.9"]
    assert (await raw(server.port, HANDSHAKE + twice))[0] == 101
    async with asyncio.timeout(10):
        while not server.sessions:
            await asyncio.sleep(0.01)
    assert [s.address for s in server.sessions] == ["203.0.113.9"]


# ------------------------------------------------------------------ no credential in the log
async def test_no_credential_in_the_log_at_debug(make_server: MakeServer) -> None:
    """At ``--log-level debug`` websockets logs every request header: the metrics'
    bearer token, a cookie, a query's secret, a player's secret and a seat token never
    appear."""
    stream = io.StringIO()
    setup_logging("debug", stream)
    token = "s3cr3t-metrics-bearer-t0ken"
    server = await make_server(metrics=True, metrics_token=token)
    headers = [f"Authorization: Bearer {token}", "Cookie: session=c00kie-v4lue"]
    status, _ = await raw(server.port, ["GET /metrics?token=qu3ry-s3cret HTTP/1.1", *headers])
    assert status == 200
    extra: dict[str, Any] = {"additional_headers": {"Proxy-Authorization": "Basic pr0xy-s3cret"}}
    a = await WsClient.open(server.port, "a", (1, 2), json=True, **extra)
    secret = "pl4yer-s3cret-0123456789abcdef-0123456789"
    registered = await a.request("register", name="Ada", secret=secret)
    assert registered.type != "error", registered
    _, _, seat_token = await create(a, "Ada", options={"players": 2})
    assert seat_token is not None
    query = f"ws://127.0.0.1:{server.port}/?secret=qu3ry-s3cret2"
    async with connect(query, subprotocols=[m.SUBPROTOCOL]):  # type: ignore[list-item]
        pass
    await a.close()
    log = stream.getvalue()
    for leak in (token, "c00kie-v4lue", "qu3ry-s3cret", "pr0xy-s3cret", secret, seat_token):
        assert leak not in log
    assert "Authorization" in log and "[masked]" in log  # the lines are there, masked
