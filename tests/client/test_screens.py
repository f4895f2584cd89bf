"""Screens at 60x20, 80x24 and 120x40 as the application draws them: nothing may be cut.
Every prompt, key, help line, side-panel fact and score-table entry must appear whole
(wrapped or paged, never clipped), and below the minimum size the screen says how big
the window must be."""

from __future__ import annotations

import asyncio

import pytest
from prompt_toolkit.input import create_pipe_input

from client.lib import Client, Status
from client.ui.app import KupferApp
from client.ui.recent import Recent
from client.ui.render import (
    HELP,
    MIN_HEIGHT,
    MIN_WIDTH,
    Cards,
    Size,
    colour_table,
    colour_word,
    long_name,
    recipe_text,
    render_scores,
    text_of,
)
from client.ui.table import Decision, LogEntry
from protocol import messages as m
from protocol.convert import view_model
from shared.bots import make_bot, play
from shared.options import Options
from shared.view import view
from tests.helpers.screens import SIZES, SizedOutput, draw, flat, whole


@pytest.mark.parametrize(("width", "height"), SIZES)
async def test_table_screen_cuts_nothing(
    seated: tuple[KupferApp, Client], width: int, height: int
) -> None:
    kapp, client = seated
    t = kapp.game.table
    v = t.view
    assert v is not None
    screen = draw(kapp, width, height)
    for _ in range(5):  # what pages on a small terminal
        kapp.key("pagedown")
        screen += "\n" + draw(kapp, width, height)
    whole(t.prompt(kapp.game.names(), kapp.game.cards().short), screen)
    lines = screen.split("\n")
    for item in kapp.game.key_items(width):
        assert any(item in line for line in lines), f"key {item!r} cut:\n{screen}"
    cards = Cards.of(client.catalogue)
    for k in v.kettles:
        if k.top:
            whole(cards.marked(k.top), screen)
        whole(f"{k.count} card", screen)
    for r in v.recipes[0] or ():
        whole(recipe_text(r, client.catalogue), screen)
    mine = v.kettles[0].cards  # casual memory: every card of our kettle, by ingredient
    assert mine
    whole("in it: " + cards.grouped(mine).replace("\u00a0", " "), screen)
    whole("Ann", screen)
    for label in ("col", "row", "0", "5"):
        assert label in lines[1] + lines[2], screen
    if t.my_turn:
        said = [text_of(ln) for ln in kapp.game.prompt_lines(width)]
        preview = next(s for s in said if s.startswith(("This card", "On top")))
        whole(preview, screen)


async def test_the_side_panel_says_bot_once(seated: tuple[KupferApp, Client]) -> None:
    """The server names its bots "easy bot" (1.0 golden frames): the seat's line reads
    "Gray easy bot, 0 cards", not "Gray easy bot bot"; a person's line keeps its word."""
    kapp, _ = seated
    v = kapp.game.table.view
    assert v is not None
    screen = flat(draw(kapp, 120, 40))
    assert "bot bot" not in screen, screen
    for seat in (1, 2):
        colour = colour_word(v.colours[seat])
        count = v.kettles[seat].count
        whole(f"{colour} easy bot, {count} card", screen)
    whole(f"{colour_word(v.colours[0])} Ann (you) online, {v.kettles[0].count} card", screen)


@pytest.mark.parametrize(("width", "height"), SIZES)
async def test_help_pages_cut_nothing(
    seated: tuple[KupferApp, Client], width: int, height: int
) -> None:
    kapp, client = seated
    kapp.key("?")
    seen = ""
    for _ in range(40):
        seen += draw(kapp, width, height) + "\n"
        kapp.key("pagedown")
    for paragraph in HELP:
        if paragraph.strip():
            whole(paragraph, seen)
    for line in colour_table(client.catalogue):
        whole(text_of(line), seen)
    kapp.key("x")
    assert not kapp.show_help


