"""The table screen's decisions without a terminal: the log the rules allow, where a
card sends the pawn, the cursor by the pawn, number keys, words for events."""

from __future__ import annotations

from prompt_toolkit.formatted_text import fragment_list_to_text

from client.lib import Status
from client.ui.app import KupferApp, _no_colour
from client.ui.log import event_entries
from client.ui.render import (
    Cards,
    describe_event,
    join_lines,
    render_scores,
    tail_fitting,
    text_of,
)
from client.ui.render.scores import _cell
from client.ui.table import Decision, LogEntry, TableModel
from protocol import messages as m
from protocol.convert import catalogue, view_model
from shared.bots import make_bot, play
from shared.geometry import walk
from shared.options import Options
from shared.record import Record
from shared.view import view

CARDS = Cards.of(catalogue())


def a_view(memory: str = "strict", to_move: int = 0, pawns: tuple[int, ...] = (1, 3)) -> m.GameView:
    game = Record.new(Options(seed=3, players=len(pawns), memory=memory)).start([])  # type: ignore[arg-type]
    v = view_model(view(game, 0))
    return v.model_copy(update={"to_move": to_move, "pawns": pawns})


def entries(*items: tuple[str, int | None]) -> list[LogEntry]:
    """Log entries; a take ("W takes", "B takes wand") is its seat's decision."""
    seat = {"W": 0, "B": 1}
    return [
        LogEntry(text, turn, seat[text[0]] if " takes" in text else None) for text, turn in items
    ]


ROUND = entries(
    ("W moves", 0), ("W takes", None), ("B moves", 1), ("B takes", None), ("W moves", 0)
)


def test_strict_memory_shows_one_round_since_our_previous_turn() -> None:
    t = TableModel(me=0)
    t.set_view(a_view(to_move=0), 1)
    t.log.extend(entries(("old", 0), ("old take", None), ("B old", 1)) + ROUND)
    assert [e.text for e in t.visible_log()] == [e.text for e in ROUND]
    t.set_view(a_view(to_move=1), 2)  # now Black plays: from our last turn on
    t.log.extend(entries(("W takes 2", None), ("B moves 2", 1)))
    assert t.visible_log()[0].text == "W moves"
    assert len(t.visible_log()) == 3


def test_a_corner_stop_decides_nothing_and_keeps_the_log() -> None:
    """Our turn stopped at a corner (no choice): the opponent's take and refill before
    it stay in the log until our next real decision (issue 23, item 1)."""
    t = TableModel(me=0)
    t.set_view(a_view(to_move=0), 1)
    log = entries(
        ("W moves", 0),
        ("W takes", None),
        ("B moves", 1),
        ("B takes Toad", None),
        ("  Moss fills the gap", None),
        ("W stops at a corner", 0),
        ("B moves", 1),
        ("B takes Root", None),
        ("W moves", 0),
    )
    t.log.extend(entries(("old", 1), ("B takes old", None)) + log)
    assert [e.text for e in t.visible_log()] == [e.text for e in log]
    t.set_view(a_view(to_move=1), 2)  # Black to move again: we stopped at a corner
    del t.log[-1]
    t.log.extend(entries(("W stops at a corner", 0), ("B moves", 1)))
    assert [e.text for e in t.visible_log()][:5] == [e.text for e in log[:5]]
    t.log.extend(entries(("B takes Moss", None), ("W moves", 0), ("W takes", None)))
    t.set_view(a_view(to_move=1), 3)  # we decided: the log starts at that turn
    assert t.visible_log()[0].text == "W moves" and len(t.visible_log()) == 2


