"""Coming back after ``q``: the client kept what it saw, and says what happened while it
was away (the takes in between, each kettle's change), in the log and in the "since"
lines (issue 23, item 4)."""

from __future__ import annotations

import asyncio

from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from client.lib import Client
from client.ui.app import KupferApp
from client.ui.log import away_entries
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
    again = Client(url, name="Ann", protocol=m.PROTOCOL_VERSION)
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
            assert any(t.startswith(f"  White (Ann): {grew:+d} cards, top now") for t in log), log
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

