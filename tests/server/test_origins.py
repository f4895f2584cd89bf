"""A page of another site cannot use its visitor's browser to open a WebSocket to this
server (``server.net.origins``): a handshake with an ``Origin`` is accepted from the
server's own page and from origins the operator allows; programs send none."""

from __future__ import annotations

import argparse

import pytest
from websockets.asyncio.client import connect
from websockets.datastructures import Headers
from websockets.exceptions import InvalidStatus

from protocol import messages as m
from server.commands.serve import add_arguments, config_from_args
from server.net.origins import origin_refusal
from tests.helpers.servers import MakeServer

from .wsclient import http_get


def _headers(origin: str | None, host: str = "192.168.1.5:8765") -> Headers:
    h = Headers([("Host", host)])
    if origin is not None:
        h["Origin"] = origin
    return h


def test_programs_and_the_servers_own_page_are_accepted() -> None:
    assert origin_refusal(_headers(None)) is None
    assert origin_refusal(_headers("http://192.168.1.5:8765")) is None
    assert origin_refusal(_headers("https://192.168.1.5:8765")) is None
    assert origin_refusal(_headers("HTTP://Kitchen.local:8765", "kitchen.local:8765")) is None


def test_another_sites_page_is_refused_unless_allowed() -> None:
    for origin in ("https://evil.example", "http://192.168.1.5:9999", "null", "http://192.168.1.5"):
        why = origin_refusal(_headers(origin))
        assert why is not None and "--allow-origin" in why, origin
    assert origin_refusal(_headers("https://club.example/"), ("https://club.example",)) is None
    assert origin_refusal(_headers("https://club.example"), ("https://club.example/",)) is None


async def _opens(port: int, origin: str | None) -> bool:
    kwargs = {} if origin is None else {"origin": origin}
    try:
        async with connect(
            f"ws://127.0.0.1:{port}/",
            subprotocols=[m.SUBPROTOCOL],  # type: ignore[list-item]
            open_timeout=10,
            **kwargs,  # type: ignore[arg-type]
        ):
            return True
    except InvalidStatus as e:
        assert e.response.status_code == 403
        assert b"--allow-origin" in e.response.body
        return False


async def test_a_server_refuses_a_handshake_from_another_sites_page(
    make_server: MakeServer,
) -> None:
    server = await make_server()
    port = server.port
    assert await _opens(port, None)  # a program
    assert await _opens(port, f"http://127.0.0.1:{port}")  # the page it serves
    assert not await _opens(port, "https://evil.example")
    assert not await _opens(port, f"http://127.0.0.1:{port + 1}")
    status, _, _ = await http_get(port)
    assert status == 200  # the server goes on


@pytest.mark.parametrize("allowed", [("https://club.example",)])
async def test_an_origin_the_operator_allows_may_connect(
    make_server: MakeServer, allowed: tuple[str, ...]
) -> None:
    server = await make_server(allowed_origins=allowed)
    assert await _opens(server.port, "https://club.example")
    assert not await _opens(server.port, "https://other.example")


def test_serve_takes_allowed_origins_from_its_flags() -> None:
    p = argparse.ArgumentParser()
    add_arguments(p)
    args = p.parse_args(["--allow-origin", "https://a.example", "--allow-origin", "https://b"])
    assert config_from_args(args).allowed_origins == ("https://a.example", "https://b")
    assert config_from_args(p.parse_args([])).allowed_origins == ()
