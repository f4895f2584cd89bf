"""A network gone dead: a phone out of reach closes nothing, so no close ever reaches the
page (Chromium offline: nothing arrives, nothing leaves). The page finds out by itself
(a ``ping`` when the server has been quiet, unanswered) and says "connection lost"
within about 20 s of the last thing it heard (docs/WEB.md), offers no card to take
meanwhile, and once the network is back resumes its seat by itself."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.helpers.pages import my_turn_at
from tests.helpers.web import LiveServer, until

pytestmark = pytest.mark.e2e

SAYS = "document.getElementById('conn').textContent.startsWith('{}')"


def test_a_page_on_a_dead_network_says_the_connection_is_lost_then_comes_back(
    live_server: LiveServer, open_page: Any
) -> None:
    page = my_turn_at(open_page, live_server, "phone", 360, 640)
    page.wait_for_selector(".cell.take:not([disabled])")
    page.context.set_offline(True)
    went = time.monotonic()
    # about 20 s; a loaded machine's timers run late
    until(page, SAYS.format("connection lost"), timeout=60_000)
    lost_after = time.monotonic() - went
    assert page.locator(".cell.take:not([disabled])").count() == 0
    page.context.set_offline(False)
    until(page, SAYS.format("connected"), timeout=30_000)
    page.wait_for_selector(".cell.take:not([disabled])")  # its seat, resumed
    offline = "net::ERR_INTERNET_DISCONNECTED"  # a try to connect while offline
    assert [e for e in page.errors if offline not in e] == []
    print(f"the dead network said after {lost_after:.1f} s")
