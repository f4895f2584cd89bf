"""Coming back after ``q``: the client kept what it saw, and says what happened while it
was away (the takes in between, each kettle's change), in the log and in the "since"
lines (issue 23, item 4), where the server cannot replay the takes themselves (before
protocol 1.4; from 1.4 on they show, paced: ``test_restart_catch_up.py``)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from client.lib import Client
from client.tokens import TokenStore
from client.ui.app import KupferApp
from client.ui.log import away_entries, keep_log, restore_log
from client.ui.recent import Recent
from client.ui.render import Cards, text_of
from client.ui.seating import sit_down
from protocol import messages as m
from protocol.convert import catalogue, view_model
from shared.options import Options
from shared.record import Record
from shared.view import view

CARDS = Cards.of(catalogue())


async def my_turn(client: Client) -> m.GameView:
    async with asyncio.timeout(20):
        while client.view is None or client.view.to_move != client.seat:
            await asyncio.sleep(0.02)
    return client.view


async def test_coming_back_says_what_happened_meanwhile(url: str) -> None:
    ann = Client(url, name="Ann", protocol=m.PROTOCOL_VERSION)  # tokens kept on disk
    await ann.connect()
    created = await ann.create_table(
        "t", m.TableOptions(seed=21), bots=[(1, "easy")], player="Ann", seat=0
    )
    table = created.table.id
    await ann.ready()
    await my_turn(ann)
    with create_pipe_input() as inp:
        before = KupferApp(name="Ann", client=ann, input=inp, output=DummyOutput())
        before.sat_down(ann)  # what this screen saw is kept
        # a turn of Black's begun on this screen, kept with its "since your take" line
        moved = m.MovedEvent(seat=1, from_space=5, to_space=8, skipped=())
        before.on_update(m.EventsMsg(table=table, state_version=1, events=(moved,)))
        v = before.game.table.view
        assert v is not None
        kept = before.game.recent.lines(2, v.colours, before.game.cards(), 200)
        assert "moved 3 spaces" in " ".join(text_of(ln) for ln in kept)
    seen = ann.view
    assert seen is not None
    for _ in range(2):  # two takes of ours (and the bot's answers) the screen never saw
        v = await my_turn(ann)
        await ann.take(v.choices[0].card, special=False)
    await my_turn(ann)
    await ann.close()  # q
    again = Client(url, name="Ann", protocol=(1, 3))  # no catch_up: the kept view tells
    await again.connect()
    try:
        await sit_down(again, table, "Ann")
        async with asyncio.timeout(10):
            while again.view is None:
                await asyncio.sleep(0.02)
        with create_pipe_input() as inp:
            kapp = KupferApp(name="Ann", client=again, input=inp, output=DummyOutput())
            kapp.sat_down(again)
            now = again.view
            log = [e.text for e in kapp.game.table.log]
            took = now.ply - seen.ply
            assert took >= 4, (now.ply, seen.ply)
            assert f"While you were away: {took} cards taken" in log, log
            grew = now.kettles[0].count - seen.kettles[0].count
            cards = f"{grew:+d} card{'s' if abs(grew) != 1 else ''}"  # the bot's boom may hit
            assert any(t.startswith(f"  White (Ann): {cards}, top now") for t in log), log
            since = " ".join(
                text_of(ln) for ln in kapp.game.recent.lines(2, now.colours, kapp.game.cards(), 200)
            )
            assert "while you were away: +" in since, since
            assert "moved 3 spaces" not in since, since  # cards were taken since: old
            kapp.sat_down(again)  # said once: a second look adds nothing
            assert sum("While you were away" in e.text for e in kapp.game.table.log) == 1
    finally:
        await again.close()


def test_a_turn_without_a_take_while_away_is_told() -> None:
    """The server sends no history: coming back, the kettles tell the takes, and the
    pawns the turns that took nothing. Black took; Lilac's pawn then stopped at a corner
    (nothing taken, its kettle as it was); ours moved on and we choose now. Lilac's lost
    turn is said too, in the log and in its "since your take" line."""
    game = Record.new(Options(seed=3, players=3)).start([])
    before = view_model(view(game, 0)).model_copy(update={"to_move": 1, "ply": 4})
    seen: dict[str, object] = {
        "counts": [k.count for k in before.kettles],
        "tops": [k.top for k in before.kettles],
        "pawns": [2, 7, 12],
        "deck": before.deck_size,
        "ply": before.ply,
    }
    black = before.kettles[1].model_copy(update={"count": 2, "top": "moss-3"})
    now = before.model_copy(
        update={
            "kettles": (before.kettles[0], black, before.kettles[2]),
            "pawns": (4, 9, 15),  # 15: a corner
            "to_move": 0,
            "ply": 5,
        }
    )
    said = away_entries(seen, now, ["Ann", "Bob", "Cy"], CARDS)
    log = [entry.text for entry, _ in said]
    lilac = now.colours[2].capitalize()
    assert log == [
        "While you were away: 1 card taken",
        f"  Black (Bob): +1 card, top now {CARDS.marked('moss-3')}",
        f"  {lilac} (Cy): stopped at a corner, nothing taken",
    ], log  # our own pawn moved too: the prompt says it is our turn
    recent = Recent()
    recent.me, recent.decided = 0, True
    for _, note in said:
        if note is not None:
            recent.note(*note)
    lines = [text_of(ln) for ln in recent.lines(3, now.colours, CARDS, 200)]
    assert f"{lilac}, since your take: while you were away: stopped at a corner, nothing taken" in (
        lines
    ), lines
    # the seat to move now, whose pawn moved on but took nothing yet
    waiting = now.model_copy(update={"to_move": 2, "pawns": (4, 9, 13)})
    log = [entry.text for entry, _ in away_entries(seen, waiting, ["Ann", "Bob", "Cy"], CARDS)]
    assert f"  {lilac} (Cy): moved on, choosing now" in log, log
    del seen["pawns"]  # what an older client kept: the kettles only
    log = [entry.text for entry, _ in away_entries(seen, now, ["Ann", "Bob", "Cy"], CARDS)]
    assert len(log) == 2, log


async def test_a_seat_resumed_before_its_first_take_reads_so_far(url: str) -> None:
    """The computer at White moves first; Ann, at Black, starts her client again before
    her first take: the others' turns are "so far", not "since your take" (cards were
    taken in the game, but none by her)."""
    ann = Client(url, name="Ann", protocol=m.PROTOCOL_VERSION)
    await ann.connect()
    try:
        await ann.create_table(
            "t", m.TableOptions(seed=21), bots=[(0, "easy")], player="Ann", seat=1
        )
        await ann.ready()
        v = await my_turn(ann)
        assert v.ply > 0 and v.kettles[1].count == 1
        with create_pipe_input() as inp:
            kapp = KupferApp(name="Ann", client=ann, input=inp, output=DummyOutput())
            kapp.sat_down(ann)
            assert not kapp.game.recent.decided
            moved = m.MovedEvent(seat=0, from_space=5, to_space=8, skipped=())
            kapp.on_update(m.EventsMsg(table=ann.table, state_version=1, events=(moved,)))
            lines = [text_of(ln) for ln in kapp.game.recent.lines(2, v.colours, CARDS, 200)]
            assert lines == ["White, so far: moved 3 spaces, choosing"], lines
    finally:
        await ann.close()


def test_a_client_started_again_knows_whether_we_took(tmp_path: Path) -> None:
    """Whether we took a card is kept with the "since your take" lines: a take a
    computer made for us (our time ran out) is not ours, whatever our kettle holds,
    and after our own take a boom that left one card in our kettle changes nothing."""
    client = Client("ws://127.0.0.1:9", name="Ann", tokens=TokenStore(tmp_path))
    client.table, client.seat = "t", 0
    r = Recent()
    r.me = 0
    computer = m.TookEvent(
        seat=0, card="moss-3", line="col2", row=1, col=2, special=False, ends_game=False
    )
    r.feed(
        [
            m.TimedOutEvent(seat=0),
            computer,
            m.MovedEvent(seat=1, from_space=4, to_space=7, skipped=()),
        ]
    )
    keep_log(client, [], r)
    again = Recent()
    again.came_in(None, 0)
    again.decided = True  # what our kettle of two cards would say
    restore_log(client, again)
    assert not again.decided
    assert "so far" in text_of(again.lines(2, ("white", "black"), CARDS, 200)[-1])
    r.feed(
        [computer.model_copy(update={"seat": 1}), computer.model_copy(update={"card": "toad-3"})]
    )
    assert r.decided
    keep_log(client, [], r)
    again = Recent()
    again.came_in(None, 0)  # a kettle of one card would say: no take yet
    restore_log(client, again)
    assert again.decided