def test_a_computer_move_for_us_decides_nothing() -> None:
    timed = m.TimedOutEvent(seat=0)
    moved = m.MovedEvent(seat=0, from_space=1, to_space=3, skipped=())
    took = m.TookEvent(
        seat=0, card="root-2", line="col2", row=1, col=2, special=False, ends_game=False
    )
    out = event_entries([timed, moved, took], a_view(), ["Ann", "Bob"], CARDS)
    assert [e.decided for e in out if "takes" in e.text] == [None]
    out = event_entries([moved, took], a_view(), ["Ann", "Bob"], CARDS)
    assert [e.decided for e in out if "takes" in e.text] == [0]


def test_a_wand_turn_is_one_turn_of_the_round() -> None:
    t = TableModel(me=1)
    t.set_view(a_view(to_move=1), 1)
    log = entries(
        ("B moves", 1),
        ("B takes wand", None),
        ("W moves", 0),
        ("W wand", None),
        ("W moves again", 0),
        ("W takes", None),
        ("B moves", 1),
    )
    t.log.extend(log)
    assert [e.text for e in t.visible_log()] == [e.text for e in log]


def test_casual_memory_keeps_the_whole_history() -> None:
    t = TableModel(me=0)
    t.set_view(a_view("casual"), 1)
    t.log.extend(entries(("old", 0), ("B old", 1)) + ROUND)
    assert len(t.visible_log()) == 7


def test_landing_is_the_engines_walk() -> None:
    """The other pawns move first, each by its kettle's top card, then ours by the card
    chosen (issue 23, item 9: the preview assumed the others stay put)."""
    t = TableModel(me=0)
    v = a_view(pawns=(1, 3))
    plain = tuple(m.TakeChoice(card=c.card, row=c.row, col=c.col) for c in v.choices)
    t.set_view(v.model_copy(update={"choices": plain}), 1)
    t.cursor = 0
    land = t.landing(lambda card: 2)  # every card worth 2, the opponent's top too
    assert land is not None and land.value == 2 and not land.wand
    black = walk(3, 2, [1])[0]  # Black moves first: 3 -> 5
    assert land.space == walk(1, 2, [black])[0] == 3 and land.line == "col3"
    assert walk(1, 2, [3])[0] == 4  # what "the others stay put" said: wrong
    t.set_view(v.model_copy(update={"pawns": (3, 8), "choices": plain}), 2)
    land = t.landing(lambda card: 1 if card == v.kettles[1].top else 2)
    assert land is not None and land.space == 5 and land.line is None  # a corner
    wand = tuple(c.model_copy(update={"symbol": "wand"}) for c in plain)
    t.set_view(v.model_copy(update={"choices": wand}), 3)
    land = t.landing(lambda card: 2)  # a wand: our next turn is now, nobody moves
    assert land is not None and land.wand and land.space == walk(1, 2, [3])[0]
    last = tuple(c.model_copy(update={"ends_game": True}) for c in plain)
    t.set_view(v.model_copy(update={"choices": last}), 4)
    land = t.landing(lambda card: 2)
    assert land is not None and land.last  # no next turn to preview


def test_cursor_starts_by_the_pawn_and_number_keys_pick_the_row() -> None:
    v = a_view(pawns=(11, 3))  # our pawn below column 4: the bottom card first
    t = TableModel(me=0)
    line = "col4"
    ch = tuple(m.TakeChoice(card=f"moss-{r}", row=r, col=4) for r in range(1, 5))
    t.set_view(v.model_copy(update={"line": line, "choices": ch}), 1)
    assert t.cursor_cell() == (4, 4)
    assert t.jump(2) and t.cursor_cell() == (2, 4)
    assert not t.jump(0)  # nothing to take in row 0 of this column
    t.set_view(v.model_copy(update={"line": line, "choices": ch, "pawns": (4, 3)}), 2)
    assert t.cursor_cell() == (2, 4)  # the same card stays under the cursor


def test_a_symbol_that_could_not_act_is_not_declined() -> None:
    took = m.TookEvent(
        seat=0, card="root-2", line="col2", row=1, col=2, special=False, ends_game=False
    )
    names = ["Ann", "Bob"]
    colours = ("white", "black")
    assert "declines the wand" in (describe_event(took, colours, names, CARDS) or "")
    words = describe_event(took, colours, names, CARDS, could_act=False) or ""
    assert "declines" not in words and "no third turn" in words


