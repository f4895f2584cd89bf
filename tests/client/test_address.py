"""Addresses as people type them: the default port, ``wss://``, and every bad address
told in one line, at the command line and in the lobby, with the program still usable
(issue 23, item 8)."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from client.cli import main
from client.lib import DEFAULT_PORT, BadAddress, ClientError, normalize_url

from .tmux import KK, Tmux, needs_tmux


@pytest.mark.parametrize(
    ("typed", "url"),
    [
        ("127.0.0.1", f"ws://127.0.0.1:{DEFAULT_PORT}"),
        ("127.0.0.1:9000", "ws://127.0.0.1:9000"),
        ("  ws://h:1/ ", "ws://h:1"),
        ("[::1]", f"ws://[::1]:{DEFAULT_PORT}"),
        ("wss://games.example.org/kk/", "wss://games.example.org/kk"),
    ],
)
def test_good_addresses(typed: str, url: str) -> None:
    assert normalize_url(typed) == url


@pytest.mark.parametrize(
    ("typed", "words"),
    [
        ("http://127.0.0.1:28799", "is a web address; a game server's starts with ws://"),
        ("https://example.org", "starts with wss://"),
        ("ws://127.0.0.1:99999", "has a bad port: use a number 1-65535"),
        ("h:abc", "has a bad port"),
        ("ws://h:0", "has a bad port"),
        ("ftp://a", "is not a game server address"),
        ("ws://", "names no server"),
        ("", "no address"),
    ],
)
def test_bad_addresses_say_why(typed: str, words: str) -> None:
    with pytest.raises(BadAddress, match=words) as e:
        normalize_url(typed)
    assert isinstance(e.value, ClientError) and "\n" not in str(e.value)


@pytest.mark.parametrize("typed", ["http://127.0.0.1:28799", "ws://127.0.0.1:99999"])
def test_join_with_a_bad_address_prints_one_line(
    typed: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as e:
        main(["join", typed])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err, err
    last = err.strip().splitlines()[-1]  # after argparse's usage, the one line
    assert last.startswith("kupferkessel join: error: argument url: "), err
    assert "1-65535" in last or "is a web address" in last, err


@pytest.fixture
def not_a_game_server() -> Iterator[int]:
    """A TCP port that answers like a web server, not a websocket one."""
    srv = socket.create_server(("127.0.0.1", 0))
    port: int = srv.getsockname()[1]

    def serve() -> None:
        while True:
            try:
                conn, _ = srv.accept()
            except OSError:
                return
            with conn:
                conn.recv(4096)
                conn.sendall(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")

    threading.Thread(target=serve, daemon=True).start()
    yield port
    srv.close()


def test_join_a_port_that_is_no_game_server(
    not_a_game_server: int, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["join", f"ws://127.0.0.1:{not_a_game_server}"]) == 1
    err = capsys.readouterr().err
    assert "is not a game server" in err and "Traceback" not in err, err


@pytest.mark.e2e
@needs_tmux
def test_bad_addresses_in_the_lobby_leave_it_usable(tmp_path: Path, not_a_game_server: int) -> None:
    t = Tmux(tmp_path)
    t.start(f"{KK} join --name Ann")
    try:
        t.wait("Direct address")
        for typed, words in [
            ("http://127.0.0.1:28799", "is a web address"),
            ("ws://127.0.0.1:99999", "has a bad port"),
            (f"ws://127.0.0.1:{not_a_game_server}", "not a game server"),
        ]:
            t.keys("a")
            t.keys("C-u")  # Ctrl-U clears the field
            t.wait(lambda s: "http" not in s.split("Direct address")[1].split("\n")[1])
            t.keys(typed)
            t.keys("Enter")
            screen = t.wait(words)
            assert "Unhandled exception" not in screen and "Direct address" in screen, screen
            assert "connecting to" not in screen, screen
            t.keys("Escape")
        t.keys("q")
        assert t.wait_gone(timeout=10), t.screen()
    finally:
        t.kill()
