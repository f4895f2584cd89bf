"""The lobby's list of tables ("Tables on <server>"), drawn without a server: the `*`
by the seat that is yours, wrapping that keeps each piece whole, and a cursor that
stays on its table when the list is refreshed."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from prompt_toolkit.input import create_pipe_input

from client.lib import Client
from client.tokens import TokenStore
from client.ui.app import KupferApp
from protocol import messages as m
from tests.helpers.screens import SizedOutput, draw, flat

LONG = "Bob's long table name here"
WORD = "Supercalifragilisticexpialidocio"  # 32 characters, wider than the column at 60


def table(
    id: str, name: str, seats: list[str | None], state: m.TableState = "lobby"
) -> m.TableSummary:
    return m.TableSummary(
        id=id,
        name=name,
        state=state,
        private=False,
        options=m.TableOptions(players=len(seats)),
        seats=tuple(m.SeatInfo(seat=i, name=n) for i, n in enumerate(seats)),
        spectators=0,
    )


@pytest.fixture
def store(tmp_path: Path) -> TokenStore:
    return TokenStore(tmp_path / "tokens")


@pytest.fixture
def kapp(store: TokenStore) -> Iterator[KupferApp]:
    """The lobby of a player Bob, connected (as far as the lobby can tell) to a server
    that is never asked anything."""
    client = Client("ws://127.0.0.1:9", name="Bob", tokens=store)
    with create_pipe_input() as inp:
        yield KupferApp(name="Bob", client=client, input=inp, output=SizedOutput())


def right(screen: str, height: int) -> list[str]:
    """The right column (the tables) of a screen ``draw`` returned, line by line."""
    return [ln[35:].rstrip() for ln in screen.split("\n")[:height]]


def cursor_line(kapp: KupferApp, width: int, height: int) -> str:
    (line,) = [ln for ln in right(draw(kapp, width, height), height) if ln.startswith(">")]
    return line


def test_the_mark_is_by_the_seat_that_is_yours(kapp: KupferApp, store: TokenStore) -> None:
    """`*` followed the last seat's name whichever seat was kept: "Bob, Ann *" for
    Bob's seat 1. It goes by the seat Enter takes back."""
    client = kapp.client
    assert client is not None
    store.save(client.url, "t1", 0, "token-0", "Bob")
    kapp.lobby.tables = (table("t1", LONG, ["Bob", "Ann"], "playing"),)
    screen = draw(kapp, 120, 40)
    assert f"{LONG} (playing; 2 players): Bob *, Ann" in screen, screen
    assert "Ann *" not in screen
    assert "* your seat: Enter takes it back" in screen

    store.forget(client.url, "t1")
    store.save(client.url, "t1", 1, "token-1", "Bob")  # the second seat, kept as Bob
    assert "): Bob, Ann *" in draw(kapp, 120, 40)

    store.forget(client.url, "t1")  # no token: the seat a signed-in player holds
    client.player_seats = (m.PlayerSeat(table="t1", seat=0, state="playing"),)
    assert "): Bob *, Ann" in draw(kapp, 120, 40)

    client.player_seats = ()  # nothing of ours: no mark and no legend
    screen = draw(kapp, 120, 40)
    assert "*" not in screen


@pytest.mark.parametrize("width", [60, 69, 70, 80, 120])
def test_wrapping_keeps_the_mark_with_its_seat(
    kapp: KupferApp, store: TokenStore, width: int
) -> None:
    """At 69-70 columns the `*` wrapped onto a line of its own, and a seat list split
    as "-," with "-" alone below: no line of the list may hold a lone `*` or `-`."""
    client = kapp.client
    assert client is not None
    store.save(client.url, "t1", 1, "token-1", "Ann")  # the last seat: "Bob, Ann *"
    kapp.lobby.tables = (
        table("t1", LONG, ["Bob", "Ann"], "playing"),
        table("t2", "a table with a rather long name", [None, None]),
        table("t3", "x", [None, None, None]),
    )
    for w in range(max(60, width - 3), width + 4):  # and its neighbours
        height = 24
        lines = right(draw(kapp, w, height), height)
        column = flat("\n".join(lines))
        assert "Bob, Ann *" in column, "\n".join(lines)
        assert "-, -" in column and "-, -, -" in column
        for ln in lines:
            assert ln.strip() not in ("*", "-", "-,", "*,", "Ann", "*, Ann"), "\n".join(lines)
            assert not ln.lstrip().startswith("*"), "\n".join(lines)


