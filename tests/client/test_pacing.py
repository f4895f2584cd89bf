"""Paced play without a terminal: another seat's turn waits a moment after the last
change, our own take shows at once, the take keys wait when our turn comes back, and
the "since your take" lines keep every other seat's turn until we decide (issue 23,
items 2 and 3)."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from client.lib import Client
from client.settings import Settings
from client.tokens import TokenStore
from client.ui.app import KupferApp
from client.ui.log import keep_log, restore_log
from client.ui.pacing import CATCH_UP, Pacer
from client.ui.recent import Recent
from client.ui.render import render_grid, text_of
from client.ui.table import LogEntry
from protocol import messages as m
from protocol.convert import view_model
from shared.options import Options
from shared.record import Record
from shared.view import view
from tests.helpers.pacing import CARDS, COLOURS, moved, refilled, took


def batch(*events: m.GameEvent) -> m.EventsMsg:
    return m.EventsMsg(table="t", state_version=1, events=events)


def test_another_seats_take_waits_our_own_does_not() -> None:
    pacer = Pacer(0.8)
    ours = batch(moved(0, 1, 3), took(0, "moss-2"), refilled("toad-1"), moved(1, 4, 6))
    assert pacer.delay(ours, 0) == 0  # the forced move of the next seat is no choice
    pacer.shown(ours)
    theirs = batch(took(1, "root-2", 1, 4), refilled("vine-3", 1, 4), moved(0, 3, 5))
    assert 0.7 < pacer.delay(theirs, 0) <= 0.8
    pacer.shown_at -= 1.0  # a second later
    assert pacer.delay(theirs, 0) == 0
    assert Pacer(0.0).delay(theirs, 0) == 0  # pacing off
    corner = batch(m.PassedCornerEvent(seat=1, space=5), moved(0, 3, 5))
    pacer.shown(theirs)
    assert pacer.delay(corner, 0) > 0.7  # a corner stop is a turn to see too
    assert pacer.delay(corner, None) > 0.7  # a spectator: every seat's turn


def test_a_screen_behind_the_game_catches_up_at_a_third_of_the_pace() -> None:
    """A spectator of a quick game: with more than CATCH_UP updates still waiting, each
    other seat's turn shows a third of the pace after the last, then the pace again."""
    pacer = Pacer(0.9)
    theirs = batch(took(1, "root-2", 1, 4), refilled("vine-3", 1, 4), moved(0, 3, 5))
    pacer.shown(theirs)
    assert 0.8 < pacer.delay(theirs, None, behind=CATCH_UP) <= 0.9  # not yet behind
    assert 0.2 < pacer.delay(theirs, None, behind=CATCH_UP + 1) <= 0.3
    assert pacer.delay(batch(moved(0, 3, 5)), None, behind=99) == 0  # no turn: at once


async def test_the_client_says_how_many_updates_wait(url: str) -> None:
    """``Client.waiting`` counts what arrived and was not yet taken from ``updates()``:
    a watcher that reads nothing while two computers play falls behind by it."""
    org = Client(url, name="org", persist_tokens=False, protocol=m.PROTOCOL_VERSION)
    await org.connect()
    created = await org.create_table("quick", m.TableOptions(), bots=[(0, "easy"), (1, "easy")])
    eve = Client(url, name="eve", persist_tokens=False, protocol=m.PROTOCOL_VERSION)
    await eve.connect()
    await eve.watch(created.table.id)
    deadline = time.monotonic() + 20
    while eve.waiting <= CATCH_UP:
        assert time.monotonic() < deadline, eve.waiting
        await asyncio.sleep(0.02)
    updates = eve.updates()
    drained = 0
    while eve.waiting:
        await anext(updates)
        drained += 1
    assert drained >= CATCH_UP and eve.waiting == 0
    await eve.close()
    await org.close()


