"""The terminal client in another language, in a real terminal: ``host`` on loopback,
a table against the computer made from the lobby's form, played to the score table.
Every screen on the way (the lobby, the form, the table, the help, the result) is read
at 60x20 and at 80x24 (the window resized under it) for words left in English; German
is chosen by the locale (``LANG``), the pseudo-locale by ``--lang``."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from client import i18n
from tests.helpers.languages import untranslated

from .tmux import KK, Tmux, form_set, free_port, needs_tmux

pytestmark = [needs_tmux, pytest.mark.e2e]

SIZES = [(60, 20), (80, 24)]


def said(lang: str, message: str, **fields: str | int) -> str:
    """``message`` as the client shows it in ``lang``: with ``fields``, filled in;
    else its words before the first field."""
    i18n.use(lang)
    try:
        text = i18n._(message)
        if fields:
            return text.format(**fields)
        return text.split("{")[0].strip()
    finally:
        i18n.use("en")


def i18n_colour(lang: str, colour: str) -> str:
    i18n.use(lang)
    try:
        return i18n.colour_word(colour)
    finally:
        i18n.use("en")


@pytest.fixture
def english_after() -> Iterator[None]:
    yield
    i18n.use("en")


def read(t: Tmux, lang: str, names: set[str], what: str) -> None:
    """The screen at each size: nothing left in English, nothing past its width."""
    for width, height in SIZES:
        t.resize(width, height)
        screen = t.wait(lambda s, w=width: len(s.split("\n")[0]) <= w and s.strip() != "")
        time.sleep(0.3)  # the redraw after the resize
        screen = t.screen()
        lines = screen.split("\n")
        assert all(len(line) <= width for line in lines), screen
        left = untranslated(screen, lang, names)
        assert left == [], f"{what} at {width}x{height} in {lang}: {left}\n{screen}"


@pytest.mark.parametrize(
    ("lang", "how"), [("de", "env LANG=de_DE.UTF-8"), (i18n.PSEUDO, f"--lang {i18n.PSEUDO}")]
)
def test_a_game_in_the_terminal_speaks_the_language(
    tmp_path: Path, lang: str, how: str, english_after: None
) -> None:
    t = Tmux(tmp_path)
    port = free_port()
    env, flag = (how, "") if how.startswith("env") else ("", how)
    command = (
        f"{env} {KK} host --port {port} --bind 127.0.0.1 --no-persist --no-announce "
        f"--no-web --name Ada {flag}"
    )
    names = {"Ada", f"127.0.0.1:{port}", "ws"}
    try:
        t.start(command, size=(60, 20))
        t.wait(said(lang, "Direct address"))
        read(t, lang, names, "the lobby")
        t.keys("n")
        t.wait(said(lang, "New table"))
        read(t, lang, names, "the new-table form")
        # the second seat: a computer there, then create (each key waited for)
        black = i18n_colour(lang, "black")
        seat = said(lang, "Seat {number} ({colour})", number=2, colour=black)
        form_set(t, "kk", seat, said(lang, "{level} bot", level=said(lang, "easy")))
        form_set(t, "kk", said(lang, "Create table"))
        turn = said(lang, "Your turn: take a card from {line}")
        t.wait(turn)
        read(t, lang, names, "the table")
        t.keys("?")
        t.wait(said(lang, "KEYS"))
        read(t, lang, names, "the help")
        t.keys("PageDown")
        read(t, lang, names, "the help, further on")
        t.keys("x")
        final = said(lang, "Final score")
        deadline = time.monotonic() + 120
        while final not in (screen := t.screen()):
            assert time.monotonic() < deadline, screen
            t.keys("Enter")  # take, use the symbol, keep the last card
            time.sleep(0.2)
        read(t, lang, names, "the score table")
    finally:
        t.kill()