def test_score_table_says_a_value_one_tie_gives_nobody_the_bonus() -> None:
    for seed in range(40):
        game = play(Options(seed=seed), [make_bot("greedy", s, seed=s) for s in (0, 1)])
        v = view_model(view(game, None))
        scores = v.scores or ()
        if scores[0].value_ones == scores[1].value_ones > 0:
            text = fragment_list_to_text(
                join_lines(render_scores(v, CARDS, catalogue(), ["A", "B"]))
            )
            assert "nobody gets the +5" in text
            return
    raise AssertionError("no value-1 tie in 40 games")


def test_score_cells_keep_card_values_apart_while_anything_fits() -> None:
    assert _cell(["2", "3"], False, False, 0, 13) == "2 3 = +0"
    assert _cell(["2", "3"], False, False, 0, 7) == "2,3=+0"  # "23=+0" read as 23
    assert _cell(["1", "2", "3"], True, False, 12, 11) == "1,2,3x2=+12"
    # four of one's own colour, doubled, with the +5, in the narrowest cell (13)
    assert _cell(["1", "2", "3", "4"], True, True, 25, 13) == "1234x2+5=+25"


def test_score_rows_never_run_into_their_label_or_past_the_width() -> None:
    for seed in range(12):
        players = 2 + seed % 2
        opts = Options(players=players, seed=seed)
        game = play(opts, [make_bot("greedy", s, seed=s) for s in range(players)])
        v = view_model(view(game, None))
        for width in (60, 80, 120):
            lines = [
                fragment_list_to_text(ln)
                for ln in render_scores(v, CARDS, catalogue(), ["A", "B", "C"], width)
            ]
            assert all(len(ln) <= width for ln in lines), lines
            ones = next(ln for ln in lines if ln.startswith("value-1 cards"))
            assert ones[len("value-1 cards")] == " ", ones


def test_no_colour_keeps_bold_and_reverse_only() -> None:
    assert _no_colour("bg:#8b5a2b fg:#ffffff bold reverse") == "bold reverse"


def test_quit_prompts_tell_the_truth() -> None:
    kapp = KupferApp(name="Ann")
    kapp.hosting = True
    kapp.confirm_quit = True
    text = fragment_list_to_text(kapp.status_line(80))
    assert "stops the server" in text and "everyone" in text
    kapp.hosting = False
    assert "Your seat stays yours" in fragment_list_to_text(kapp.status_line(80))
    kapp.local = True  # play: no seat to come back to (issue 23, item 7)
    text = fragment_list_to_text(kapp.status_line(80))
    assert "cannot be resumed" in text and "join" not in text


def test_quit_prompts_are_one_line_at_60_columns() -> None:
    """At 60x20 "Leave? Your seat stays yours: come back with join to resume. y/n"
    wrapped its "y/n" to a second line, and the "since your take" line gave way to it."""
    kapp = KupferApp(name="Ann")
    kapp.confirm_quit = True
    for hosting, local, words in (
        (True, False, "everyone's game"),
        (False, True, "for good"),
        (False, False, "join again to resume"),
    ):
        kapp.hosting, kapp.local = hosting, local
        lines = kapp.status_lines(60)
        assert len(lines) == 1, lines
        text = fragment_list_to_text(lines[0])
        assert words in text and text.endswith(" y/n"), text


def test_a_reconnection_clears_the_connection_error() -> None:
    kapp = KupferApp(name="Ann")
    kapp.on_update(Status("reconnecting", "connection lost", 3))
    assert kapp.conn == "reconnecting (try 3)"
    kapp.status = "! not connected"
    kapp.on_update(Status("resumed", "table t"))
    assert kapp.conn == "connected" and kapp.status == ""