def test_since_your_take_keeps_every_other_turn_until_you_decide() -> None:
    r = Recent()
    r.me, r.decided = 0, True  # mid-game: we took before
    r.feed([moved(0, 1, 3), took(0, "moss-2"), refilled("toad-1"), moved(1, 4, 7)])
    r.feed([took(1, "root-2", 2, 3), refilled("vine-3", 2, 3), m.ExtraTurnEvent(seat=1)])
    r.feed([moved(1, 7, 8), took(1, "frog_slime-1", 3, 3), refilled("eye_of_newt-4", 3, 3)])
    r.feed([moved(2, 10, 15), m.PassedCornerEvent(seat=2, space=15), moved(0, 3, 5)])
    text = [text_of(ln) for ln in r.lines(3, COLOURS, CARDS, 100)]
    assert text == [
        "Black, since your take: Root 2 wand (col 3), Vine 3 in; Frog 1 (col 3), Newt 4 in",
        "Lilac, since your take: a corner, nothing taken",
    ]
    last = r.last()
    assert last is not None and last.seat == 2 and last.path == (11, 12, 13, 14, 15)
    r.note(2, "resigned, a computer plays on")
    assert "Lilac, since your take: a corner, nothing taken; resigned" in text_of(
        r.lines(3, COLOURS, CARDS, 100)[1]
    )
    r.feed([took(0, "toad-3")])  # our decision: a fresh start
    assert r.lines(3, COLOURS, CARDS, 80) == [] and r.last() is None


def restored(client: Client) -> tuple[list[LogEntry], Recent]:
    """What a screen started again restores: the log, and the lines fed to its own
    ``Recent`` (mid-game: we took before)."""
    recent = Recent()
    recent.me, recent.decided = client.seat, True
    return restore_log(client, recent), recent


def test_a_client_started_again_shows_its_since_your_take_lines(tmp_path: Path) -> None:
    """What the other seats did since our last decision is kept on disk with the log:
    a client started again (a new process, resuming the seat) shows the same lines."""
    client = Client("ws://127.0.0.1:9", name="Ann", tokens=TokenStore(tmp_path))
    client.table, client.seat = "t", 0
    game = Record.new(Options(seed=3, players=3)).start([])
    client.view = view_model(view(game, 0)).model_copy(update={"ply": 4})  # mid-game
    r = Recent()
    r.me, r.decided = 0, True
    r.feed([moved(0, 1, 3), took(0, "moss-2"), refilled("toad-1"), moved(1, 4, 7)])
    r.feed([took(1, "root-2", 2, 3), refilled("vine-3", 2, 3), m.ExtraTurnEvent(seat=1)])
    r.feed([moved(2, 10, 15), m.PassedCornerEvent(seat=2, space=15), moved(0, 3, 5)])
    r.note(2, "resigned, a computer plays on")
    keep_log(client, [LogEntry("Black takes Root 2")], r)
    kept, again = restored(client)
    assert [e.text for e in kept] == ["Black takes Root 2"]
    before = [text_of(ln) for ln in r.lines(3, COLOURS, CARDS, 100)]
    assert len(before) == 2
    assert [text_of(ln) for ln in again.lines(3, COLOURS, CARDS, 100)] == before
    assert again.me == 0 and again.last() is not None and again.last().seat == 2
    r.feed([took(0, "toad-3")])  # our decision: nothing since, kept as nothing
    keep_log(client, kept, r)
    assert restored(client)[1].lines(3, COLOURS, CARDS, 100) == []
    for name in os.listdir(tmp_path / "logs"):  # a file that does not read: no lines
        if name.endswith(".recent.json"):
            (tmp_path / "logs" / name).write_text('{"events": "[{\\"kind\\": 1}]"}')
    assert restored(client)[1].lines(3, COLOURS, CARDS, 100) == []


def test_before_our_first_take_the_others_turns_are_so_far() -> None:
    """At a game's start (a rematch: the others move first) nothing was taken by us: the
    lines say "so far", and "since your take" once we have taken."""
    r = Recent()
    r.me = 1
    r.feed([moved(0, 1, 3), took(0, "moss-2"), moved(1, 4, 7)])
    assert [text_of(ln) for ln in r.lines(2, COLOURS, CARDS, 100)] == [
        "White, so far: Moss 2 wand (col 2)"
    ]
    r.feed([took(1, "root-2", 2, 3), moved(0, 3, 5), took(0, "toad-3")])
    assert [text_of(ln) for ln in r.lines(2, COLOURS, CARDS, 100)] == [
        "White, since your take: Toad 3 (col 2)"
    ]


