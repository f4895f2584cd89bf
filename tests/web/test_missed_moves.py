"""Nothing missed after a dropped connection (protocol 1.4): a phone's page whose
connection is cut three times in a game, and which is reloaded once, shows every take
made meanwhile, one after the other as if its person had watched, before it asks for
the next decision; the takes a computer made for its seat while it was away are told
as the computer's ("The computer played for you: ..."). The server's own record of the
game says which takes were made, so the check does not trust the page.

The page's person is Ann (White) on a 360 x 640 phone; Bea (Black) is a second page the
test plays, and Lilac a computer player. A cut is a lost network: the browser offline
(no new connection) and the open WebSocket aborted at the server; it ends once the page
has its seat back, the network on again (Bea waits for that, as the game must not run
out during a cut however slowly a loaded machine reconnects)."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.helpers.pages import GAME_TIMEOUT, join_by_invite, my_turn, take_one, web_words
from tests.helpers.web import LiveServer, open_lobby, shot, table_now, taken, until

pytestmark = pytest.mark.e2e

ANN = 0
COLOURS = ("White", "Black", "Lilac")

SEEN = """(() => {
  let last = null;
  const look = () => {
    const text = document.getElementById('lastmove')?.textContent ?? null;
    if (!text || text === last) return;
    last = text;
    const seen = JSON.parse(sessionStorage.getItem('kk-seen') ?? '[]');
    sessionStorage.setItem('kk-seen', JSON.stringify([...seen, text]));
  };
  new MutationObserver(look).observe(document,
    {childList: true, characterData: true, subtree: true});
})()"""
"""Every line the page puts under the grid, kept in the tab's ``sessionStorage`` as it
shows (``seen``). A reload keeps them: the script runs in every document of the page,
and a line shown just before a reload is kept at once, by the page itself. (Handed to
the test through an exposed function instead, such a line could be lost: Playwright
drops a call whose document goes away before the call is handled.)"""


def seen(page: Any) -> list[str]:
    """The lines the page has put under the grid so far, in order (``SEEN``)."""
    lines: list[str] = page.evaluate("JSON.parse(sessionStorage.getItem('kk-seen') ?? '[]')")
    return lines


def said(line: str, seat: int, card: str) -> bool:
    """``line`` (under the grid) says ``seat``'s take of ``card``: Ann's are the
    computer's (she was away), told as such."""
    who = "The computer played for you: White" if seat == ANN else COLOURS[seat]
    return line.startswith(f"Last move: {who}") and f" takes {web_words(card)}" in line