def test_the_player_to_move_being_away_gets_a_clear_line() -> None:
    kapp = KupferApp(name="Ann")
    kapp.conn, kapp.screen = "connected", "table"  # as if seated by a connected client
    kapp.game.table = TableModel(me=0)
    kapp.game.table.set_view(a_view(to_move=1), 1)
    kapp.game.seats = (
        m.SeatInfo(seat=0, name="Ann", connected=True),
        m.SeatInfo(seat=1, name="Bob", connected=False),
    )
    assert kapp.game.away_line(200) == (
        "Black (Bob) is away (the connection is gone): the game waits for them; a "
        "computer takes over if they stay away."
    )
    # where that would wrap (the prompt above says "Waiting for Black (Bob)..."): one line
    for width in (60, 80):
        line = "Black (Bob) is away: the game waits, then a computer plays."
        assert kapp.game.away_line(width) == line
    kapp.game.seats = (
        kapp.game.seats[0],
        m.SeatInfo(seat=1, name="Bob", absent=True, computer=True),
    )
    line = kapp.game.away_line() or ""
    assert "Black (Bob) is away: a computer plays for them" in line
    assert "w: claim the win" in kapp.game.key_items() and "claim" not in line  # said once
    kapp.game.seats = (kapp.game.seats[0], m.SeatInfo(seat=1, name="Bob", connected=True))
    assert kapp.game.away_line() is None
    kapp.conn = "reconnecting (try 2)"
    text = fragment_list_to_text(join_lines(kapp.game.prompt_lines(80)))
    assert "Not connected to the server: reconnecting (try 2)" in text
    assert "Waiting for" not in text and "Your turn" not in text
    # only what needs no server is offered, and the rest does nothing
    assert kapp.game.key_items() == ["L: log", "?: help", "q: quit"]
    kapp.key("R")
    kapp.key("c")
    assert not kapp.game.confirm_resign and kapp.screen == "table"
    kapp.conn = "connected"
    assert "R: resign" in kapp.game.key_items() and "c: chat" in kapp.game.key_items()
    kapp.key("R")
    assert kapp.game.confirm_resign


def test_chat_is_kept_apart_from_the_game_log() -> None:
    """A chat line goes to the chat's own history, not the strict-memory log, and
    leaves the table's history only with the table (issue 23, item 5)."""
    kapp = KupferApp(name="Ann")
    kapp.game.table = TableModel(me=0)
    kapp.game.table.set_view(a_view(to_move=1), 1)
    kapp.on_update(m.ChatLineMsg(seat=1, name="Bob", text="good luck"))
    assert list(kapp.game.table.log) == []
    assert [e.text for e in kapp.game.chat.said] == ["<Bob> good luck"]
    assert kapp.game.chat.fresh()
    kapp.screen = "table"
    assert fragment_list_to_text(kapp.text()).count("<Bob> good luck") == 1  # the newest
    kapp.key("C")  # the chat page shows every line: the newest is not said twice
    assert kapp.game.chat.open
    assert fragment_list_to_text(kapp.text()).count("<Bob> good luck") == 1
    kapp.key("escape")
    kapp.game.rematched(0)  # the same people: the chat stays
    assert len(kapp.game.chat.said) == 1
    kapp.to_lobby()
    assert not kapp.game.chat.said


