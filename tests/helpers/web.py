"""The browser client in the tests: a real server in a thread (``LiveServer``), Chromium
through Playwright (``chromium.py``), screenshots and texts kept for review (``shot``,
``save_text``), waiting for what a page shows (``until``), the lobby opened, and who took
which card at the live server's table (``table_now``, ``taken``: its record replayed). The
fixtures built on them are in ``tests/web/conftest.py``."""

from __future__ import annotations

import asyncio
import shutil
import threading
import time
from concurrent.futures import Future
from pathlib import Path
from typing import Any

from server.app import Server, ServerConfig
from server.lobby import NO_QUOTAS
from server.players.hashing import NO_ADDRESS_BOUNDS
from server.store import MemoryStore
from shared.events import Event, Took

SCREENSHOTS = Path(__file__).resolve().parents[1] / "web" / "screenshots"


PHONE = {"width": 390, "height": 844}


DESKTOP = {"width": 1280, "height": 900}


TABLET = {"width": 820, "height": 1180}


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

    def drop_connections(self, name: str | None = None) -> None:
        """Cut every client's TCP connection at once (or only those of the seat named
        ``name``), as a lost network would."""

        def cut() -> None:
            for session in list(self.server.sessions):
                if name is None or session.name == name:
                    session.ws.transport.abort()

        self.loop.call_soon_threadsafe(cut)

    def stop(self) -> None:
        self.call(self.server.stop())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()


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


def table_now(live: LiveServer) -> tuple[list[tuple[int, str]], int | None]:
    """The live server's one table now: who took which card so far, in order (its game
    record replayed), and the seat to move (None before the game and after it)."""

    async def read() -> tuple[list[tuple[int, str]], int | None]:
        (table,) = live.server.lobby.tables.values()
        game = table.game
        mover = None if game is None or game.over else game.to_move
        if table.record is None:
            return [], mover
        events: list[Event] = []
        table.record.replay(events=events)
        return [(e.seat, e.card) for e in events if isinstance(e, Took)], mover

    result: tuple[list[tuple[int, str]], int | None] = live.call(read())
    return result


def taken(live: LiveServer) -> list[tuple[int, str]]:
    """Who took which card so far at the live server's one table, in order."""
    return table_now(live)[0]