def test_a_computer_move_for_us_is_shown_and_decides_nothing() -> None:
    r = Recent()
    r.me, r.decided = 0, True  # mid-game: we took before
    r.feed([moved(1, 4, 7), took(1, "root-3")])
    r.feed([m.TimedOutEvent(seat=0), moved(0, 1, 3), took(0, "moss-3"), refilled("toad-1")])
    text = " ".join(text_of(ln) for ln in r.lines(2, COLOURS, CARDS, 200))
    assert "Black, since your take: Root 3 (col 2)" in text
    assert "You (a computer), since your take: Moss 3 (col 2), Toad 1 in" in text


def test_time_running_out_after_our_move_is_still_a_computers_take() -> None:
    """As a server sends it: our pawn moves when our turn begins; the time runs out
    later, and the time-out comes with the computer's take. The take was not ours, so
    it neither clears the others' turns nor hides itself."""
    r = Recent()
    r.me, r.decided = 0, True
    r.feed([took(1, "root-3"), moved(0, 1, 3)])  # our turn begins
    r.feed([m.TimedOutEvent(seat=0), took(0, "moss-3"), refilled("toad-1"), moved(1, 4, 7)])
    text = [text_of(ln) for ln in r.lines(2, COLOURS, CARDS, 200)]
    assert text == [
        "You (a computer), since your take: Moss 3 (col 2), Toad 1 in",
        "Black, since your take: Root 3 (col 2); moved 3 spaces, choosing",
    ]
    r.feed([took(1, "toad-3"), moved(0, 3, 5), took(0, "root-2")])  # our own take again
    assert r.lines(2, COLOURS, CARDS, 200) == []


def test_the_grid_marks_the_last_move() -> None:
    game = Record.new(Options(seed=3)).start([])
    v = view_model(view(game, 0))
    plain = [text_of(ln) for ln in render_grid(v, CARDS)]
    marked = [text_of(ln) for ln in render_grid(v, CARDS, last=(2, 3), path=(16, 17))]
    assert [len(ln) for ln in marked] == [len(ln) for ln in plain]  # nothing shifts
    row2 = 1 + 2 * 2
    assert marked[row2][28] == "[" and marked[row2][36] == "]"
    assert marked[row2 + 1][28] == "[" and marked[row2 + 1][36] == "]"
    dots = [ln for ln in marked if "\u00b7" in ln]
    assert len(dots) == 2  # spaces 16 and 17: the left side, rows 4 and 3


@pytest.fixture
async def playing(url: str) -> AsyncIterator[tuple[KupferApp, Client]]:
    """Ann at a two-player table against a bot, her turn first, keys held 5 s."""
    client = Client(url, name="Ann", persist_tokens=False, protocol=m.PROTOCOL_VERSION)
    await client.connect()
    await client.create_table(
        "t", m.TableOptions(seed=21), bots=[(1, "easy")], player="Ann", seat=0
    )
    await client.ready()
    with create_pipe_input() as inp:
        kapp = KupferApp(
            name="Ann",
            client=client,
            input=inp,
            output=DummyOutput(),
            settings=Settings(pace=0.0, hold=5.0),
        )
        yield kapp, client
    await client.close()


async def test_keys_wait_when_the_turn_comes_back(playing: tuple[KupferApp, Client]) -> None:
    """A key pressed for the turn before must not play this one blind: Enter in the
    moment after the view that gives the turn back is dropped; arrows still move."""
    kapp, client = playing
    deadline = time.monotonic() + 20
    while client.view is None or client.view.to_move != 0:
        assert time.monotonic() < deadline
        await asyncio.sleep(0.02)
    other = client.view.model_copy(update={"to_move": 1, "choices": ()})
    kapp.on_update(m.ViewMsg(table="t", state_version=client.state_version, view=other))
    kapp.on_update(
        m.ViewMsg(table="t", state_version=client.state_version, view=client.view)
    )  # the turn comes back
    game = kapp.game
    assert game.table.my_turn and game.held_until > time.monotonic() + 4
    before = game.table.cursor
    kapp.key("enter")
    assert not game.table.busy and game.table.decision is None  # dropped
    kapp.key("right")
    assert game.table.cursor != before or len(game.table.choices) == 1
    game.held_until = time.monotonic() - 0.01  # the moment is over
    kapp.key("enter")
    assert game.table.busy or game.table.decision is not None