@pytest.mark.parametrize(("width", "height"), SIZES)
@pytest.mark.parametrize("players", [2, 3])
async def test_score_table_cuts_nothing(
    seated: tuple[KupferApp, Client], width: int, height: int, players: int
) -> None:
    kapp, client = seated
    game = play(
        Options(seed=11, players=players, recipes=True),
        [make_bot("greedy", s, seed=s) for s in range(players)],
    )
    final = view_model(view(game, None))
    kapp.game.table.set_view(final, 999)
    seen = ""
    for _ in range(30):
        seen += draw(kapp, width, height) + "\n"
        kapp.key("down")
    assert "Final score" in seen and "TOTAL" in seen
    for s in final.scores or ():
        for r in s.recipes:
            whole(recipe_text(r.id, client.catalogue).rsplit(" (", 1)[0], seen)
        for ing in s.ingredients:
            whole(f"{ing.total:+d}", seen)
    for ing in {i.ingredient for s in final.scores or () for i in s.ingredients}:
        whole(long_name(ing), seen)
    names = ["Annabelle-Marie", "Bo", "Cy"]
    for line in render_scores(final, Cards.of(client.catalogue), client.catalogue, names, width):
        assert len(text_of(line)) <= width, text_of(line)  # nothing for pad() to cut
    screen = draw(kapp, width, height)
    assert "g: show the board" in screen and "Enter/q: back to the lobby" in screen


@pytest.mark.parametrize(("width", "height"), [(40, 12), (59, 30), (100, 19)])
async def test_below_the_minimum_the_screen_says_so(
    seated: tuple[KupferApp, Client], width: int, height: int
) -> None:
    kapp, _ = seated
    screen = draw(kapp, width, height)
    whole(f"Make the window at least {MIN_WIDTH} x {MIN_HEIGHT}", screen)
    whole(f"(it is {width} x {height})", screen)
    assert "q: quit" in screen
    kapp.key("q")  # asks first, and the question shows
    whole("Leave? Your seat stays yours", draw(kapp, width, height))
    kapp.key("n")


async def test_big_terminals_use_the_space(seated: tuple[KupferApp, Client]) -> None:
    """Three-line cards (symbol words, colour words) and a log as tall as the screen."""
    kapp, _ = seated
    small = draw(kapp, 80, 24).split("\n")[:24]
    big = draw(kapp, 120, 40).split("\n")[:40]
    row = next(i for i, ln in enumerate(big) if ln.lstrip().startswith("row0"))
    assert big[row + 3].lstrip().startswith("1 ")  # row 1 starts three lines below row 0
    assert any(" boom " in ln or " wand " in ln for ln in big)
    assert not any(" boom " in ln[:58] or " wand " in ln[:58] for ln in small[1:16])
    for n in range(40):
        kapp.game.table.log.append(LogEntry(f"entry {n}"))
    kapp.game.table.view = kapp.game.table.view.model_copy(  # type: ignore[union-attr]
        update={"options": m.TableOptions(memory="casual")}
    )

    def shown(screen: str) -> int:
        return sum(1 for n in range(40) if f"entry {n} " in screen.replace("\n", " \n"))

    assert shown(draw(kapp, 120, 40)) >= 15
    assert shown(draw(kapp, 120, 40)) > shown(draw(kapp, 80, 24)) + 8


@pytest.mark.parametrize(("width", "height"), SIZES)
async def test_lobby_waiting_and_form_cut_nothing(url: str, width: int, height: int) -> None:
    client = Client(url, name="Hanna", persist_tokens=False)
    await client.connect()
    try:
        name = "a table with a long name for friends"
        created = await client.create_table(
            name, m.TableOptions(players=3), private=True, player="Hanna-Maria Longname", seat=1
        )
        with create_pipe_input() as inp:
            kapp = KupferApp(name="Hanna", client=client, input=inp, output=SizedOutput())
            kapp.sat_down(client)
            async with asyncio.timeout(30):
                while not kapp.game.seats:
                    kapp.on_update(client.presence) if client.presence else None
                    await asyncio.sleep(0.02)
            kapp.lobby.tables = await client.list_tables()
            screen = draw(kapp, width, height)
            whole("Waiting for players to sit down", screen)
            whole("3 players, private", screen)  # the table's terms
            whole(f"with the table id {created.table.id}", screen)
            assert created.invite and created.invite in screen
            whole("seat 2: Hanna-Maria Longname (joined)", screen)
            kapp.to_lobby()
            kapp.lobby.tables = await client.list_tables()
            screen = draw(kapp, width, height)
            whole(name, screen)
            whole("(lobby; 3 players, private)", screen)
            assert client.welcome is not None and client.welcome.server
            whole(f"Tables on {client.welcome.server} ({client.url})", screen)  # its name
            for item in ("n: new table", "p: join by id", "q: quit"):
                assert item in screen
            kapp.key("n")
            screen = draw(kapp, width, height)
            whole("Create table", screen)
    finally:
        await client.close()


