"""Fixtures of the browser tests: a real server on a free loopback port in a thread of
its own (Playwright's sync API needs the test's thread free of an event loop), and
Debian's Chromium driven by Playwright (never a downloaded browser), one per test
process (``tests/helpers/chromium.py``), a fresh context of its own per test."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.helpers.chromium import SHARED, Chromium
from tests.helpers.web import DESKTOP, PACE_KEY, PHONE, TEST_PACE, LiveServer


def pytest_configure(config: pytest.Config) -> None:
    # the suite registers e2e in pyproject too; saying it twice is harmless
    config.addinivalue_line("markers", "e2e: end to end: a real browser, Node or npm")


@pytest.fixture
def live_server() -> Iterator[LiveServer]:
    live = LiveServer()
    try:
        yield live
    finally:
        live.stop()


@pytest.fixture(scope="session")
def chromium() -> Iterator[Chromium]:
    """This test process's Playwright and Chromium (started on first use; stopped before
    any test that does not use this fixture, and at the end)."""
    try:
        yield SHARED
    finally:
        SHARED.stop()


@pytest.fixture
def browser(chromium: Chromium) -> Any:
    """The shared Chromium: each test opens contexts of its own in it (``open_page``),
    which keep no storage, cookies or pages from another test."""
    return chromium.browser()


@pytest.fixture
def open_page(browser: Any) -> Iterator[Any]:
    """``open_page(size, pace=TEST_PACE, color_scheme="light")``: a fresh browser context
    (its own storage) and page, its system colour scheme ``color_scheme`` ("dark" for a
    dark system theme). Its storage starts with the page's pace setting ``pace`` (a name
    the settings offer) until the page changes it; ``pace=None`` keeps nothing there, so
    the page shows moves at its own default pace, as for a first visit."""
    contexts: list[Any] = []

    def make(
        size: str,
        reduced_motion: str = "no-preference",
        pace: str | None = TEST_PACE,
        color_scheme: str = "light",
    ) -> Any:
        ctx = browser.new_context(
            viewport={"phone": PHONE, "desktop": DESKTOP}[size],
            reduced_motion=reduced_motion,
            color_scheme=color_scheme,
            has_touch=size == "phone",
            is_mobile=size == "phone",
        )
        if pace is not None:
            # before the page's own script, in every document of the context; a choice
            # made in the page (the settings) is kept
            ctx.add_init_script(
                script=f"try {{ if (localStorage.getItem({PACE_KEY!r}) === null)"
                f" localStorage.setItem({PACE_KEY!r}, {pace!r}); }} catch (e) {{}}"
            )
        contexts.append(ctx)
        page = ctx.new_page()
        page.errors = []
        page.on("pageerror", lambda e: page.errors.append(str(e)))
        page.on("console", lambda m: m.type == "error" and page.errors.append(m.text))
        return page

    yield make
    for ctx in contexts:
        ctx.close()