def all_shown(lines: list[str], takes: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """The takes of ``takes`` not shown in ``lines``, in order (empty: every one was)."""
    i = 0
    for n, (seat, card) in enumerate(takes):
        while i < len(lines) and not said(lines[i], seat, card):
            i += 1
        if i == len(lines):
            return takes[n:]
        i += 1
    return []


def cut(page: Any, live: LiveServer) -> None:
    """Ann's network goes: no new connection, and the open one is cut. The page hears
    of the cut from the server's close, unless a frame was on its way as the network
    went (a computer's take): Chromium offline holds it, and the close behind it, until
    the network is back, as a dead network delivers nothing. Then the page finds out by
    itself, within about 20 s (``test_dead_network.py``); a loaded machine is slower."""
    page.context.set_offline(True)
    live.drop_connections("Ann")
    until(
        page,
        "document.getElementById('conn').textContent.startsWith('connection lost')",
        timeout=60_000,
    )


def play_bea(bea: Any) -> None:
    if my_turn(bea):
        take_one(bea, "phone", pick=0)
        until(
            bea,
            "!document.querySelector('.options button') || "
            "document.querySelector('.options button').disabled",
        )


def occupant(live: LiveServer, seat: int) -> object:
    """Who holds ``seat`` at the server now: the connection it came back on (None: it
    is away)."""

    async def read() -> object:
        (table,) = live.server.lobby.tables.values()
        return table.seating.seats[seat].occupant

    return live.call(read())


def computer_takes(live: LiveServer) -> list[int]:
    """The indices of the takes a computer made for a person's seat (Ann's while she
    was away; Bea's, had her page lost its connection for longer than the grace)."""

    async def read() -> list[int]:
        (table,) = live.server.lobby.tables.values()
        return list(table.lineup.computer)

    made: list[int] = live.call(read())
    return made


def back(live: LiveServer, seat: int, before: object) -> None:
    """Wait until the page of ``seat`` has it back on a new connection (its resume, not
    the connection ``before`` the cut or reload). Bea waits meanwhile, so the game goes
    on without Ann only until Bea's turn, however long a loaded machine takes to bring
    the page back (the game's last take could otherwise come while the page still
    connects: once 16 takes came during one cut)."""
    deadline = time.monotonic() + 90
    while (now := occupant(live, seat)) is None or now is before:
        assert time.monotonic() < deadline, f"the page never had its seat {seat} back"
        time.sleep(0.05)


def until_server(live: LiveServer, bea: Any, done: Any, what: str) -> None:
    """Play Bea's turns until ``done(takes, mover)`` of the server's table holds."""
    deadline = time.monotonic() + 60
    while not done(*table_now(live)):
        assert time.monotonic() < deadline, f"never: {what} {table_now(live)}"
        play_bea(bea)
        bea.wait_for_timeout(30)


@pytest.mark.long
def test_a_phone_cut_off_three_times_and_reloaded_sees_every_take_meanwhile(
    live_server: LiveServer, open_page: Any
) -> None:
    ann = open_page("phone")
    ann.set_viewport_size({"width": 360, "height": 640})
    ann.context.add_init_script(script=SEEN)
    open_lobby(ann, live_server)
    ann.fill("#player-name", "Ann")
    ann.click("#new-table")
    ann.wait_for_selector("#create-go")
    ann.select_option("#opt-players", "3")
    ann.select_option("#seat-1", "")  # Black: Bea; Lilac: a computer player
    ann.fill("#opt-grace", "2")  # away for 2 s: a computer plays Ann's seat
    ann.click("#create-go")
    bea = join_by_invite(ann, open_page)

    plan = ["cut", "cut", "cut until the computer played for Ann", "reload"]
    mark = 0  # the record's length after Ann's last take
    marks: list[int] = []  # each such length, so that a failure says who took when
    pos = 0  # the lines the page had shown then
    done: list[str] = []  # what came before each decision checked, and how many takes
    decisions = 0
    last: str | None = None  # what came before this decision
    deadline = time.monotonic() + GAME_TIMEOUT
    while plan or last:
        assert time.monotonic() < deadline, f"the game took too long: {done}"
        if ann.locator("#end-h").count():
            seats = "".join(str(s) for s, _ in taken(live_server))
            raise AssertionError(
                f"the game ended first: {done}; seats that took {seats}, {marks}; "
                f"the takes a computer made for a person: {computer_takes(live_server)}"
            )
        play_bea(bea)
        if not my_turn(ann):
            ann.wait_for_timeout(30)
            continue
        # Ann is to decide: every take since her last one is on the page already
        takes = taken(live_server)
        meanwhile = takes[mark:]
        shown = seen(ann)
        missing = all_shown(shown[pos:], meanwhile)
        assert not missing, f"after {done}: {missing} not shown; shown {shown[pos:]}"
        decisions += 1
        if last:
            done.append(f"{last}: {len(meanwhile)} takes shown")
            last = None
        if len(done) == 3:
            shot(ann, "phone360x640-52-after-cuts")
        n = len(takes)
        take_one(ann, "phone", pick=decisions)
        until_server(live_server, bea, lambda t, _m, n=n: len(t) > n, "Ann's take")
        mark, pos = len(taken(live_server)), len(seen(ann))
        marks.append(mark)
        if not plan or table_now(live_server)[1] == ANN:
            continue  # (a wand: Ann plays again at once, nothing to miss; next time then)
        action = last = plan.pop(0)
        if action == "reload":
            # Bea moves, then the page is reloaded while it may still be showing it
            until_server(live_server, bea, lambda t, _m, n=mark: len(t) > n, "Bea's take")
            before = occupant(live_server, ANN)
            ann.reload()
            back(live_server, ANN, before)
        else:
            before = occupant(live_server, ANN)
            cut(ann, live_server)
            if action == "cut":
                # until Ann's turn (or, her grace run out on a slow machine, a computer's
                # take for her seat): Bea and Lilac have moved
                until_server(
                    live_server,
                    bea,
                    lambda t, m, n=mark: m in (ANN, None) or any(s == ANN for s, _ in t[n:]),
                    "Ann's turn",
                )
            else:
                until_server(
                    live_server,
                    bea,
                    lambda t, _m, n=mark: any(s == ANN for s, _ in t[n:]),
                    "a computer's take for Ann",
                )
            ann.context.set_offline(False)
            back(live_server, ANN, before)
    shown = seen(ann)
    computer = [ln for ln in shown if ln.startswith("Last move: The computer played for you:")]
    assert computer, shown
    print(f"decisions checked: {done}; the computer's takes for Ann told: {len(computer)}")
    offline = "net::ERR_INTERNET_DISCONNECTED"  # a try to connect while offline
    assert [e for e in ann.errors if offline not in e] == [] and bea.errors == []
