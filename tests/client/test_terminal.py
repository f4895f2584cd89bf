"""End to end in a real terminal: tmux runs ``kupferkessel play`` at 80x24, keys go in
with send-keys, the screen comes back with capture-pane, and a whole game against the
computer is played to the final score table."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from .tmux import KK, Tmux, needs_tmux

pytestmark = [needs_tmux, pytest.mark.e2e]


@pytest.mark.long
def test_play_a_whole_game_in_tmux(tmp_path: Path) -> None:
    t = Tmux(tmp_path)
    t.start(f"{KK} play --level easy --name Ann")
    try:
        deadline = time.monotonic() + 150
        screen = ""
        first = True
        while time.monotonic() < deadline:
            screen = t.screen()
            if "Final score" in screen:
                break
            if "Your turn" in screen:
                if first:  # the table screen, as a person sees it at 80x24
                    first = False
                    assert "To move: You" in screen and "Deck" in screen
                    assert "White Ann (you)" in screen
                    assert len(screen.splitlines()) <= 24
                    t.keys("Right")
                t.keys("Enter")
            elif "[y]es" in screen or "[k]eep" in screen:
                t.keys("Enter")
            time.sleep(0.15)
        assert "Final score" in screen, screen
        assert "TOTAL" in screen and "White (Ann)" in screen and "Black (easy bot)" in screen
        t.keys("?")  # the help panel with the scoring overview
        t.wait("SCORING")
        t.keys("Escape")  # back to the score table, then q (not Escape q: Alt-q)
        t.wait(lambda s: "SCORING" not in s and "Final score" in s)
        t.keys("q")
        assert t.wait_gone(timeout=30), "q on the score screen should quit"
    finally:
        t.kill()