def test_one_line_per_seat_on_a_small_screen() -> None:
    """At 60 columns each seat's turns fit one line: the newest first, in fewer words
    if they must, and the take itself always stays."""
    r = Recent()
    r.me, r.decided = 0, True  # mid-game: we took before
    r.feed([moved(0, 1, 3), took(0, "moss-3"), moved(1, 4, 7)])
    r.feed([took(1, "root-3", 2, 3), refilled("vine-3", 2, 3), moved(2, 9, 11)])
    boom = m.TookEvent(
        seat=2, card="frog_slime-2", line="row3", row=3, col=0, special=True, ends_game=False
    )
    hits = [
        m.ExplodedEvent(seat=2, target=0, card="moss-3", to="deck"),
        m.ExplodedEvent(seat=2, target=1, card="root-3", to="deck"),
    ]
    r.feed([boom, *hits, refilled("dragon_blood-4", 3, 0), moved(0, 3, 5)])
    wrapped = r.lines(3, COLOURS, CARDS, 60)
    assert len(wrapped) > 2  # the full words wrap
    lines = [text_of(ln) for ln in r.lines(3, COLOURS, CARDS, 60, one_line=True)]
    assert len(lines) == 2 and all(len(ln) <= 60 for ln in lines), lines
    assert lines[0] == "Black, since your take: Root 3 (col 3), Vine 3 in"
    assert lines[1] == "Lilac: Frog 2 boom (row 3), boom hit White, Black", lines


def test_a_take_is_not_pushed_out_by_later_corner_stops() -> None:
    """At 60 columns a seat's take and its corner stop after it do not fit in full
    words: both stay, in fewer words, rather than the corner alone (a CI run saw a
    take vanish from a 60x20 screen behind "a corner, nothing taken")."""
    r = Recent()
    r.me, r.decided = 0, True  # mid-game: we took before
    r.feed([moved(2, 1, 3), took(2, "snake_skin-3", 2, 4), refilled("vine-4", 2, 4)])
    r.feed([moved(0, 3, 5), m.PassedCornerEvent(seat=0, space=5)])
    r.feed([moved(2, 3, 5), m.PassedCornerEvent(seat=2, space=5)])
    full = [text_of(ln) for ln in r.lines(3, COLOURS, CARDS, 100, one_line=True)]
    assert full == ["Lilac, since your take: Snake 3 (col 4), Vine 4 in; a corner, nothing taken"]
    lines = [text_of(ln) for ln in r.lines(3, COLOURS, CARDS, 60, one_line=True)]
    assert lines == ["Lilac, since your take: Snake 3 (col 4); corner"], lines


def test_a_take_stays_when_it_and_a_later_corner_stop_do_not_fit_in_fewer_words() -> None:
    """A boom's take and a corner stop after it, in a line too narrow for both even in
    fewer words: the take stays, not the corner alone (a loaded CI run saw an 80x24
    screen show only "a corner, nothing taken"); so too in the one row of every seat."""
    r = Recent()
    r.me, r.decided = 1, True  # mid-game: we took before
    boom = m.TookEvent(
        seat=2, card="frog_slime-2", line="row3", row=3, col=0, special=True, ends_game=False
    )
    hits = [
        m.ExplodedEvent(seat=2, target=0, card="moss-3", to="deck"),
        m.ExplodedEvent(seat=2, target=1, card="root-3", to="deck"),
    ]
    r.feed([moved(2, 1, 3), boom, *hits, refilled("dragon_blood-4", 3, 0)])
    r.feed([moved(0, 3, 5), m.PassedCornerEvent(seat=0, space=5)])
    r.feed([moved(2, 3, 5), m.PassedCornerEvent(seat=2, space=5)])
    wide = [text_of(ln) for ln in r.lines(3, COLOURS, CARDS, 120, one_line=True)]
    assert wide[-1] == "Lilac, since your take: Frog 2 boom (row 3), boom hit White, Black; corner"
    lines = [text_of(ln) for ln in r.lines(3, COLOURS, CARDS, 56, one_line=True)]
    assert lines[-1] == "Lilac: Frog 2 boom (row 3), boom hit White, Black", lines
    merged = text_of(r.merged(3, COLOURS, CARDS, 80))
    assert "Lilac: Frog 2 boom (row 3)" in merged and "White: corner" in merged, merged