@pytest.mark.parametrize(("width", "height"), SIZES)
@pytest.mark.parametrize("ending", ["resigned", "claimed", "timed_out", "abandoned"])
async def test_every_ending_reads_whole(
    seated: tuple[KupferApp, Client], width: int, height: int, ending: str
) -> None:
    kapp, _ = seated
    game = play(Options(seed=4, players=3), [make_bot("greedy", s, seed=s) for s in range(3)])
    final = view_model(view(game, 0))
    result = m.ResultInfo(
        ending=ending,  # type: ignore[arg-type]
        winners=() if ending == "abandoned" else (1,),
        places=(3, 1, 2),
        totals=tuple(s.total for s in final.scores or ()),
        resigned=(0,) if ending == "resigned" else (),
        timed_out=(0,) if ending == "timed_out" else (),
        claimed_by=1 if ending == "claimed" else None,
    )
    kapp.game.table.set_view(final.model_copy(update={"result": result}), 999)
    kapp.game.seats = tuple(m.SeatInfo(seat=s, name=n) for s, n in enumerate(["Ann", "Bo", "Cy"]))
    screen = draw(kapp, width, height)
    words = {
        "resigned": "White (Ann) resigned.",
        "claimed": "Black (Bo) claimed the win",
        "timed_out": "Time ran out for White (Ann)",
        "abandoned": "the game was abandoned, nobody wins",
    }[ending]
    whole(words, screen)
    whole("Places: Black (Bo) 1st, Lilac (Cy) 2nd, White (Ann) 3rd.", screen)
    assert "Your turn" not in screen
    whole("no winner" if ending == "abandoned" else "winner: Black (Bo)", screen)
    whole("r: ask for it", screen)


@pytest.mark.parametrize(("width", "height"), SIZES)
async def test_a_played_out_game_says_why_a_resigned_seat_places_last(
    seated: tuple[KupferApp, Client], width: int, height: int
) -> None:
    """Three players, White resigned and a computer finished the game: the title names
    the winner by the result, and the screen says why the top score places last."""
    kapp, _ = seated
    game = play(Options(seed=4, players=3), [make_bot("greedy", s, seed=s) for s in range(3)])
    final = view_model(view(game, 0))
    totals = tuple(s.total for s in final.scores or ())
    others = sorted((1, 2), key=lambda s: -totals[s])
    places = [0, 0, 0]
    places[0], places[others[0]], places[others[1]] = 3, 1, 2
    result = m.ResultInfo(
        ending="played_out",
        winners=(others[0],),
        places=tuple(places),
        totals=totals,
        resigned=(0,),
        replaced=(0,),
    )
    kapp.game.table.set_view(final.model_copy(update={"result": result}), 999)
    kapp.game.seats = tuple(m.SeatInfo(seat=s, name=n) for s, n in enumerate(["Ann", "Bo", "Cy"]))
    screen = draw(kapp, width, height)
    names = ["White (Ann)", "Black (Bo)", "Lilac (Cy)"]
    whole(f"winner: {names[others[0]]}", screen)
    whole("White (Ann) resigned during the game", screen)
    whole("a seat that resigns places last, whatever it scores", screen)
    whole(f"Places: {names[others[0]]} 1st, {names[others[1]]} 2nd, White (Ann) 3rd.", screen)


@pytest.mark.parametrize(("width", "height"), SIZES)
async def test_the_whole_log_reads_at_every_size(
    seated: tuple[KupferApp, Client], width: int, height: int
) -> None:
    """At 60x20 with three players the panel leaves the log its newest entry: the screen
    says where the rest is (a pointer where it is cut, the key line where the panel's
    kettles or the newest entry take every row), and L shows every entry whole, paged,
    then goes back."""
    kapp, _ = seated
    entries = [
        f"entry {n}: White (Annabelle-Marie) takes Dragon blood 4 from column 3" for n in range(30)
    ]
    kapp.game.table.log.extend(LogEntry(e) for e in entries)
    screen = draw(kapp, width, height)
    pointer = ("L: all", "L: read the log", "the log: L")  # where the log is, when cut
    view = kapp.game.table.view
    assert view is not None
    kettles = all(f"{k.count} card" in flat(screen) for k in view.kettles)
    kettles = kettles and "PgDn" not in screen
    newest = flat(entries[-1]) in flat(screen)  # at 60x20 the newest entry, whole
    assert "L: log" in screen and (any(p in screen for p in pointer) or kettles or newest), screen
    kapp.key("L")
    seen = draw(kapp, width, height)
    assert "kettles and log" in seen and "any other key: back" in seen
    whole(entries[-1], seen)
    for n in range(20):
        kapp.key("up" if n % 2 else "pageup")
        seen += "\n" + draw(kapp, width, height)
    for e in entries:
        whole(e, seen)
    whole("Log (the whole game)", seen)
    whole("White Ann (you)", seen)  # the kettles come with the log
    assert "more above" not in seen.split("\n")[-height:][1]  # at the top: nothing above
    kapp.key("x")
    back = draw(kapp, width, height)  # the table again (at 60x20 the deck pages away)
    assert not kapp.game.show_log and "Your turn: " in back and "Ann (you)" in back


