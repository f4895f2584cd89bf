"""Fixtures of the browser tests: a real server on a free loopback port in a thread of
its own (Playwright's sync API needs the test's thread free of an event loop), and
Debian's Chromium driven by Playwright (never a downloaded browser)."""

from __future__ import annotations

import asyncio
import os
import shutil
import threading
import time
from collections.abc import Iterator
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest

from server.app import Server, ServerConfig
from server.lobby import NO_QUOTAS
from server.players.hashing import NO_ADDRESS_BOUNDS
from server.store import MemoryStore

CHROMIUM = os.environ.get("KK_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SCREENSHOTS = Path(__file__).with_name("screenshots")
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
TABLET = {"width": 820, "height": 1180}


def pytest_configure(config: pytest.Config) -> None:
    # the suite registers e2e in pyproject too; saying it twice is harmless
    config.addinivalue_line("markers", "e2e: end to end: a real browser, Node or npm")


class LiveServer:
    """A started ``Server`` whose event loop runs in a thread; ``url`` is its page."""

    def __init__(self, **config: Any) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        config.setdefault("port", 0)
        config.setdefault("host", "127.0.0.1")
        config.setdefault("quotas", NO_QUOTAS)
        config.setdefault("signin", NO_ADDRESS_BOUNDS)  # and sign-ins too
        config.setdefault("bot_workers", 0)
        self.server = Server(ServerConfig(**config), MemoryStore())
        self.call(self.server.start())
        self.url = f"http://127.0.0.1:{self.server.port}/"

    def call(self, coro: Any, timeout: float = 30) -> Any:
        fut: Future[Any] = asyncio.run_coroutine_threadsafe(coro, self.loop)
        return fut.result(timeout)

    def drop_connections(self) -> None:
        """Cut every client's TCP connection at once, as a lost network would."""

        def cut() -> None:
            for session in list(self.server.sessions):
                session.ws.transport.abort()

        self.loop.call_soon_threadsafe(cut)

    def stop(self) -> None:
        self.call(self.server.stop())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()


@pytest.fixture
def live_server() -> Iterator[LiveServer]:
    live = LiveServer()
    try:
        yield live
    finally:
        live.stop()


def chromium(*extra_args: str) -> Iterator[Any]:
    """Debian's Chromium launched by Playwright with ``CHROMIUM_ARGS`` and
    ``extra_args`` (a fixture's body: the test is skipped without Chromium)."""
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM} (Debian: apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="pip install playwright")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, *extra_args])
        try:
            yield b
        finally:
            b.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Chromium for one test module: Playwright's sync API holds an event loop in this
    thread while it runs, so it must be gone before any asyncio test of another module."""
    yield from chromium()


def shot(page: Any, name: str, selector: str | None = None) -> Path:
    """Save a screenshot of the whole page (or of the element ``selector``) as
    ``screenshots/<name>.png``."""
    SCREENSHOTS.mkdir(exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    if selector:
        page.locator(selector).screenshot(path=str(path))
    else:
        page.screenshot(path=str(path), full_page=True)
    return path


def save_text(name: str, text: str) -> Path:
    """Save a terminal's screen (or any text) as ``screenshots/<name>.txt``."""
    SCREENSHOTS.mkdir(exist_ok=True)
    path = SCREENSHOTS / f"{name}.txt"
    path.write_text(text)
    return path


def have_npm() -> bool:
    return shutil.which("npm") is not None and shutil.which("node") is not None


PACE_KEY = "kk:pace"
"""The page's storage key of its pace setting (``web/src/app/store.ts``)."""
TEST_PACE = "fast"
"""The pace a test's page starts with unless the test is about pacing: other seats'
moves 0.3 s apart instead of 0.9, so a game against the computer waits a third as long,
and the pacing code still runs."""


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


def until(page: Any, js: str, arg: Any = None, timeout: float = 20_000) -> None:
    """Wait until the expression ``js`` (of ``arg``) is true in the page. (Playwright's
    wait_for_function compiles its predicate with eval, which the page's CSP refuses.)"""
    deadline = time.monotonic() + timeout / 1000
    expr = js if js.lstrip().startswith(("(", "arg =>", "card =>")) else f"() => ({js})"
    while not page.evaluate(expr, arg):
        if time.monotonic() > deadline:
            raise AssertionError(f"never true: {js}\n{page_state(page)}")
        time.sleep(0.05)


PAGE_STATE = """() => ({
  heading: document.querySelector('main h1, main h2')?.textContent ?? null,
  status: document.getElementById('status')?.textContent ?? null,
  conn: document.getElementById('conn')?.textContent ?? null,
  title: document.title,
})"""


def page_state(page: Any) -> str:
    """What the page showed when a wait gave up: its screen's heading, its status line
    and connection line, so that a failure on a loaded machine says where it was."""
    try:
        return f"the page then: {page.evaluate(PAGE_STATE)}"
    except Exception as e:  # a page closed or crashed says so instead
        return f"the page could not be read: {e}"


def open_lobby(page: Any, live: LiveServer) -> None:
    page.goto(live.url)
    page.wait_for_selector("#tables")
    until(page, "document.getElementById('conn').textContent.startsWith('connected')")