def test_a_spectator_reads_each_seats_last_turn_with_its_wand() -> None:
    r = Recent()  # me None: a spectator
    r.feed([moved(0, 1, 3), took(0, "moss-3"), moved(1, 4, 7)])
    r.feed([took(1, "root-2", 2, 3), m.ExtraTurnEvent(seat=1), moved(1, 7, 9)])
    text = [text_of(ln) for ln in r.lines(2, COLOURS, CARDS, 100)]
    assert text == [
        "White, last turn: Moss 3 (col 2)",
        "Black, last turn: Root 2 wand (col 3); moved 2 spaces, choosing",
    ]
    r.feed([took(1, "vine-3", 1, 1), moved(0, 3, 4), took(0, "toad-3")])
    r.feed([moved(1, 9, 11)])
    text = [text_of(ln) for ln in r.lines(2, COLOURS, CARDS, 100)]
    assert text[0] == "White, last turn: Toad 3 (col 2)", text
    assert text[1] == "Black, last turn: moved 2 spaces, choosing", text


def test_a_move_counts_its_spaces_as_the_log_does() -> None:
    """A pawn that jumps another moves as many spaces as its card says: the jumped
    space is not counted, as in the log's "moves 4 spaces jumping a pawn" (the line
    said "moved 5 spaces" before)."""
    r = Recent()
    r.me, r.decided = 0, True  # mid-game: we took before
    r.feed([m.MovedEvent(seat=1, from_space=3, to_space=8, skipped=(5,))])
    full = [text_of(ln) for ln in r.lines(2, COLOURS, CARDS, 100, one_line=True)]
    assert full == ["Black, since your take: moved 4 spaces jumping a pawn, choosing"], full
    r.feed(
        [
            m.TookEvent(
                seat=1, card="moss-3", line="col2", row=1, col=2, special=False, ends_game=False
            )
        ]
    )
    r.feed([m.MovedEvent(seat=1, from_space=8, to_space=9, skipped=())])
    lines = [text_of(ln) for ln in r.lines(2, COLOURS, CARDS, 100, one_line=True)]
    assert lines == ["Black, since your take: Moss 3 (col 2); moved 1 space, choosing"], lines


def test_a_spectators_notes_go_with_the_seats_turn() -> None:
    """A spectator reads each seat's last turn and what came after it (went away, came
    back): those words go with the turn once the seat starts a new one, not stay all
    game ("Moss 3 (row 2); away, a computer plays; back" twenty turns on)."""
    r = Recent()  # me None: a spectator
    r.feed([moved(1, 4, 7), took(1, "moss-3")])
    r.note(1, "away, a computer plays")
    r.note(1, "back")
    text = [text_of(ln) for ln in r.lines(2, COLOURS, CARDS, 100)]
    assert text == ["Black, last turn: Moss 3 (col 2); away, a computer plays; back"], text
    r.feed([moved(0, 1, 3), took(0, "toad-3"), moved(1, 7, 9)])
    text = [text_of(ln) for ln in r.lines(2, COLOURS, CARDS, 100)]
    assert text == [
        "White, last turn: Toad 3 (col 2)",
        "Black, last turn: moved 2 spaces, choosing",
    ], text


def test_a_note_does_not_push_a_take_out_of_its_one_line() -> None:
    """At 60 columns a seat that went away and then took (a computer played it) keeps
    its take in its one line: the note ("away, a computer plays") is the one that goes,
    since the away line and the panel say it too (it pushed the take out before)."""
    r = Recent()
    r.me, r.decided = 0, True  # mid-game: we took before
    r.note(1, "away, a computer plays")
    boom = m.TookEvent(
        seat=1, card="frog_slime-2", line="row3", row=3, col=1, special=True, ends_game=False
    )
    r.feed([moved(1, 4, 7), boom, m.ExplodedEvent(seat=1, target=0, card="moss-3", to="deck")])
    lines = [text_of(ln) for ln in r.lines(2, COLOURS, CARDS, 60, one_line=True)]
    assert lines == ["Black, since your take: Frog 2 boom (row 3), boom hit White"], lines
    wide = [text_of(ln) for ln in r.lines(2, COLOURS, CARDS, 100, one_line=True)]
    assert wide[0].endswith("away, a computer plays; Frog 2 boom (row 3), boom: White lost Moss 3")
    r = Recent()
    r.me = 0
    r.note(1, "resigned, a computer plays on")  # notes alone still say it
    assert [text_of(ln) for ln in r.lines(2, COLOURS, CARDS, 60, one_line=True)] == [
        "Black, so far: resigned, a computer plays on"
    ]
