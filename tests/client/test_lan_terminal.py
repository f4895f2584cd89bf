"""A LAN game as people play it: real terminals in tmux for the host, a player who
joins from the lobby, and a spectator, all played to the score table from what the
screens show. The one who sits down last must see the board at once whatever seat
they take (White, who moves first, or Black)."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from .tmux import (
    KK,
    Tmux,
    answer,
    form_set,
    free_port,
    needs_tmux,
    play_until,
    showing,
    table_id,
)

pytestmark = [needs_tmux, pytest.mark.e2e]


def host_table(t: Tmux, port: int, *, players: int = 2, seat: str = "1 (white)") -> str:
    """Start ``host`` as Hanna and create a table sitting at ``seat``; its id."""
    t.start(
        f"{KK} host --port {port} --bind 127.0.0.1 --no-persist --no-announce --name Hanna",
        name="host",
    )
    t.wait("n: new table", name="host")
    t.keys("n", name="host")
    t.wait("New table", name="host")
    if players == 3:
        form_set(t, "host", "Players", "3")
    form_set(t, "host", "Your seat", seat)
    form_set(t, "host", "Create table")
    return table_id(t.wait("Waiting for players", name="host"))


def join_from_lobby(t: Tmux, name: str, player: str, port: int) -> None:
    t.start(f"{KK} join ws://127.0.0.1:{port} --name {player}", name=name)
    t.wait("Hanna's table", name=name)
    t.keys("Enter", name=name)


def play_out(t: Tmux, players: list[str], watchers: list[str], timeout: float = 240) -> None:
    """Answer every question on the players' screens until every screen shows the
    final score; nobody may sit on a waiting screen once the game is on."""
    deadline = time.monotonic() + timeout
    done: set[str] = set()
    while time.monotonic() < deadline and len(done) < len(players) + len(watchers):
        for name in players + watchers:
            screen = t.screen(name)
            if "Final score" in screen:
                done.add(name)
            elif name in players:
                answer(t, name, screen)
        time.sleep(0.05)
    missing = [n for n in players + watchers if n not in done]
    assert not missing, "\n\n".join(f"{n}:\n{t.screen(n)}" for n in missing)


@pytest.mark.parametrize("joiner_colour", ["white", "black"])
@pytest.mark.long
def test_lan_game_with_host_joiner_and_watcher(tmp_path: Path, joiner_colour: str) -> None:
    t = Tmux(tmp_path)  # one data dir for all: one user, several terminals
    port = free_port()
    try:
        host_seat = "2 (black)" if joiner_colour == "white" else "1 (white)"
        table = host_table(t, port, seat=host_seat)
        join_from_lobby(t, "jo", "Jo", port)
        t.start(f"{KK} watch ws://127.0.0.1:{port} --table {table} --name Eve", name="eve")
        # the one who sat down last sees the board at once, not a waiting screen
        jo = t.wait("Deck", name="jo", timeout=30)
        assert "Waiting for players" not in jo
        t.wait("Deck", name="host", timeout=30)
        if joiner_colour == "white":
            t.wait("Your turn", name="jo", timeout=30)
            t.wait("Waiting for White (Jo)", name="host", timeout=30)
        else:
            t.wait("Your turn", name="host", timeout=30)
            t.wait("Waiting for White (Hanna)", name="jo", timeout=30)
        t.wait("watching", name="eve")
        play_out(t, ["host", "jo"], ["eve"])
        for name in ("host", "jo", "eve"):
            screen = t.screen(name)
            assert "TOTAL" in screen and "Jo" in screen and "Hanna" in screen, screen
    finally:
        t.kill()


@pytest.mark.long
def test_three_player_lan_game(tmp_path: Path) -> None:
    t = Tmux(tmp_path)
    port = free_port()
    try:
        host_table(t, port, players=3, seat="3 (lilac)")
        join_from_lobby(t, "jo", "Jo", port)
        t.wait("Waiting for players", name="jo")
        join_from_lobby(t, "kim", "Kim", port)
        for name in ("host", "jo", "kim"):
            t.wait(showing("Deck", "Lilac Hanna", "White Jo", "Black Kim"), name=name, timeout=30)
        play_out(t, ["host", "jo", "kim"], [])
    finally:
        t.kill()


@pytest.mark.long
def test_resume_mid_game_shows_the_board_and_the_last_round(tmp_path: Path) -> None:
    """Jo's terminal dies mid-game: the host sees Jo away; Jo starts again, Enter on
    the table marked * takes the seat back, with the board and the last round's log."""
    t = Tmux(tmp_path)
    port = free_port()
    try:
        host_table(t, port)
        join_from_lobby(t, "jo", "Jo", port)
        t.wait("Deck", name="jo")
        start = time.monotonic()  # a few turns each, until Jo's log shows a take
        while time.monotonic() < start + 4 or "takes" not in t.screen("jo"):
            assert time.monotonic() < start + 30, t.screen("jo")
            for name in ("host", "jo"):
                answer(t, name, t.screen(name))
            time.sleep(0.2)
        t.tmux("kill-session", "-t", "jo")
        host = t.wait("away", name="host", timeout=30)
        assert "Black Jo" in host
        join_from_lobby(t, "jo", "Jo", port)  # Enter on the table marked *
        jo = t.wait("Deck", name="jo", timeout=30)
        assert "Black Jo (you)" in jo, jo
        # the log of the last round is back: every turn starts with a move
        assert " moves " in jo or "log:" in jo, jo
        t.wait(lambda s: "online" in s and "away" not in s, name="host")
        play_out(t, ["host", "jo"], [])
    finally:
        t.kill()


