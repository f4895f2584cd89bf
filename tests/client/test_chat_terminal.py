"""Chat in real terminals: a line said on the waiting screen shows there, the newest
line shows for a while during play, and ``C`` shows every line said at the table,
rounds later, whatever the log's memory rule keeps (issue 23, item 5)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from .tmux import KK, Tmux, answer, form_set, free_port, needs_tmux, showing, table_id

pytestmark = [needs_tmux, pytest.mark.e2e]


def say(t: Tmux, name: str, text: str) -> None:
    t.keys("c", name=name)
    t.wait("say: _", name=name)
    t.keys(text, name=name)
    t.keys("Enter", name=name)


def test_chat_has_its_own_history(tmp_path: Path) -> None:
    t = Tmux(tmp_path)
    port = free_port()
    try:
        t.start(
            f"{KK} host --port {port} --bind 127.0.0.1 --no-persist --no-announce --name Hanna",
            name="host",
            size=(60, 20),
        )
        t.wait("n: new table", name="host")
        t.keys("n", name="host")
        t.wait("New table", name="host")
        form_set(t, "host", "Create table")
        table = table_id(t.wait("Waiting for players", name="host"))
        say(t, "host", "hello from the waiting room")
        said = "<Hanna> hello from the waiting room"
        t.wait(showing(said, "Waiting for players", "Chat"), name="host")  # whole screens
        t.start(f"{KK} join ws://127.0.0.1:{port} --table {table} --name Jo", name="jo")
        t.wait("Deck", name="jo")
        say(t, "jo", "good luck")
        for name in ("host", "jo"):  # the newest line, above the status line
            t.wait("<Jo> good luck", name=name)
        start = time.monotonic()  # a few rounds: strict memory forgets older turns
        while time.monotonic() < start + 6:
            for name in ("host", "jo"):
                answer(t, name, t.screen(name))
            time.sleep(0.2)
        t.keys("C", name="host")
        t.wait(showing("Chat at this table", said, "<Jo> good luck"), name="host")
        t.keys("x", name="host")
        t.wait(lambda s: "Chat at this table" not in s and "Deck" in s, name="host")
    finally:
        t.kill()
