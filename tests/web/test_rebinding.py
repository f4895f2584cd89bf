"""DNS rebinding in a real browser: Chromium resolves a name of "another site"
(``rebind.example``) to the server's loopback address, as an attacker's DNS would to a
LAN server. The page of that name is not the server's own: its requests are refused
(``421``) and its WebSocket never opens, so it cannot sit at a table; the server's own
page, by its address or ``localhost``, works as before."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.helpers.chromium import Chromium
from tests.helpers.web import LiveServer

pytestmark = pytest.mark.e2e

OPEN_SOCKET = """(url) => new Promise((resolve) => {
    const ws = new WebSocket(url, "kupferkessel.v1");
    ws.onopen = () => { ws.close(); resolve("open"); };
    ws.onerror = () => resolve("refused");
})"""


@pytest.fixture
def rebinding_browser(chromium: Chromium) -> Iterator[Any]:
    """A Chromium of its own that resolves ``rebind.example`` to 127.0.0.1."""
    b = chromium.launch("--host-resolver-rules=MAP rebind.example 127.0.0.1")
    try:
        yield b
    finally:
        b.close()


def test_a_rebound_name_gets_no_page_and_no_seat(
    rebinding_browser: Any, live_server: LiveServer
) -> None:
    port = live_server.server.port
    page = rebinding_browser.new_page()
    try:
        answer = page.goto(f"http://rebind.example:{port}/")
        assert answer is not None and answer.status == 421
        assert "--allow-host" in page.content()
        got = page.evaluate(OPEN_SOCKET, f"ws://rebind.example:{port}/")
        assert got == "refused"
        assert not live_server.server.sessions  # nobody connected, so nobody sat down
        for own in (f"http://127.0.0.1:{port}/", f"http://localhost:{port}/"):
            answer = page.goto(own)
            assert answer is not None and answer.status == 200
            ws_url = own.replace("http://", "ws://")
            assert page.evaluate(OPEN_SOCKET, ws_url) == "open"
    finally:
        page.close()
