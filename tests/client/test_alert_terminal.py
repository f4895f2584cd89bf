"""The your-turn alert in a real terminal: a LAN player's window title says "Your turn"
while it is, and the terminal bell rings as it begins (settings ``bell`` and
``title``, on by default for ``join`` and ``host``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from .tmux import KK, Tmux, form_set, free_port, needs_tmux, play_until, table_id

pytestmark = [needs_tmux, pytest.mark.e2e]


def title(t: Tmux, name: str) -> str:
    return t.tmux("display-message", "-p", "-t", name, "#{pane_title}").strip()


def test_the_window_says_your_turn(tmp_path: Path) -> None:
    t = Tmux(tmp_path)
    port = free_port()
    try:
        t.start(
            f"{KK} host --port {port} --bind 127.0.0.1 --no-persist --no-announce --name Hanna",
            name="host",
        )
        t.wait("n: new table", name="host")
        t.keys("n", name="host")
        t.wait("New table", name="host")
        form_set(t, "host", "Your seat", "2 (black)")
        form_set(t, "host", "Create table")
        table = table_id(t.wait("Waiting for players", name="host"))
        t.start(f"{KK} join ws://127.0.0.1:{port} --table {table} --name Jo", name="jo")
        t.wait("Your turn", name="jo")
        assert title(t, "jo") == "Your turn - Kupferkessel Co.", title(t, "jo")
        bells = t.tmux("display-message", "-p", "-t", "jo", "#{window_bell_flag}").strip()
        assert bells == "1", bells
        assert title(t, "host") != "Your turn - Kupferkessel Co."
        play_until(t, "jo", lambda: "Your turn" in t.screen("host"))
        screen = t.screen("host")
        assert title(t, "host") == "Your turn - Kupferkessel Co.", screen
        t.wait(lambda s: title(t, "jo") == "Kupferkessel Co.", name="jo")
    finally:
        t.kill()
