"""``kupferkessel play`` in a real terminal, with its own settings (pacing on): a double
Enter does not play the next turn blind, and quitting says the truth about a game that
lives in the program (issue 23, items 2 and 7)."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from client.ui.render import Size

from .tmux import KK, Tmux, needs_tmux, showing

pytestmark = [needs_tmux, pytest.mark.e2e]


def my_cards(screen: str) -> int:
    """The count of White's kettle, read in the side panel (the right column)."""
    cut = Size(80, 24).grid_width + 1
    side = " ".join(ln[cut:] for ln in screen.split("\n"))
    found = re.search(r"White Ann \(you\)\s+online, (\d+)\s+card", side)
    assert found, screen
    return int(found.group(1))


def test_a_double_enter_takes_one_card(tmp_path: Path) -> None:
    """``play --seed 21``, Enter, 0.35 s, Enter: the computer answers before the second
    key lands, but its turn is paced and the keys wait: one card, not three."""
    t = Tmux(tmp_path, paced=True)  # the commands' own settings: pace 0.8 s, hold 0.4 s
    t.start(f"{KK} play --seed 21 --name Ann")
    try:
        screen = t.wait("Your turn")
        assert my_cards(screen) == 1
        assert "New to the game? G: a three-screen guide" in screen  # the first run
        t.keys("Enter")
        time.sleep(0.35)
        t.keys("Enter")
        screen = t.wait(lambda s: "Your turn" in s and "Black, since your take:" in s)
        time.sleep(1.0)  # whatever a blind key would have done has happened by now
        screen = t.screen()
        assert my_cards(screen) == 2 and "Your turn" in screen, screen
        t.keys("q")
        screen = t.wait(showing("Quit?", "The game ends with this program: it cannot be resumed"))
        assert "join" not in screen.split("Quit?")[1]
        t.keys("n")
        t.wait(lambda s: "Quit?" not in s)
        t.keys("q")
        t.wait("Quit?")
        t.keys("y")
        assert t.wait_gone(timeout=15)
    finally:
        t.kill()


def test_the_guide_is_offered_once(tmp_path: Path) -> None:
    t = Tmux(tmp_path)
    try:
        t.start(f"{KK} play --seed 5 --name Ann", size=(60, 20))
        t.wait("New to the game? G: a three-screen guide")
        t.keys("G")
        t.wait("First game: 1. The goal")
        t.keys("Right")
        t.wait("First game: 2. A turn")
        t.keys("Right")
        t.wait("First game: 3. The end and the score")
        t.keys("Right")
        t.wait(lambda s: "First game" not in s and "Your turn" in s)
        t.keys("q")
        t.wait("Quit?")
        t.keys("y")
        assert t.wait_gone(timeout=15)
        t.start(f"{KK} play --seed 5 --name Ann", size=(60, 20), name="again")
        screen = t.wait("Your turn", name="again")
        assert "G: a three-screen guide" not in screen  # offered once: now from the help
        t.keys("?", name="again")
        t.wait("G: first-game guide", name="again")
    finally:
        t.kill()
