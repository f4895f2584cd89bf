"""A connection that cannot pass. When the device says it is offline (a phone in a
tunnel, flight mode) the page gives its connection up at once, offers no card meanwhile,
and connects again as soon as the device is back online, resuming its seat. A network
gone dead without the device knowing (a router gone, a server that stalls) closes
nothing, so the page finds out by itself: a ``ping`` when the server has been quiet,
unanswered, and it says "connection lost" within about 20 s of the last thing it heard
(docs/WEB.md), then connects again once the server answers."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

from tests.helpers.pages import my_turn_at
from tests.helpers.web import LiveServer, until

pytestmark = pytest.mark.e2e

SAYS = "document.getElementById('conn').textContent.startsWith('{}')"
CARD = ".cell.take:not([disabled])"
OFFLINE = "net::ERR_INTERNET_DISCONNECTED"  # a try to connect while offline


def test_a_page_whose_device_goes_offline_lets_go_and_is_back_when_online(
    live_server: LiveServer, open_page: Any
) -> None:
    page = my_turn_at(open_page, live_server, "phone", 360, 640)
    page.wait_for_selector(CARD)
    page.context.set_offline(True)
    went = time.monotonic()
    # at once: the liveness check below would take 20 s and more
    until(page, SAYS.format("connection lost"), timeout=15_000)
    lost_after = time.monotonic() - went
    assert page.locator(CARD).count() == 0
    page.context.set_offline(False)
    back = time.monotonic()
    until(page, SAYS.format("connected"), timeout=30_000)
    back_after = time.monotonic() - back
    page.wait_for_selector(CARD)  # its seat, resumed
    assert [e for e in page.errors if OFFLINE not in e] == []
    print(f"offline said after {lost_after:.1f} s, connected {back_after:.1f} s after online")


def test_a_page_whose_server_goes_silent_says_the_connection_is_lost(
    live_server: LiveServer, open_page: Any
) -> None:
    page = my_turn_at(open_page, live_server, "phone", 360, 640)
    page.wait_for_selector(CARD)
    release = threading.Event()
    # the server's loop stalls: nothing it holds answers, nothing is closed
    live_server.loop.call_soon_threadsafe(release.wait, 120)
    went = time.monotonic()
    try:
        # about 20 s; a loaded machine's timers run late
        until(page, SAYS.format("connection lost"), timeout=60_000)
        lost_after = time.monotonic() - went
        assert page.locator(CARD).count() == 0
    finally:
        release.set()
    until(page, SAYS.format("connected"), timeout=30_000)
    page.wait_for_selector(CARD)  # its seat, resumed
    assert page.errors == []
    print(f"the silent server was said lost after {lost_after:.1f} s")
