"""Real terminals for end-to-end tests: one private tmux server per test, one session
per terminal (a player, a host, a spectator), keys in with send-keys and the screen
back with capture-pane, exactly what a person at that terminal sees."""

from __future__ import annotations

import itertools
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from bench.ports import free_port as free_port  # the terminal tests take it from here
from client.ui.render import Cards, Size

ROOT = Path(__file__).resolve().parents[2]
KK = f"{sys.executable} -m client.cli"

needs_tmux = pytest.mark.skipif(
    shutil.which("tmux") is None, reason="tmux is not installed (CI installs it)"
)

_count = itertools.count()


QUICK_PACE = "KUPFERKESSEL_PACE=0.1 KUPFERKESSEL_HOLD=0.1"
"""Pacing on but short, for tests about other things than pacing (a game of forty turns
at the default 0.8 s a turn takes a minute); ``Tmux(paced=True)``: the defaults."""


class Tmux:
    """A private tmux server; ``start`` opens a named terminal of a given size."""

    def __init__(self, data_dir: Path, *, paced: bool = False) -> None:
        self.socket = f"kk-test-{os.getpid()}-{next(_count)}"
        self.data_dir = data_dir
        self.pace = "" if paced else QUICK_PACE

    def tmux(self, *args: str) -> str:
        out = subprocess.run(
            ["tmux", "-u", "-L", self.socket, *args], capture_output=True, text=True, timeout=10
        )
        return out.stdout

    def start(
        self,
        command: str,
        *,
        name: str = "kk",
        size: tuple[int, int] = (80, 24),
        data_dir: Path | None = None,
        env: str = "",
    ) -> None:
        data = data_dir or self.data_dir
        env = f"KUPFERKESSEL_DATA_DIR={data} LANG=C.UTF-8 TERM=xterm-256color {self.pace} {env}"
        self.tmux(
            "new-session",
            "-d",
            "-s",
            name,
            "-x",
            str(size[0]),
            "-y",
            str(size[1]),
            "-c",
            str(ROOT),
            f"env {env} {command}",
        )

    def screen(self, name: str = "kk") -> str:
        return self.tmux("capture-pane", "-p", "-t", name)

    def keys(self, *keys: str, name: str = "kk") -> None:
        self.tmux("send-keys", "-t", name, *keys)

    def resize(self, width: int, height: int, name: str = "kk") -> None:
        self.tmux("resize-window", "-t", name, "-x", str(width), "-y", str(height))

    def alive(self, name: str = "kk") -> bool:
        return name in self.tmux("list-sessions", "-F", "#{session_name}").split()

    def wait(
        self,
        what: str | Callable[[str], bool],
        *,
        name: str = "kk",
        timeout: float = 30.0,
    ) -> str:
        """The screen once it shows ``what`` (a text or a test); fails with the screen."""
        test = what if callable(what) else (lambda s: what in s)
        deadline = time.monotonic() + timeout
        screen = ""
        while time.monotonic() < deadline:
            screen = self.screen(name)
            if test(screen):
                return screen
            if not screen and not self.alive(name):
                raise AssertionError(f"{name}: its command exited before showing {what!r}")
            time.sleep(0.1)
        raise AssertionError(f"{name}: timed out waiting for {what!r}; the screen:\n{screen}")

    def wait_gone(self, name: str = "kk", timeout: float = 5.0) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not self.alive(name):
                return True
            time.sleep(0.1)
        return False

    def kill(self) -> None:
        self.tmux("kill-server")


def showing(*texts: str) -> Callable[[str], bool]:
    """A test for ``Tmux.wait``: the screen shows every one of ``texts`` at once (a
    screen caught mid-redraw may show some of a new screen's lines and not others)."""
    return lambda screen: all(text in screen for text in texts)


def table_id(screen: str) -> str:
    """The table id in a table screen's header."""
    found = re.search(r"table (\S+) \((?:seat \d|watching)", screen)
    assert found, screen
    return found.group(1)


def answer(t: Tmux, name: str, screen: str) -> bool:
    """Play one step for the terminal ``name`` if its screen asks something: take the
    card under the cursor, use every symbol, keep the last card. True if a key went."""
    if "Your turn" in screen or "[y]es" in screen or "[k]eep" in screen:
        t.keys("Enter", name=name)
        return True
    if "Targets (" in screen:
        t.keys("Enter", name=name)
        return True
    return False


def play_until(t: Tmux, name: str, done: Callable[[], bool], *, timeout: float = 30.0) -> None:
    """Answer every question ``name``'s screen asks (one turn may ask several: the take,
    then a symbol's effect, then keep or discard) until ``done()``; fails with the screen."""
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, t.screen(name)
        answer(t, name, t.screen(name))
        time.sleep(0.3)


def focused_line(screen: str) -> str:
    return next((ln for ln in screen.splitlines() if ln.startswith("> ")), "")


def _press(t: Tmux, name: str, key: str) -> str:
    """Press ``key`` in a form and wait until the focused line shows it was handled (a
    key decided on a screen not yet redrawn after the last one lands a field too far)."""
    before = focused_line(t.screen(name))
    t.keys(key, name=name)
    return focused_line(t.wait(lambda s: focused_line(s) != before, name=name, timeout=10))


def form_set(t: Tmux, name: str, label: str, value: str | None = None) -> None:
    """In a form: move to the field ``label`` and turn it to ``value`` (Right until the
    field shows it); with no value, press the button ``label``."""
    line = focused_line(t.screen(name))
    for _ in range(30):
        if label in line:
            break
        line = _press(t, name, "Down")
    else:
        raise AssertionError(f"no field {label!r}:\n{t.screen(name)}")
    if value is None:
        t.keys("Enter", name=name)
        return
    for _ in range(10):
        if f"< {value}" in line:
            return
        line = _press(t, name, "Right")
    raise AssertionError(f"no value {value!r} for {label!r}:\n{t.screen(name)}")


def columns(screen: str, size: tuple[int, int]) -> str:
    """The screen as one line of words, then each column of a side-by-side layout
    read on its own, so that text wrapped inside a column (or across the screen, under
    both) reads on."""
    lines = screen.split("\n")
    s = Size(*size)
    if s.side_right:
        cut = s.grid_width + 1
        lines += [ln[:cut] for ln in lines] + [ln[cut:] for ln in lines]
    return re.sub(r"\s+", " ", " ".join(lines))


def seen(screen: str, cards: Cards, card: str, line: str) -> bool:
    """Whether a take of ``card`` from ``line`` is on the screen: the "since" words
    (``Frog 1 (col 1)``) or the log's (``takes Frog slime 1 from column 1``)."""
    short = f"{cards.short(card)} ({line.replace('col', 'col ').replace('row', 'row ')})"
    long = f"takes {cards.name(card)} from {line.replace('col', 'column ').replace('row', 'row ')}"
    return short in screen or long in screen