@pytest.mark.parametrize(("width", "height"), SIZES)
async def test_status_and_header_wrap_instead_of_being_cut(
    seated: tuple[KupferApp, Client], width: int, height: int
) -> None:
    kapp, _ = seated
    kapp.hosting = True
    kapp.key("q")
    said = "Quit? This stops the server: the game ends for everyone connected. y/n"
    short = "Quit? This stops the server and everyone's game. y/n"  # one line at 60
    whole(said if len(said) <= width else short, draw(kapp, width, height))
    kapp.key("n")
    kapp.hosting = False
    kapp.key("R")  # three players, the others bots: nobody would play on (issue 23, 6)
    whole(
        "Resign? Only computers would play on: the game ends now, the others win and you "
        "place last. y/n",
        draw(kapp, width, height),
    )
    kapp.key("n")
    seats = kapp.game.seats
    kapp.game.seats = (seats[0], seats[1].model_copy(update={"bot": False}), seats[2])
    kapp.key("R")  # a person plays on: a computer plays your seat to the end
    whole(
        "Resign? A computer plays your seat to the end; you place last. y/n",
        draw(kapp, width, height),
    )
    kapp.key("n")
    kapp.game.seats = seats
    kapp.status = "Rematch: a new game at table 47416151; colours move one seat on"
    kapp.conn = "reconnecting (try 12)"
    screen = draw(kapp, width, height)
    whole(kapp.status, screen)
    assert "(seat 1)" in screen.split("\n")[0] and "reconnecting (try 12)" in screen, screen


async def test_a_resignation_at_three_is_logged_and_the_seat_stops_playing(
    seated: tuple[KupferApp, Client], monkeypatch: pytest.MonkeyPatch
) -> None:
    """With three players the one who resigns is told a computer plays on, is never
    asked to move again nor offered to resign, and may leave for the lobby; every
    screen's log says who resigned. The server's goodbye clears once reconnected."""
    kapp, _ = seated
    seats = tuple(
        m.SeatInfo(seat=s, name=n, connected=True) for s, n in enumerate(["Ann", "Bo", "Cy"])
    )
    kapp.on_update(m.PresenceMsg(table="t", state="playing", seats=seats, spectators=0))
    gone = tuple(
        s.model_copy(update={"resigned": s.seat == 0, "computer": s.seat == 0}) for s in seats
    )
    kapp.on_update(m.PresenceMsg(table="t", state="playing", seats=gone, spectators=0))
    screen = draw(kapp, 80, 24)
    whole("White (Ann) resigned: a computer plays their seat to the end", screen)
    whole("You resigned: a computer plays your seat to the end.", screen)
    assert "R: resign" not in screen and "Enter: take" not in screen, screen
    assert not kapp.game.table.my_turn
    kapp.on_update(m.ByeMsg(reason="shutdown", message="the server is going away"))
    kapp.on_update(Status(state="reconnecting", attempt=2))
    screen = draw(kapp, 80, 24)
    # the goodbye in the client's own words, from its reason (the server's English
    # ``message`` is for logs)
    assert "server: the server stops" in screen and "reconnecting (try 2)" in screen
    whole("The server has stopped: reconnecting (try 2), in case it comes back", screen)
    kapp.on_update(Status(state="resumed"))
    screen = draw(kapp, 80, 24)
    assert "going away" not in screen and "stopped" not in screen
    exits: list[object] = []
    monkeypatch.setattr(kapp.app, "exit", lambda **kw: exits.append(kw))
    kapp.key("q")  # a resigned seat leaves without being asked: nothing is kept for it
    assert not kapp.confirm_quit and exits == [{"result": 0}]


