"""The terminal application without a terminal: pure rendering, the table screen's
decisions, and the whole application driven through prompt_toolkit's pipe input from
the lobby to the final score table."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

import pytest
from prompt_toolkit.formatted_text import fragment_list_to_text
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from client.lib import Client
from client.ui.app import KupferApp
from client.ui.forms import create_form, table_request
from client.ui.game import END_PAUSE
from client.ui.render import (
    GRID_WIDTH,
    Cards,
    describe_event,
    help_lines,
    join_lines,
    render_grid,
    render_scores,
)
from client.ui.table import TableModel
from protocol import messages as m
from protocol.convert import catalogue, event_model, view_model
from shared.bots import make_bot, play
from shared.events import Event
from shared.game import Game
from shared.options import Options
from shared.record import Record
from shared.view import view


def text_of(lines: list) -> str:  # type: ignore[type-arg]
    return fragment_list_to_text(join_lines(lines))


def started(players: int = 2, seed: int = 3) -> Game:
    return Record.new(Options(seed=seed, players=players, recipes=True)).start([])


def test_grid_shows_every_card_pawn_and_the_line() -> None:
    game = started()
    v = view_model(view(game, 0))
    cards = Cards.of(catalogue())
    lines = render_grid(v, cards, cursor=(v.choices[0].row, v.choices[0].col))
    assert len(lines) == 14
    assert all(len(fragment_list_to_text(line)) <= GRID_WIDTH for line in lines)
    text = text_of(lines)
    for row in v.grid:
        for card in row:
            if card:
                assert cards.cell(card)[0] in text
    assert "Wh" in text and "Bk" in text  # both pawns
    styles = [f[0] for line in lines for f in line]
    assert any("reverse" in s for s in styles)  # the cursor
    assert any("underline" in s for s in styles)  # the line to take from


def test_score_table_has_the_breakdown() -> None:
    game = play(Options(seed=9, recipes=True), [make_bot("greedy", s, seed=s) for s in (0, 1)])
    v = view_model(view(game, None))
    text = text_of(render_scores(v, Cards.of(catalogue()), catalogue(), ["Ann", "Bob"]))
    assert "Final score" in text and "TOTAL" in text and "recipes" in text
    assert "value-1 cards" in text
    for s in v.scores or ():
        assert str(s.total) in text
    assert "White (Ann)" in text


def test_a_kettle_in_groups_of_ingredients() -> None:
    cards = Cards.of(catalogue())
    by = {(c.ingredient, c.value): c.id for c in catalogue().cards}
    kettle = [by["spider_web", 4], by["moss", 2], by["spider_web", 1], by["whiskers", 3]]
    assert cards.grouped(kettle).replace("\u00a0", " ") == "Whiskr 3, Spider 1 4, Moss 2"


def test_help_has_the_scoring_overview() -> None:
    text = text_of(help_lines())
    for words in ("minus its value", "plus the sum, plus 5", "double", "Most value-1 cards: +5"):
        assert words in text


def test_events_in_words() -> None:
    events: list[Event] = []
    game = started()
    game.apply(make_bot("greedy", 0).decide(view(game, 0)), 0, events)
    words = [
        describe_event(event_model(e), ("white", "black"), ["Ann", None], Cards.of(catalogue()))
        for e in events
    ]
    assert any(w and w.startswith("White (Ann) takes") for w in words)


def test_only_choices_can_be_taken_and_specials_are_asked() -> None:
    t = TableModel(me=0)
    v = view_model(view(started(3), 0))
    t.set_view(v, 0)
    assert t.select((0, 0)) is None and t.decision is None  # a corner is no choice
    explode = m.TakeChoice(card="rat_tail-2", row=1, col=1, symbol="explode")
    t.set_view(v.model_copy(update={"choices": (explode,), "explodable": (1, 2)}), 1)
    assert t.select() is None and t.decision is not None and t.decision.kind == "special"
    assert t.answer("y") is None and t.decision.kind == "targets"
    t.answer("3")  # toggle seat 3 off
    intent = t.answer("enter")
    assert intent is not None and intent.special and intent.targets == (1,)
    end = m.TakeChoice(card="rat_tail-1", row=1, col=1, ends_game=True)
    t.set_view(v.model_copy(update={"choices": (end,)}), 2)
    t.select()
    intent = t.answer("d")
    assert intent is not None and intent.keep is False


def test_create_form_gives_every_option() -> None:
    form = create_form("Ann")
    keys = [f.key for f in form.fields()]
    for k in ("players", "recipes", "start_card", "memory", "private", "bot1"):
        assert k in keys
    assert "third_colour" not in keys  # two players: there is no third seat
    form.focus = keys.index("players")
    form.key("right")  # 3 players: a bot choice per other seat, and the third colour
    assert "third_colour" in [f.key for f in form.fields()]
    form.focus = [f.key for f in form.fields()].index("third_colour")
    form.key("right")
    assert form.values["third_colour"] == "brown"
    form.focus = [f.key for f in form.fields()].index("bot2")
    form.key("right")
    form.focus = [f.key for f in form.fields()].index("private")
    form.key("right")
    _, options, private, bots, player, _ = table_request(form.values)
    assert options.players == 3 and private and bots == [(2, "easy")] and player == "Ann"
    assert options.third_colour == "brown"


def test_typing_on_through_the_form_changes_no_choice() -> None:
    """Enter in a text field moves on to the next field: a name typed on past it
    ("Ann Lee") landed its space on *Players*, which made the table one for three."""
    form = create_form("")
    form.focus = [f.key for f in form.fields()].index("player")
    for key in ("enter", *"Ann Lee"):
        form.key(key)
    assert form.current().key == "players" and form.values["players"] == "2"


async def until(
    cond: Callable[[], bool], timeout: float = 30.0, tick: Callable[[], None] | None = None
) -> None:
    async with asyncio.timeout(timeout):
        while not cond():
            if tick:
                tick()
            await asyncio.sleep(0.05)


async def shown(kapp: KupferApp, *words: str, timeout: float = 30.0) -> str:
    """The screen once it shows every one of ``words``: the application handles keys and
    server updates in its own tasks, so the test waits for them, not for a guessed time.
    Fails with the screen as it was."""
    screen = ""
    try:
        async with asyncio.timeout(timeout):
            while not all(w in (screen := fragment_list_to_text(kapp.text())) for w in words):
                await asyncio.sleep(0.05)
    except TimeoutError:
        raise AssertionError(f"the screen never showed {words!r}:\n{screen}") from None
    return screen


async def test_from_the_lobby_to_the_score_table(url: str) -> None:
    with create_pipe_input() as inp:
        kapp = KupferApp(name="Ann", address=url, input=inp, output=DummyOutput())
        run = asyncio.create_task(kapp.run())
        await asyncio.sleep(0.2)
        inp.send_text("a\r")  # the direct address field, then connect
        await until(lambda: kapp.client is not None and kapp.client.connected)
        inp.send_text("n")  # new table
        await until(lambda: kapp.lobby.form is not None)
        keys = [f.key for f in kapp.lobby.form.fields()]  # type: ignore[union-attr]
        inp.send_text("\x1b[B" * keys.index("bot1") + "\x1b[C")  # down to seat 2: easy bot
        await until(
            lambda: kapp.lobby.form is not None and kapp.lobby.form.values["bot1"] == "easy"
        )
        inp.send_text("\x1b[B\r")  # down to "Create table", Enter
        await until(lambda: kapp.game.table.view is not None)
        screen = fragment_list_to_text(kapp.text())
        assert "To move" in screen and "Deck" in screen

        def press_enter() -> None:
            if kapp.game.table.my_turn or kapp.game.table.decision is not None:
                inp.send_text("\r")

        await until(
            lambda: kapp.game.table.view is not None and kapp.game.table.view.game_over,
            60,
            press_enter,
        )
        screen = await shown(kapp, "Final score", "TOTAL")
        assert "v: review the game" in screen
        inp.send_text("v")  # the review, from the last take
        takes = kapp.game.table.view.ply  # the cards taken, as the side panel counts them
        await shown(kapp, f"review: take {takes} of {takes}")
        inp.send_text("\x1b[D")  # Left: a take back
        await shown(kapp, f"review: take {takes - 1} of {takes}")
        inp.send_text("\x1b[H")  # Home: the deal with the first pawn's move
        await shown(kapp, "review: the start")
        assert "moves" in fragment_list_to_text(kapp.text())  # the first move, said
        inp.send_text("\x1b[C")  # Right: take 1 at once (the start is one frame)
        screen = await shown(kapp, f"review: take 1 of {takes}")
        assert "takes" in screen  # take 1 is the first card taken, said in words
        inp.send_text("x")  # any other key: back to the score table
        await shown(kapp, "Final score")
        inp.send_text("q")  # at the end, q goes back to the lobby
        await until(lambda: kapp.screen == "lobby")
        inp.send_text("q")  # and there it quits
        assert await asyncio.wait_for(run, 5) == 0
        assert kapp.client is not None
        await kapp.client.close()


@pytest.mark.parametrize("protocol", [m.PROTOCOL_VERSION, m.MINOR_1_0])
async def test_resigning_asks_first_and_ends_the_game(url: str, protocol: tuple[int, int]) -> None:
    """1.1: the final view carries the result (who resigned, who wins, the cards
    scored as they lay); 1.0: presence says the table finished, and the screen says who
    resigned and who wins. Never 'Your turn' under a finished game."""
    client = Client(url, name="Ann", protocol=protocol)
    await client.connect()
    with create_pipe_input() as inp:
        kapp = KupferApp(name="Ann", client=client, input=inp, output=DummyOutput())
        run = asyncio.create_task(kapp.run())
        await asyncio.sleep(0.2)
        inp.send_text("n")
        await until(lambda: kapp.lobby.form is not None)
        keys = [f.key for f in kapp.lobby.form.fields()]  # type: ignore[union-attr]
        inp.send_text("\x1b[B" * keys.index("bot1") + "\x1b[C")
        await until(
            lambda: kapp.lobby.form is not None and kapp.lobby.form.values["bot1"] == "easy"
        )
        inp.send_text("\x1b[B\r")
        await until(lambda: kapp.game.table.view is not None)
        inp.send_text("R")
        await until(lambda: kapp.game.confirm_resign)
        assert "Resign?" in fragment_list_to_text(kapp.text())
        inp.send_text("n")  # declined: nothing happens
        await until(lambda: not kapp.game.confirm_resign)
        await asyncio.sleep(0.2)
        assert kapp.game.ended is None
        inp.send_text("Ry")
        if protocol == m.MINOR_1_0:
            await until(lambda: kapp.game.ended is not None)
            screen = fragment_list_to_text(kapp.text())
            assert "Ann resigned" in screen and "Winner: Black (easy bot)" in screen
        else:
            await until(lambda: kapp.game.table.view is not None and kapp.game.table.view.game_over)
            screen = fragment_list_to_text(kapp.text())
            assert "White (Ann) resigned" in screen and "winner: Black (easy bot)" in screen
            assert "Final score" in screen and "TOTAL" in screen and "Places:" in screen
        assert "Your turn" not in screen and "Enter/q: back to the lobby" in screen
        inp.send_text("g")  # the board as it was, under the ending, never "Your turn"
        screen = await shown(kapp, "Deck")
        assert "Your turn" not in screen
        # an Enter too many while the game ends keeps the result; the key is handled
        # here, at a known moment after the end, not whenever a loaded machine reads it
        kapp.game.over_at = time.monotonic()
        kapp.key("enter")
        assert kapp.screen == "table"
        kapp.game.over_at -= END_PAUSE  # the pause is over
        inp.send_text("\r")  # Enter: back to the lobby
        await until(lambda: kapp.screen == "lobby")
        inp.send_text("q")
        assert await asyncio.wait_for(run, 5) == 0
        assert kapp.client is not None
        await kapp.client.close()


async def test_a_clocked_table_counts_down(url: str) -> None:
    client = Client(url, name="Ann", persist_tokens=False, protocol=m.PROTOCOL_VERSION)
    await client.connect()
    await client.create_table(
        "t", m.TableOptions(), bots=[(1, "easy")], player="Ann", seat=0, timing=m.Timing(move=30)
    )
    await client.ready()
    await until(lambda: client.view is not None)
    with create_pipe_input() as inp:
        kapp = KupferApp(name="Ann", client=client, input=inp, output=DummyOutput())
        kapp.sat_down(client)
        kapp.game.clock_at = time.monotonic()
        first = kapp.game.clock_line() or ""
        assert first.startswith("Your clock: 0:") and "a computer moves for you" in first
        kapp.game.clock_at -= 10  # ten seconds later
        later = kapp.game.clock_line() or ""
        assert int(later[14:16]) <= int(first[14:16]) - 9
        assert "Your clock:" in fragment_list_to_text(kapp.text())
        view = kapp.game.table.view
        assert view is not None and view.clock is not None
        assert view.clock.timeouts == ()
        assert "Timed out" not in fragment_list_to_text(kapp.text())
        said_for = {1: "Timed out once: at 3 in a row,", 2: "Timed out 2 in a row: at 3,"}
        for count, said in said_for.items():
            clock = view.clock.model_copy(update={"timeouts": (count, 0)})
            kapp.game.table.view = view.model_copy(update={"clock": clock})
            assert said in fragment_list_to_text(kapp.text())  # on one line at 80 columns
        for count in ((3, 0), (0, 2)):  # taken (the away line says), or the other's count
            clock = view.clock.model_copy(update={"timeouts": count})
            kapp.game.table.view = view.model_copy(update={"clock": clock})
            assert "Timed out" not in fragment_list_to_text(kapp.text())
    await client.close()


async def test_claiming_the_win_while_the_opponent_is_away(url: str) -> None:
    host = Client(url, name="Ann", persist_tokens=False, protocol=m.PROTOCOL_VERSION)
    jo = Client(url, name="Jo", persist_tokens=False, protocol=m.PROTOCOL_VERSION, reconnect=False)
    await host.connect()
    await jo.connect()
    created = await host.create_table(
        "t", m.TableOptions(), player="Ann", seat=0, timing=m.Timing(grace=1)
    )
    await host.ready()
    await jo.join(created.table.id, "Jo")
    await jo.ready()
    await until(lambda: host.view is not None)
    with create_pipe_input() as inp:
        kapp = KupferApp(name="Ann", client=host, input=inp, output=DummyOutput())
        run = asyncio.create_task(kapp.run())
        await jo.close()  # Jo's connection is gone; after the grace period Jo is absent
        await until(kapp.game.claimable, 20)
        screen = fragment_list_to_text(kapp.text())
        assert "Black (Jo) is away: a computer plays for them" in screen
        assert "w: claim the win" in screen
        inp.send_text("w")  # it ends the game: asked first, as R and q are
        await shown(kapp, "Claim the win? Black (Jo) is away: the game ends now and you win")
        await asyncio.sleep(0.2)
        assert host.view is not None and not host.view.game_over
        inp.send_text("y")
        await until(lambda: host.view is not None and host.view.game_over)
        await shown(kapp, "White (Ann) claimed the win", "winner: White (Ann)")
        inp.send_text("q")  # back to the lobby
        await until(lambda: kapp.screen == "lobby")
        inp.send_text("q")
        assert await asyncio.wait_for(run, 5) == 0
    await host.close()


async def test_a_game_that_times_out_says_so(url: str) -> None:
    """Nobody at the keyboard: the clock runs out, a computer moves, the log says so, and
    after it happened in a row the game ends timed out, on the result screen."""
    client = Client(url, name="Ann", persist_tokens=False, protocol=m.PROTOCOL_VERSION)
    await client.connect()
    await client.create_table(
        "t",
        m.TableOptions(),
        bots=[(1, "easy")],
        player="Ann",
        seat=0,
        timing=m.Timing(move=1, absent_after=1),
    )
    with create_pipe_input() as inp:
        kapp = KupferApp(name="Ann", client=client, input=inp, output=DummyOutput())
        run = asyncio.create_task(kapp.run())
        await client.ready()
        await until(lambda: client.view is not None and client.view.game_over, 30)
        screen = await shown(kapp, "Time ran out for White (Ann)", "winner: Black (easy bot)")
        assert "Your turn" not in screen
        kapp.key("g")
        log = " ".join(e.text for e in kapp.game.table.log)
        assert "Time ran out for White (Ann): a computer moves for them" in log
        inp.send_text("q")
        await until(lambda: kapp.screen == "lobby")
        inp.send_text("q")
        assert await asyncio.wait_for(run, 5) == 0
    await client.close()


async def test_back_in_the_lobby_the_list_is_not_the_one_from_before(url: str) -> None:
    """Esc from a table we resigned at: the lobby lists the tables as they are now
    (ours over: only computers were left), not as they were when we sat down
    ("lobby"), until the next refresh comes round."""
    client = Client(url, name="Ann", persist_tokens=False, protocol=m.PROTOCOL_VERSION)
    await client.connect()
    try:
        created = await client.create_table(
            "t", m.TableOptions(players=3), bots=[(1, "easy"), (2, "easy")], player="Ann", seat=0
        )
        with create_pipe_input() as inp:
            kapp = KupferApp(name="Ann", client=client, input=inp, output=DummyOutput())
            kapp.lobby.tables = await client.list_tables()  # as we sit down: not started
            assert kapp.lobby.tables[0].state == "lobby"
            kapp.sat_down(client)
            await client.ready()
            await until(lambda: client.view is not None)
            await client.resign()
            await until(lambda: client.presence is not None and client.presence.seats[0].resigned)
            assert client.presence is not None
            kapp.on_update(client.presence)  # the app's own loop does not run here
            kapp.key("escape")
            assert kapp.screen == "lobby"
            await until(lambda: kapp.lobby.tables[0].state != "lobby", 10)
            assert kapp.lobby.tables[0].id == created.table.id
    finally:
        await client.close()
