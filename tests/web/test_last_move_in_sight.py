"""The last move in sight at every decision, at every size from a 360 x 640 phone up: the
line under the grid, or beside it on a phone held sideways ("Last move: ..."), and the
grid's mark of the last take are wholly on the screen when the turn comes (neither off
the page's screen nor clipped by a column that scrolls on its own), with no scrolling by
the person; and that line says the last move as it was, a corner stop ("... stops at a
corner: nothing taken") or a boom ("Bo's boom: Whiskers 3 leaves your kettle") too, not
the take before it. A corner stop that comes with one's own take is shown a moment after
it, at the pace of a take."""

from __future__ import annotations

import itertools
import time
from typing import Any

import pytest

from tests.helpers.pages import GAME_TIMEOUT, create_table, join_by_invite, my_turn, take_one
from tests.helpers.web import LiveServer, open_lobby, shot, until

pytestmark = pytest.mark.e2e

AT_DECISION = """() => {
  // wholly on the screen: inside the window, and inside every box around it that clips
  const shown = (el) => {
    if (!el) return null;
    const r = el.getBoundingClientRect();
    if (r.top < -0.5 || r.left < -0.5 || r.bottom > innerHeight + 0.5
        || r.right > innerWidth + 0.5) return false;
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      const s = getComputedStyle(p);
      if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
      const q = p.getBoundingClientRect();
      if (r.top < q.top - 0.5 || r.bottom > q.bottom + 0.5
          || r.left < q.left - 0.5 || r.right > q.right + 0.5) return false;
    }
    return true;
  };
  // the last move the log holds (a take or a corner stop), and what its boom hit
  const lines = [...document.querySelectorAll('.log-lines li')];
  let i = lines.length - 1;
  while (i >= 0 && !['took', 'passed_corner'].includes(lines[i].className)) i--;
  const booms = [];
  for (let j = i + 1; j < lines.length; j++) {
    if (['took', 'passed_corner'].includes(lines[j].className)) break;
    if (lines[j].className === 'exploded') booms.push(lines[j].textContent);
  }
  return {
    line: document.getElementById('lastmove').textContent,
    lineShown: shown(document.getElementById('lastmove')),
    cellShown: shown(document.querySelector('#board .cell.last')),
    logged: i >= 0 ? lines[i].textContent : null,
    kind: i >= 0 ? lines[i].className : null,
    booms,
  };
}"""
"""At a decision: the last-move line and the marked cell, whether each is wholly on the
screen (null: no cell marked), and the last move the log says, with its booms."""

WATCH_MOVES = """() => {
    window.kkMoves = [];
    const seen = () => {
        const text = document.getElementById('lastmove')?.textContent ?? '';
        const last = window.kkMoves[window.kkMoves.length - 1];
        if (text && (!last || last[1] !== text)) window.kkMoves.push([performance.now(), text]);
    };
    new MutationObserver(seen).observe(document.getElementById('main'),
        {childList: true, characterData: true, subtree: true});
    seen();
}"""
"""Every line the page puts under the grid, with the page's time (ms)."""

SIZES = [
    ("phone", 360, 640),
    ("phone", 390, 844),
    ("phone", 844, 390),
    ("phone", 640, 360),
    ("desktop", 1280, 800),
]

LONG_NAME = "Beatrix Wolkenstein-Habermann"
HARD = 37
"""The decision of the seeded game below whose last move is the longest to show: Bea's
take from the grid's top row, whose boom takes a card from Ann's kettle, said with Bea's
long name twice, with two cards out of the game in the deck's line: at 844 x 390 the
grid, such a line and the deck's beside it do not fit in one screen one under the other.
Takes from the top row come at other decisions too: at 640 x 360 no such take and its
line fit under the grid."""


def seeded_game(host: Any, live: LiveServer, open_page: Any) -> Any:
    """Ann (``host``) and Bea (a phone page, returned) at a table with the deal of seed
    2, each taking the card the count of decisions so far picks: the same game every
    time, with corner stops, booms, cards out of the game, and takes from the grid's top
    row (the farthest from the line under it) with a long line after them."""
    open_lobby(host, live)
    create_table(host, fill={"opt-seed": "2"}, **{"seat-1": ""})
    # a long name (said twice in a boom's line): the longest lines a game brings
    return join_by_invite(host, open_page, name=LONG_NAME)