def test_a_notice_goes_once_the_game_goes_on() -> None:
    """The rematch's notice stayed in the status line through the whole next game, and
    the guide's offer under the guide itself: each goes with the game's next take (or,
    the offer, once taken up); an error stays until something else is said."""
    kapp = KupferApp(name="Ann")
    kapp.game.table = TableModel(me=0)
    kapp.on_update(m.RematchedMsg(table="2b4802d6", seat=1))
    kapp.game.table.set_view(a_view(to_move=1).model_copy(update={"ply": 0}), 1)
    said = fragment_list_to_text(kapp.status_line(80))
    assert said == "Rematch at table 2b4802d6: colours move one seat on"
    assert len(kapp.status_lines(60)) == 1  # it wrapped into two at 60 columns
    kapp.game.table.set_view(a_view(to_move=0).model_copy(update={"ply": 1}), 2)
    assert fragment_list_to_text(kapp.status_line(80)) == ""
    kapp.status = "! that card cannot be taken"
    kapp.game.table.set_view(a_view(to_move=1).model_copy(update={"ply": 2}), 3)
    assert "cannot be taken" in fragment_list_to_text(kapp.status_line(80))
    kapp.status = "New to the game? G: a three-screen guide"
    kapp.notice_ply = 2
    kapp.key("G")
    assert kapp.guide == 0 and kapp.status == ""


def test_the_chat_being_typed_shows_its_end_in_cells() -> None:
    """Wide characters take two cells: the chat input showed "…ß 漢字 🙂 en" for a line
    ending in "end." at 60 columns, its end pushed out of sight."""
    from prompt_toolkit.utils import get_cwidth

    kapp = KupferApp(name="Ann")
    kapp.saying = "Grüße ÄÖÜ ß " + "漢字 🙂 " * 12 + "end."
    for width in (60, 80):
        line = fragment_list_to_text(kapp.status_line(width))
        assert line.endswith("end._"), line
        assert get_cwidth(line) <= width, (get_cwidth(line), line)
    assert tail_fitting("ab漢", 2) == "漢" and tail_fitting("ab漢", 3) == "b漢"


def test_small_words() -> None:
    """Issue 23, item 14: "1 card", the count of cards taken, every question's Esc."""
    from client.cli import build_parser
    from client.ui.forms import join_form
    from client.ui.render import render_side

    v = a_view().model_copy(update={"deck_size": 1, "ply": 6})
    side = " ".join(text_of(ln) for ln in render_side(v, CARDS, catalogue(), [], [], 0, 80))
    assert "Deck 1 card   6 taken" in side.replace("\u00a0", " ")
    t = TableModel(me=0)
    t.set_view(a_view(pawns=(1, 3), to_move=0), 1)
    choice = t.choices[0]
    boom = choice.model_copy(update={"symbol": "explode"})
    t.set_view(t.view.model_copy(update={"explodable": (1,), "choices": (boom,)}), 2)  # type: ignore[union-attr]
    t.select()
    asked = t.prompt(["Ann", "Bob"], CARDS.short)
    top = t.view.kettles[1].top  # type: ignore[union-attr]
    assert f"Boom: knock Black (Bob)'s {CARDS.short(top or '')} off the kettle?" in asked
    # three players, two kettles to hit: the question says a number chooses one
    three = a_view(pawns=(1, 3, 5), to_move=0)
    t.set_view(three.model_copy(update={"explodable": (1, 2), "choices": (boom,)}), 3)
    t.select()
    asked = t.prompt(["Ann", "Bob", "Cy"], CARDS.short)
    assert "whom to hit?" in asked and "2=Black (Bob)" in asked and "a number chooses one" in asked
    t.answer("3")  # Cy's kettle alone
    assert t.decision is not None and t.decision.kind == "targets" and t.decision.targets == {2}
    asked = t.prompt(["Ann", "Bob", "Cy"], CARDS.short)
    assert "3=" in asked and asked.count("(hit)") == 1, asked
    sent = t.answer("enter")
    assert sent is not None and sent.targets == (2,) and sent.special
    t.set_view(
        a_view(pawns=(1, 3), to_move=0).model_copy(update={"explodable": (1,), "choices": (boom,)}),
        4,
    )
    t.select()
    for kind in ("special", "end", "targets"):
        t.decision = Decision(kind, boom, {1})
        assert t.prompt(["Ann", "Bob"], CARDS.short).endswith("(Esc: choose again)")
    listing = [
        m.TableSummary(
            id="t1",
            name="t",
            state="lobby",
            options=m.TableOptions(players=3, third_colour="green"),
            seats=(m.SeatInfo(seat=0, name="Ann"), m.SeatInfo(seat=1), m.SeatInfo(seat=2)),
            spectators=0,
            private=False,
        )
    ]
    form = join_form("Bo", "t1", listing)
    seat = next(f for f in form.fields() if f.key == "seat")
    assert [shown for _, shown in seat.options or ()] == [
        "the first free",
        "2 (black)",
        "3 (green)",
    ]
    args = build_parser("bot").parse_args(["bot", "--url", "ws://h", "--data-dir", "/tmp/x"])
    assert args.data_dir == "/tmp/x"