async def test_quit_chat_and_resign_work_while_a_symbol_asks(
    seated: tuple[KupferApp, Client],
) -> None:
    """A question about a card (use the wand?) does not swallow q, c and R."""
    kapp, _ = seated
    t = kapp.game.table
    assert t.choices
    t.decision = Decision("special", t.choices[0])
    kapp.key("q")
    assert kapp.confirm_quit
    kapp.key("n")
    kapp.key("R")
    assert kapp.game.confirm_resign
    kapp.key("n")
    kapp.key("c")
    assert kapp.saying == ""
    kapp.key("escape")
    assert t.decision is not None  # still asked; Esc in it chooses again


@pytest.mark.parametrize(("width", "height"), SIZES)
async def test_the_first_game_guide_reads_whole(
    seated: tuple[KupferApp, Client], width: int, height: int
) -> None:
    """Three screens (the goal, a turn, the end), from the help with G, each whole at
    every size; Right goes on, Left back, past the last or Esc closes."""
    from client.ui.guide import PAGES

    kapp, _ = seated
    kapp.key("?")
    assert "G: first-game guide" in flat(draw(kapp, width, height))
    kapp.key("G")
    for n, (title, paragraphs) in enumerate(PAGES):
        screen = draw(kapp, width, height)
        whole(f"First game: {title}", screen)
        for text in paragraphs:
            whole(text, screen)
        assert ("Left: back" in screen) == (n > 0), screen  # nothing to go back to
        assert ("Right/Enter: done" in screen) == (n == len(PAGES) - 1), screen
        kapp.key("right")
    assert kapp.guide is None and "Deck" in draw(kapp, width, height)
    kapp.key("G")
    kapp.key("right")
    kapp.key("left")
    assert kapp.guide == 0
    kapp.key("escape")
    assert kapp.guide is None


@pytest.mark.parametrize(("width", "height"), SIZES)
async def test_a_chat_line_does_not_shrink_the_board(
    seated: tuple[KupferApp, Client], width: int, height: int
) -> None:
    """The newest chat line shows above the status line; the cards keep their size
    (at 80x24 they flipped to one line each while a line of chat was shown)."""
    kapp, _ = seated
    before = draw(kapp, width, height).split("\n")[:height]
    kapp.on_update(m.ChatLineMsg(seat=1, name="Bo", text="good luck, all of you"))
    after = draw(kapp, width, height).split("\n")[:height]
    whole("<Bo> good luck, all of you", "\n".join(after))
    row = next(i for i, ln in enumerate(before) if ln.lstrip().startswith("row0"))
    assert after[row].lstrip().startswith("row0")
    cells = Size(width, height).cell_h
    assert after[row + cells].lstrip().startswith("1"), "\n".join(after)


@pytest.mark.parametrize(("width", "height"), SIZES)
async def test_a_long_chat_line_keeps_its_speaker(
    seated: tuple[KupferApp, Client], width: int, height: int
) -> None:
    """A chat line longer than the two lines above the status line shows its start, the
    speaker first, and ends in an ellipsis pointing to ``C`` (it lost its speaker)."""
    kapp, _ = seated
    long = "Hello there, " + "this is a long line of chat about the game " * 5 + "the end."
    kapp.on_update(m.ChatLineMsg(seat=1, name="Bo", text=long))
    screen = draw(kapp, width, height)
    assert "<Bo> Hello there" in screen, screen
    assert "the end." not in screen and "C: all" in screen, screen
    kapp.on_update(m.ChatLineMsg(seat=1, name="Bo", text="short"))
    screen = draw(kapp, width, height)
    whole("<Bo> short", screen)


async def test_the_side_panel_shows_how_many_recipes_the_others_hold(
    seated: tuple[KupferApp, Client],
) -> None:
    """Everyone sees how many recipes each player holds (RULES.md 9): the others' counts
    show beside their kettles, never their recipes; one's own are shown in full."""
    kapp, client = seated
    v = kapp.game.table.view
    assert v is not None and v.options.recipes and v.recipes[0]
    screen = draw(kapp, 120, 40).replace("\u00a0", " ")
    others = [s for s in range(v.options.players) if s != client.seat]
    for s in others:
        n = v.recipe_counts[s]
        assert f", {n} recipe{'s' if n != 1 else ''}" in screen, screen
    assert screen.count(" recipe") >= len(others)