@pytest.mark.long
@pytest.mark.parametrize(("size", "width", "height"), SIZES)
def test_the_last_move_is_in_sight_at_every_decision(
    live_server: LiveServer, open_page: Any, size: str, width: int, height: int
) -> None:
    page = open_page(size)
    page.set_viewport_size({"width": width, "height": height})
    guest = seeded_game(page, live_server, open_page)
    deadline = time.monotonic() + GAME_TIMEOUT
    seen: list[dict[str, Any]] = []
    decisions = 0  # both seats'
    while not page.locator("#end-h").count():
        assert time.monotonic() < deadline, f"the game did not end: {seen[-3:]}"
        if my_turn(guest):
            decisions += 1
            take_one(guest, "phone", pick=decisions)
            until(
                guest,
                "!document.querySelector('.options button') || "
                "document.querySelector('.options button').disabled",
            )
        if not my_turn(page):
            page.wait_for_timeout(30)
            continue
        decisions += 1
        at = {**page.evaluate(AT_DECISION), "decision": decisions}
        seen.append(at)
        if at["logged"] is not None:
            where = f"decision {decisions} at {width}x{height}: {at}"
            assert at["lineShown"], f"the last-move line is not wholly in view, {where}"
            # the last take's slot is marked (a card refilled there, or the slot empty)
            assert at["cellShown"] is not None, f"no cell marked, {where}"
            assert at["cellShown"], f"the marked cell is not wholly in view, {where}"
            # the line says the last move itself: a corner stop, a take and its booms
            assert at["line"].startswith(f"Last move: {at['logged']}"), where
            for boom in at["booms"]:
                assert boom in at["line"], where
            if len(seen) == 2 or decisions == HARD:
                shot(page, f"{size}{width}x{height}-50-last-move-{decisions}")
        take_one(page, size, pick=decisions)
        until(
            page,
            "!document.querySelector('.options button') || "
            "document.querySelector('.options button').disabled",
        )
    said = [s for s in seen if s["logged"]]
    corners = [s for s in said if s["kind"] == "passed_corner"]
    booms = [s for s in said if s["booms"]]
    print(
        f"{width}x{height}: {len(seen)} decisions, {len(corners)} after a corner stop, "
        f"{len(booms)} after a boom"
    )
    assert len(said) >= 5 and corners and booms, seen
    # the hard case came: a boom's line after a take from the top row
    hard = [s for s in seen if s["decision"] == HARD]
    assert len(hard) == 1 and hard[0]["booms"], seen
    assert page.errors == [] and guest.errors == []


def corner_after_own_take(moves: list[list[Any]]) -> float | None:
    """Seconds between Ann's own take and Bea's corner stop shown after it (None: not
    seen yet)."""
    for (t0, a), (t1, b) in itertools.pairwise(moves):
        if a.startswith("Last move: White (Ann, you) takes") and b.startswith(
            "Last move: Black (Bea) stops at a corner"
        ):
            return (t1 - t0) / 1000
    return None


def test_a_corner_stop_and_a_boom_are_said_on_the_main_line(
    live_server: LiveServer, open_page: Any
) -> None:
    # two people and a seeded deal, each taking the first card offered: the same game
    # every time, in which Bea's boom hits Ann's kettle and Bea's pawn stops beside a
    # corner right after one of Ann's takes (the server says both in one update)
    host = open_page("phone")
    host.set_viewport_size({"width": 360, "height": 640})
    open_lobby(host, live_server)
    create_table(host, fill={"opt-seed": "1"}, **{"seat-1": ""})
    guest = join_by_invite(host, open_page)
    host.evaluate(WATCH_MOVES)
    deadline = time.monotonic() + GAME_TIMEOUT
    while True:
        moves: list[list[Any]] = host.evaluate("window.kkMoves")
        lines = [m[1] for m in moves]
        boom = [x for x in lines if "Bea's boom: " in x]
        gap = corner_after_own_take(moves)
        if boom and gap is not None:
            break
        assert time.monotonic() < deadline, lines
        assert not host.locator("#end-h").count(), lines
        for page in (host, guest):
            if my_turn(page):
                take_one(page, "phone", pick=0)
                until(
                    page,
                    "!document.querySelector('.options button') || "
                    "document.querySelector('.options button').disabled",
                )
        host.wait_for_timeout(20)
    # the boom on the main line: whose, what, from whose kettle
    assert any(
        x.startswith("Last move: Black (Bea) takes")
        and ", explodes. Bea's boom: " in x
        and " leaves your kettle, " in x
        for x in boom
    ), boom
    # the corner stop a moment after Ann's own take (0.3 s apart at the fast pace), not
    # in the same instant, and said as the last move
    assert gap >= 0.25, (gap, lines)
    assert "stops at a corner: nothing taken" in "".join(lines)
    shot(host, "phone360x640-51-corner-stop-said")
    assert host.errors == [] and guest.errors == []