def test_a_resignation_ends_the_game_on_every_screen_and_a_rematch_follows(
    tmp_path: Path,
) -> None:
    t = Tmux(tmp_path)
    port = free_port()
    try:
        table = host_table(t, port)
        join_from_lobby(t, "jo", "Jo", port)
        t.start(f"{KK} watch ws://127.0.0.1:{port} --table {table} --name Eve", name="eve")
        t.wait("Your turn", name="host")
        t.wait("watching", name="eve")
        t.keys("R", name="jo")
        t.wait("Resign?", name="jo")
        t.keys("y", name="jo")
        for name in ("host", "jo", "eve"):
            screen = t.wait(showing("Black (Jo) resigned", "winner: White (Hanna)"), name=name)
            assert "Your turn" not in screen, screen
            assert "Final score" in screen
        t.keys("g", name="host")  # the board as it was
        screen = t.wait("Deck", name="host")
        assert "Your turn" not in screen
        t.keys("g", name="host")
        for name in ("host", "jo"):  # both ask for a rematch: colours move one seat on
            t.wait("r: ask for it", name=name)
            t.keys("r", name=name)
        for name in ("host", "jo", "eve"):
            # the whole new board: a screen caught mid-redraw on a loaded machine showed
            # its top rows only, above the last lines of the screen before
            t.wait(showing("Deck", "White Jo", "Black Hanna"), name=name)
        t.wait("Your turn", name="jo")
        for name in ("host", "jo"):
            t.keys("q", name=name)
        t.wait("Leave?", name="jo")
        t.keys("n", name="jo")
        t.wait("stops the server", name="host")  # the host is told the truth
    finally:
        t.kill()


def join_by_form(t: Tmux, name: str, player: str, port: int, table: str, seat: str) -> None:
    """``join``, then ``p``: the chosen table's id is filled in; pick ``seat``, Join."""
    t.start(f"{KK} join ws://127.0.0.1:{port} --name {player}", name=name, size=(60, 20))
    t.wait("Hanna's table", name=name)
    t.keys("p", name=name)
    t.wait(f"Table id              {table}", name=name)
    form_set(t, name, "Seat", seat)
    form_set(t, name, "Join")


def test_three_players_the_last_sits_as_white_and_one_resigns(tmp_path: Path) -> None:
    """Seats chosen when joining: the host sits Black, Jo Lilac, and Kim, the last to
    sit down, White: everyone sees the board and Kim moves first. At 60x20 the log has
    no room under the grid, L shows it. Jo resigns: a computer plays Jo's seat to the
    end, every log says so, Jo is never asked to move and goes back to the lobby."""
    t = Tmux(tmp_path)
    port = free_port()
    try:
        table = host_table(t, port, players=3, seat="2 (black)")
        join_by_form(t, "jo", "Jo", port, table, "3")
        t.wait("seat 3: Jo (ready)", name="host")
        join_by_form(t, "kim", "Kim", port, table, "1 (white)")
        for name in ("host", "jo", "kim"):
            t.wait("Deck", name=name, timeout=30)
        t.wait("Your turn", name="kim", timeout=30)
        t.wait("Waiting for White (Kim)", name="jo")
        # Kim's turn (a symbol asks first)
        took = re.compile(
            r"White \(Kim\) takes|White, (since your take|so far): [^,]+ \((col|row) \d"
        )
        play_until(t, "kim", lambda: bool(took.search(t.screen("host"))))
        t.keys("L", name="jo")
        # Jo's screen shows the take a moment later (paced): the log page shows it then
        screen = t.wait(lambda s: "kettles and log" in s and "White (Kim) takes" in s, name="jo")
        assert "White (Kim) takes" in screen and "any other key: back" in screen, screen
        t.keys("x", name="jo")
        t.wait("Deck", name="jo")
        t.keys("R", name="jo")
        t.wait("A computer plays your seat to the end", name="jo")
        t.keys("y", name="jo")
        t.wait("You resigned: a computer plays your seat to the end.", name="jo")
        # the host has not taken yet in this game: "so far", not "since your take"
        t.wait("Lilac, so far: resigned, a computer plays on", name="host")
        t.keys("L", name="host")  # 80x24, three players: the log has a line or two here
        t.wait("Lilac (Jo) resigned: a computer plays their seat", name="host")
        t.keys("x", name="host")
        t.keys("L", name="kim")  # 60x20: the log is on its own page
        t.wait("Lilac (Jo) resigned: a computer plays their seat", name="kim")
        t.keys("Escape", name="jo")
        t.wait("Tables on", name="jo")
    finally:
        t.kill()