async def test_paging_the_side_panel_keeps_whose_turn(seated: tuple[KupferApp, Client]) -> None:
    """Three players with recipes: at 80x24 your recipe shows without paging, and at
    60x20, where the panel pages, whose turn stays on every page (issue 23, item 10): on
    your turn in the prompt, with your own kettle kept in the panel."""
    kapp, client = seated
    v = kapp.game.table.view
    assert v is not None and v.recipes[0]
    screen = draw(kapp, 80, 24)
    for r in v.recipes[0] or ():
        whole(recipe_text(r, client.catalogue), screen)
    assert "(PgDn)" not in screen, screen
    took = [
        m.MovedEvent(seat=1, from_space=1, to_space=4, skipped=()),
        m.TookEvent(
            seat=1, card="moss-3", line="col2", row=2, col=2, special=False, ends_game=False
        ),
    ]
    kapp.game.recent.decided = True  # mid-game: Black's take leaves the panel fewer rows
    kapp.game.on_update(m.EventsMsg(state_version=1, events=tuple(took)))
    pages = []
    for _ in range(4):
        pages.append(draw(kapp, 60, 20))
        kapp.key("pagedown")
    assert any("(PgDn)" in p for p in pages), pages[0]  # it does page at 60x20
    for page in pages:  # on your turn the prompt says whose turn, your kettle stays
        assert "Your turn: " in page and "Wh White Ann (you)" in page, page


@pytest.mark.parametrize(("width", "height"), SIZES)
@pytest.mark.parametrize("players", [2, 3])
async def test_the_totals_are_on_the_score_tables_first_screen(
    seated: tuple[KupferApp, Client], width: int, height: int, players: int
) -> None:
    """However many lines the table takes, its TOTAL line is in sight at once, and
    stays while the rest scrolls, under "more lines" when out of its place (it read as
    the sum of the rows above it); the players' names stay on top, and the last line
    can be reached."""
    kapp, _ = seated
    game = play(
        Options(seed=11, players=players, recipes=True),
        [make_bot("greedy", s, seed=s) for s in range(players)],
    )
    kapp.game.table.set_view(view_model(view(game, None)), 999)
    for _ in range(40):
        screen = draw(kapp, width, height)
        assert "TOTAL" in screen, screen
        assert "ingredient" in screen, screen  # the columns are named
        lines = screen.split("\n")
        more = next((i for i, ln in enumerate(lines) if "more line" in ln), None)
        total = next(i for i, ln in enumerate(lines) if ln.lstrip().startswith("TOTAL"))
        if more is not None and "own colour, doubled" not in screen:
            assert total == more + 1 or total < more, screen
        if "end (Up: back)" in screen or more is None:
            break
        kapp.key("down")
    assert "own colour, doubled" in screen, screen  # the table's last line


async def test_text_under_the_grid_stays_apart_from_the_panel(
    seated: tuple[KupferApp, Client],
) -> None:
    """The "since your take" lines wrapped under the grid end two blanks before the
    log beside them, whatever the cards: a line that filled its column read on into the
    log's words ("RatTl White (Ann) takes..."), for a person and for a test alike."""
    kapp, client = seated
    ids = sorted(Cards.of(client.catalogue).by_id)
    size = Size(120, 40)
    assert size.side_right and size.log_right
    full = 0
    for shift in range(24):  # other cards, other words: the wrap falls elsewhere
        events: list[m.GameEvent] = []
        for turn in range(3):  # three long turns of each other seat
            for seat in (1, 2):
                card, new = ids[shift + turn * 4 + seat], ids[-1 - shift - turn * 4 - seat]
                events += [
                    m.MovedEvent(seat=seat, from_space=1, to_space=4, skipped=()),
                    m.TookEvent(
                        seat=seat,
                        card=card,
                        line="col4",
                        row=turn,
                        col=4,
                        special=True,
                        ends_game=False,
                    ),
                    m.RefilledEvent(row=turn, col=4, card=new),
                    m.ExplodedEvent(seat=seat, target=0, card=ids[shift + 30], to="deck"),
                ]
        kapp.game.recent = Recent()
        kapp.game.recent.decided = True  # mid-game: we took before
        kapp.game.table.log.clear()
        kapp.game.on_update(m.EventsMsg(state_version=1, events=tuple(events)))
        lines = draw(kapp, 120, 40).split("\n")[:40]
        assert any("since your take" in ln for ln in lines), lines
        for ln in lines:
            if ln[size.grid_width + 1 :].strip():  # the panel has words on this line
                gap = ln[size.grid_width - 1 : size.grid_width + 1]
                assert gap == "  ", "\n".join(lines)
            full += ln[size.grid_width - 2] != " "
    assert full  # some wrapped line did fill its column up to the blank