@pytest.mark.parametrize("selected", [0, 1])
def test_a_word_wider_than_the_column_breaks_within_it(kapp: KupferApp, selected: int) -> None:
    """A one-word name too long for the column (32 characters at 60x20) left the `>`
    alone on a row of its own: it stays on the line where the name starts, and the
    word breaks within the column, with no blank line in the list."""
    kapp.lobby.tables = (table("t1", "short", [None, None]), table("t2", WORD, ["Ann", None]))
    kapp.lobby.table_index = selected
    height = 20
    lines = right(draw(kapp, 60, height), height)
    start = next(i for i, ln in enumerate(lines) if ln.startswith("Tables on"))
    end = max(i for i, ln in enumerate(lines) if "Ann" in ln)
    listed = lines[start : end + 1]
    assert all(ln.strip() for ln in listed), "\n".join(lines)
    named = next(ln for ln in listed if WORD[:10] in ln)
    assert named.startswith(">" if selected else "  Super"), "\n".join(lines)
    assert WORD in "".join(ln.strip() for ln in listed)  # nothing cut, read on across lines
    if selected:
        assert cursor_line(kapp, 60, height).startswith(f"> {WORD[:10]}")


def test_the_cursor_stays_on_its_table_when_the_list_changes(kapp: KupferApp) -> None:
    """The `>` kept its row number when the list reordered, so Enter took another
    table than the one it had been on: it follows the table by id, and with that table
    gone it stays on the row it was on (the last row of a shorter list)."""
    lobby = kapp.lobby
    entered: list[str] = []
    lobby.enter_table = lambda t, invite, *, watch, seat=None: entered.append(t)  # type: ignore[method-assign]
    a, b, c, d = (table(t, f"table {t}", [None, None]) for t in ("ta", "tb", "tc", "td"))
    lobby.tables = (a, b, c, d)
    lobby.key("down")
    lobby.key("down")
    assert cursor_line(kapp, 80, 24).startswith("> table tc")
    lobby.tables = (c, d, a)  # tb gone, tc moved up to the top
    assert cursor_line(kapp, 80, 24).startswith("> table tc")
    lobby.key("enter")
    assert entered == ["tc"]

    lobby.tables = (d, a, b)  # tc gone: the row it was on (the first)
    assert cursor_line(kapp, 80, 24).startswith("> table td")
    lobby.key("down")
    lobby.key("down")  # on tb, the last row
    lobby.tables = (a, d)  # tb gone: the last row of the shorter list
    assert cursor_line(kapp, 80, 24).startswith("> table td")
    lobby.key("enter")
    assert entered == ["tc", "td"]

    lobby.tables = ()  # nothing listed: then a fresh list starts at the top
    lobby.tables = (b, c)
    assert cursor_line(kapp, 80, 24).startswith("> table tb")
    lobby.key("p")  # the join form is filled in with the table the cursor is on
    assert lobby.form is not None and lobby.form.values["table_id"] == "tb"


def test_the_cursor_starts_on_the_game_whose_seat_is_yours(
    kapp: KupferApp, store: TokenStore
) -> None:
    """Coming back to the lobby after leaving a game, the cursor was on the first table
    listed (a finished one) while the line under the list said "* your seat: Enter
    takes it back": Enter joined the wrong table. The first listing puts the cursor on
    the running game with our seat; moved elsewhere, the line says to choose it."""
    client = kapp.client
    assert client is not None
    store.save(client.url, "t2", 1, "token-1", "Bob")
    kapp.lobby.tables = (
        table("t1", "old game", ["Ann", "Bob"], "finished"),
        table("t2", "our game", ["Ann", "Bob"], "playing"),
    )
    assert kapp.lobby.table_index == 1
    assert cursor_line(kapp, 120, 40).startswith("> our game"), draw(kapp, 120, 40)
    assert "* your seat: Enter takes it back" in draw(kapp, 120, 40)
    kapp.lobby.key("up")
    assert cursor_line(kapp, 120, 40).startswith("> old game")
    assert "* your seat: choose it, then Enter takes it back" in draw(kapp, 120, 40)


@pytest.mark.parametrize("width", [60, 80])
def test_a_seat_at_a_private_table_is_found_from_the_lobby(
    kapp: KupferApp, store: TokenStore, width: int
) -> None:
    """Back after the connection was gone, a private table's seat was nowhere in the
    lobby ("no tables yet: press n"): the lobby names it, and p fills in its id."""
    client = kapp.client
    assert client is not None
    store.save(client.url, "d65ecf47", 1, "token-1", "Bob")
    store.save(client.url, "other", 0, "token-0", "Ann")  # another name's: not ours
    screen = draw(kapp, width, 20)
    assert "Your seat at table d65ecf47 (private): p, then Join, takes it back" in flat(screen)
    assert "other" not in screen
    kapp.key("p")
    assert kapp.lobby.form is not None and kapp.lobby.form.values["table_id"] == "d65ecf47"
    kapp.key("escape")
    kapp.lobby.tables = (table("t1", "Open table", ["Cy", None], "lobby"),)
    screen = draw(kapp, width, 20)
    assert "Your seat at table d65ecf47 (private): p with its id takes it back" in flat(screen)