def test_a_wands_extra_turn_is_said_in_the_prompt_and_the_side_panel() -> None:
    """RULES.md section 9: everyone sees whether a turn is a wand's extra turn; the log
    line saying so soon scrolls away, so the prompt and "To move" say it."""
    from client.ui.render import render_side

    names: list[str | None] = ["Ann", "Bob"]
    t = TableModel(me=0)
    t.set_view(a_view(to_move=0), 1)
    assert t.prompt(names).startswith("Your turn: take a card from")
    extra = a_view(to_move=0).model_copy(update={"turn_in_row": 2})
    t.set_view(extra, 2)
    assert t.prompt(names).startswith("Your turn (the extra turn of a wand): take a card from")
    side = text_of(render_side(extra, CARDS, catalogue(), names, [], 0, 80)[0])
    assert side == "To move: You (extra turn)"
    plain = text_of(render_side(a_view(to_move=0), CARDS, catalogue(), names, [], 0, 80)[0])
    assert plain == "To move: You"
    spectator = TableModel(me=None)
    spectator.set_view(extra, 3)
    assert spectator.prompt(names) == "Waiting for White (Ann), on the extra turn of a wand..."
    spectator.set_view(a_view(to_move=0), 4)
    assert spectator.prompt(names) == "Waiting for White (Ann)..."


class _LobbyHost:
    """What the lobby asks of its application, no more: a connection or none."""

    def __init__(self, client: object) -> None:
        self.client = client
        self.conn = "connected"

    def act(self, action: object) -> None: ...
    def say(self, status: str) -> None: ...
    def exit(self) -> None: ...
    def adopt(self, client: object) -> None: ...
    def sat_down(self, client: object) -> None: ...


def test_tab_in_the_lobby_never_focuses_an_empty_server_list() -> None:
    """``join ws://...`` browses nothing: Tab from the tables went to the LAN servers'
    pane, which then showed no cursor at all, and a second Tab was needed."""
    from client.discovery import Browser, FoundServer
    from client.ui.lobby import LobbyScreen

    lobby = LobbyScreen(_LobbyHost(object()), name="Ann", protocol=(1, 2))  # type: ignore[arg-type]
    assert lobby.focus == "tables"
    lobby.key("tab")
    assert lobby.focus == "address"
    lobby.key("down")  # no server listed to go down to
    assert lobby.focus == "address"
    lobby.key("tab")
    assert lobby.focus == "tables"
    browser = Browser()
    lobby = LobbyScreen(_LobbyHost(object()), name="Ann", protocol=(1, 2), browser=browser)  # type: ignore[arg-type]
    lobby.key("tab")
    assert lobby.focus == "address"  # still searching: nothing to choose there
    lobby.key("tab")
    browser.found["x"] = FoundServer("Kim's", "ws://127.0.0.1:8765", "1", 1, "x")
    for focus in ("tables", "servers", "address", "tables"):
        assert lobby.focus == focus
        lobby.key("tab")
    # no connection yet: the servers found, then the address, and round again
    alone = LobbyScreen(_LobbyHost(None), name="Ann", protocol=(1, 2), browser=browser)  # type: ignore[arg-type]
    assert alone.focus == "servers"
    alone.key("tab")
    assert alone.focus == "address"
    alone.key("tab")
    assert alone.focus == "servers"


