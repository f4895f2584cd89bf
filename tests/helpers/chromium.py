"""Debian's Chromium driven by Playwright's sync API, launched once per test process
(once per xdist worker) and shared by the browser tests, each in a fresh context of its
own (``tests/web/conftest.py``): a launch (the Playwright driver and Chromium) cost
about 2 s of CPU, and per module it was paid about 120 times a run.

Playwright's sync API holds an event loop in the test's thread while it runs, which no
asyncio test could then run beside. So ``tests/conftest.py`` stops it before any test
that does not use it, and runs the browser tests together: then it starts once per
worker, and a test of any other kind still never meets it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bench.browser import CHROMIUM, CHROMIUM_ARGS

__all__ = ["FIXTURE", "SHARED", "Chromium", "uses_browser"]

FIXTURE = "chromium"
"""The session fixture (``tests/web/conftest.py``) a test that drives a browser uses."""


class Chromium:
    """One Playwright driver, and Chromium launched through it, started on first use."""

    def __init__(self) -> None:
        self._playwright: Any = None
        self._browser: Any = None

    def launch(self, *extra_args: str) -> Any:
        """A Chromium of its own, launched with ``CHROMIUM_ARGS`` and ``extra_args``
        (the caller closes it); the test is skipped without Chromium or Playwright."""
        if self._playwright is None:
            if not Path(CHROMIUM).exists():
                pytest.skip(f"no Chromium at {CHROMIUM} (Debian: apt-get install chromium)")
            sync_api = pytest.importorskip("playwright.sync_api", reason="pip install playwright")
            self._playwright = sync_api.sync_playwright().start()
        return self._playwright.chromium.launch(
            executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, *extra_args]
        )

    def browser(self) -> Any:
        """The shared Chromium, launched again if it went away (a crash in a test)."""
        if self._browser is None or not self._browser.is_connected():
            self._browser = self.launch()
        return self._browser

    def stop(self) -> None:
        """Close the shared Chromium and the driver (and the driver's event loop), if
        they run."""
        browser, playwright = self._browser, self._playwright
        self._browser = self._playwright = None
        try:
            if browser is not None and browser.is_connected():
                browser.close()
        finally:
            if playwright is not None:
                playwright.stop()


SHARED = Chromium()
"""This test process's Chromium."""


def uses_browser(item: pytest.Item) -> bool:
    """Whether the test ``item`` drives a browser (uses ``FIXTURE``, maybe through
    ``browser`` or ``open_page``)."""
    return FIXTURE in getattr(item, "fixturenames", ())
