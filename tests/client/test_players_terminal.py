"""Registered players in real terminals (protocol 1.2; tmux against a real server):
a name registered once, the secret kept 0600 in the data directory, every later start
signed in by itself, a device code shown and redeemed in another terminal with its own
data directory, a rated game on the profile replayed on the review screen, and the
leaderboard, each read at 80x24, 60x20 and 120x40. The server keeps its games in
SQLite (a memory store keeps no finished games to list)."""

from __future__ import annotations

import asyncio
import json
import re
import stat
from pathlib import Path

import pytest

from .rated import play_rated_game
from .tmux import KK, Tmux, free_port, needs_tmux, showing

pytestmark = [needs_tmux, pytest.mark.e2e]


def code_of(screen: str) -> str:
    found = re.search(r"Device code: ([0-9A-Z]{4}-[0-9A-Z]{4})", screen)
    assert found, screen
    return found.group(1)


@pytest.mark.long
def test_register_move_devices_profile_replay_and_leaderboard(tmp_path: Path) -> None:
    t = Tmux(tmp_path / "host")
    port = free_port()
    url = f"ws://127.0.0.1:{port}"
    ada_dir, other_dir = tmp_path / "ada", tmp_path / "other"
    try:
        t.start(
            f"{KK} host --port {port} --bind 127.0.0.1 --db {tmp_path / 'server.db'}"
            " --no-announce --name Hanna",
            name="host",
        )
        t.wait("n: new table", name="host")
        t.start(f"{KK} join {url} --name Ada", name="ada", data_dir=ada_dir)
        t.wait("m: your player", name="ada")
        t.keys("m", name="ada")
        t.wait("Register this name", name="ada")
        t.keys("Down", name="ada")  # the name is filled in: Ada
        t.keys("Enter", name="ada")
        screen = t.wait("registered as Ada", name="ada")
        t.wait("No finished games yet", name="ada")
        kept = ada_dir / "players.json"
        assert stat.S_IMODE(kept.stat().st_mode) == 0o600
        (entry,) = json.loads(kept.read_text()).values()
        assert entry["name"] == "Ada" and re.fullmatch(r"[A-Za-z0-9_-]{43}", entry["secret"])
        assert entry["secret"] not in screen

        t.keys("d", name="ada")  # a code for the Python client, "another device" of Ada's
        code = code_of(t.wait("Device code:", name="ada"))
        asyncio.run(play_rated_game(url, code))

        t.keys("d", name="ada")  # and one for a terminal of its own
        code2 = code_of(t.wait(lambda s: "Device code:" in s and code not in s, name="ada"))
        t.start(f"{KK} join {url} --name Visitor", name="other", data_dir=other_dir)
        t.wait("m: your player", name="other")
        t.keys("m", name="other")
        t.wait("Device code", name="other")
        for _ in range(2):
            t.keys("Down", name="other")
        t.keys(code2.lower().replace("-", ""), name="other")
        t.keys("Down", name="other")
        t.keys("Enter", name="other")
        t.wait("signed in as Ada on this device too", name="other")
        t.wait("Recent games (1)", name="other")
        (other,) = json.loads((other_dir / "players.json").read_text()).values()
        assert other["name"] == "Ada" and other["secret"] != entry["secret"]

        t.keys("q", name="ada")  # back to the lobby, and quit
        t.keys("q", name="ada")
        assert t.wait_gone("ada")
        t.start(f"{KK} join {url} --name Ada", name="ada", data_dir=ada_dir)
        t.wait("signed in as Ada", name="ada")  # by itself
        t.wait("(you: Ada)", name="ada")
        for size in ((80, 24), (60, 20), (120, 40)):
            t.resize(*size, name="ada")
            t.keys("m", name="ada")
            words = ("Recent games (1)", "player Ada", "Rating", "Rated evening")
            # the whole screen, not one caught mid-redraw
            screen = t.wait(showing(*words, "Enter: replay it", "Esc: back"), name="ada")
            assert re.search(r"Rating -?\d+\.\d\?", screen), screen  # provisional
            t.keys("Enter", name="ada")
            t.wait("review: the start", name="ada")
            t.keys("End", name="ada")
            t.wait(lambda s: re.search(r"take (\d+) of \1", s) is not None, name="ada")
            t.keys("q", name="ada")
            t.wait("Recent games (1)", name="ada")
            t.keys("b", name="ada")
            t.wait(showing("Rated players: 2", "Ada", "Grace"), name="ada")
            t.keys("Escape", name="ada")
            t.wait("player Ada", name="ada")
            t.keys("Escape", name="ada")
            t.wait("m: your player", name="ada")
        t.keys("n", name="ada")  # signed in: the form offers a rated table
        t.wait(showing("New table", "Rated (ratings change)"), name="ada")
    finally:
        t.kill()