def test_a_private_tables_code_is_told_where_it_is_needed_and_goes_with_the_game() -> None:
    """The waiting screen of a private table said "Others join from their lobby", which
    lists no private table of others; and the "invite code: ..." the lobby put in the
    status line stayed there through the whole game and its score screen."""
    from client.ui.render import text_of
    from client.ui.waiting import waiting_lines

    seats = (m.SeatInfo(seat=0, name="Bob", connected=True, ready=True), m.SeatInfo(seat=1))

    def waiting(invite: str | None) -> str:
        lines = waiting_lines(
            "t1", 60, seats=seats, listing=(), started=False, invite=invite, allow_lobby=True
        )
        return " ".join(" ".join(text_of(ln) for ln in lines).split())  # wrapped at 60

    private = waiting("ab12-cd34")
    assert "from their lobby" not in private and "they press p there" in private
    assert "with the table id t1 and the invite code ab12-cd34." in private
    assert "Others join from their lobby, or with the table id t1." in waiting(None)
    kapp = KupferApp(name="Bob")
    kapp.game.table = TableModel(me=0)
    kapp.notice("invite code: ab12-cd34")  # the lobby's, when it created the table
    assert fragment_list_to_text(kapp.status_line(80)) == "invite code: ab12-cd34"
    kapp.game.table.set_view(a_view(to_move=0).model_copy(update={"ply": 0}), 1)
    assert "ab12-cd34" in fragment_list_to_text(kapp.status_line(80))
    kapp.game.table.set_view(a_view(to_move=1).model_copy(update={"ply": 1}), 2)
    assert fragment_list_to_text(kapp.status_line(80)) == ""


def test_the_guide_does_not_say_the_kettle_is_hidden_where_it_is_not() -> None:
    """RULES.md section 9: with casual memory each player sees their own kettle, and the
    side panel lists it; the guide said flatly that only the top is ever seen."""
    from client.ui.guide import PAGES

    goal = " ".join(PAGES[0][1])
    assert "only ever see your kettle's top card" in goal and "casual memory" in goal


def test_the_help_names_every_key_and_keeps_to_the_rules() -> None:
    """The help left out w (claim the win) and b (back to your seat), which only the
    key line named while they worked; it said a boom's card goes under the deck
    (RULES.md 4.4: out of the game once the deck is empty) and that you only ever see
    your kettle's top (not with casual memory, section 9)."""
    from client.ui.render import help_lines, text_of

    text = " ".join(" ".join(text_of(ln) for ln in help_lines(60)).split())
    assert "w claims the win while the other player is away" in text
    assert "b takes your seat back from the computer" in text
    assert "or out of the game once it is empty" in text
    assert "casual memory the side panel lists your whole kettle" in text
    # and the scoring still starts on the first page of an 80x24 help (23 rows)
    page = [text_of(ln) for ln in help_lines(80, catalogue())][:23]
    assert any(line.startswith("SCORING") for line in page[:21]), page


def test_without_a_lobby_only_q_ends_the_program_under_the_score() -> None:
    """Under ``play`` the score screen's key line says "q: quit", but Enter (the take
    key) and Esc ended the program too, the result and the rematch gone with it."""
    import time

    from client.ui.game import END_PAUSE

    for allow_lobby in (False, True):
        kapp = KupferApp(name="Ann", allow_lobby=allow_lobby)
        left: list[str] = []
        kapp.exit = lambda left=left: left.append("quit")  # type: ignore[method-assign,misc]
        kapp.to_lobby = lambda left=left: left.append("lobby")  # type: ignore[method-assign,misc]
        kapp.screen = "table"
        kapp.game.table = TableModel(me=0)
        over = a_view().model_copy(update={"game_over": True, "to_move": None})
        kapp.game.table.set_view(over, 1)
        kapp.game.over_at = time.monotonic() - END_PAUSE - 1
        kapp.key("enter")
        kapp.key("escape")
        assert left == ([] if not allow_lobby else ["lobby", "lobby"])
        kapp.key("q")
        assert left[-1] == ("quit" if not allow_lobby else "lobby")


def test_a_forms_key_line_names_enter_and_only_the_keys_it_has() -> None:
    """The forms' key line never said that Enter presses a [ button ] (the only way to
    create a table or register), and offered Left/Right to the player form, which has
    no choice to change."""
    from client.ui.forms import Field, Form, create_form
    from client.ui.render import text_of

    def keys(form: Form) -> str:
        return " ".join(text_of(ln) for ln in form.render(80)[-2:])

    new_table = keys(create_form("Ann", ("easy",), rated=False))
    assert "Enter: next field, or press [ ]" in new_table and "Left/Right: change" in new_table
    texts = Form(
        "Your player", lambda v: [Field("name", "Player name"), Field("go", "Go", button=True)], {}
    )
    only_text = keys(texts)
    assert "Enter: next field, or press [ ]" in only_text and "Left/Right" not in only_text


def test_a_refusal_in_the_status_line_goes_once_the_game_goes_on() -> None:
    """A server's refusal stays while it is news, not after the next take (a stale
    "! not your turn" read as if about the new position)."""
    kapp = KupferApp(name="Ann")
    kapp.game.table = TableModel(me=0)
    v = a_view(to_move=0)
    kapp.game.table.set_view(v, 1)
    refusal = m.ErrorMsg(
        code="illegal_move", message="that card is not in the line", detail="not_in_line"
    )
    kapp.on_update(refusal)  # said from the code and detail, in the client's words
    assert text_of(kapp.status_line(80)) == "! That card is not in the line your pawn faces."
    kapp.game.table.set_view(v.model_copy(update={"ply": v.ply + 1, "to_move": 1}), 2)
    assert text_of(kapp.status_line(80)) == ""


def test_the_start_is_one_step_of_the_review_when_its_events_come_late() -> None:
    """``play`` opens its screen once the first view is there: the start's events (the
    first pawn's move) and that view again come after it. The review has one start,
    its move said with it, not two frames of one board."""
    from client.ui.review import History, Review

    v = a_view(to_move=0)
    history = History()
    history.saw(v)
    history.heard([m.MovedEvent(seat=0, from_space=0, to_space=1, skipped=())])
    history.saw(v)  # the same board
    assert len(history.frames) == 1 and len(history.frames[0].events) == 1
    later = v.model_copy(update={"ply": 1})
    took = m.TookEvent(
        seat=0, card="moss-1", line="col1", row=0, col=1, special=False, ends_game=False
    )
    history.heard([took])
    history.saw(later)
    assert len(history.frames) == 2
    review = Review(history.frames)
    assert review.step() == "the start"
    review.key("right")
    assert review.step() == "take 1 of 1"


def test_the_waiting_screen_says_bot_once() -> None:
    """A server bot's name already says it ("easy bot"): the seat reads "easy bot", not
    "easy bot (bot)", as the side panel does; a bot of another name still says it."""
    from client.ui.waiting import waiting_lines

    seats = (
        m.SeatInfo(seat=0, name="Ann", ready=True, connected=True),
        m.SeatInfo(seat=1, name="easy bot", bot="easy", connected=True),
        m.SeatInfo(seat=2, name="Robo", bot="easy", connected=True),
    )
    text = [
        text_of(ln)
        for ln in waiting_lines(
            "t1", 80, seats=seats, listing=(), started=False, invite=None, allow_lobby=True
        )
    ]
    assert "  seat 1: Ann (ready)" in text and "  seat 2: easy bot" in text, text
    assert "  seat 3: Robo (bot)" in text, text
