"""Three players at 60x20 and one seat away (a computer plays it): the rows under the
grid hold, at every point of a turn, your own kettle and recipes, the newest line of the
log (what happened last) and the prompt; "away" is said once, by the away line, not
again in the "since your take" lines."""

from __future__ import annotations

import re
import time

from client.lib import Client
from client.ui.app import KupferApp
from client.ui.prompt import away_words
from client.ui.recent import Recent
from client.ui.render import Cards, recipe_text, render_side, text_of
from client.ui.table import Decision
from protocol import messages as m
from protocol.convert import catalogue, view_model
from shared.options import Options
from shared.record import Record
from shared.view import view
from tests.helpers.screens import draw, took, whole, with_away

AWAY = "Black (Bob) is away: a computer plays for them"
AWAY_NOTE = "away, a computer plays"  # the since lines' words for it


def check(kapp: KupferApp, client: Client, *, mine: bool = True) -> str:
    """The screen at 60x20 with the newest log line whole, the prompt and (on our turn)
    our kettle and recipes."""
    game = kapp.game
    screen = draw(kapp, 60, 20)
    lines = [ln.rstrip() for ln in screen.split("\n")[:20]]
    newest = game.table.visible_log()[-1].text
    assert newest.strip() in [ln.strip() for ln in lines], screen
    whole(game.table.prompt(game.names(), game.cards().short), screen)
    assert lines[1].lstrip().startswith("col0") and lines[8].lstrip().startswith("0"), screen
    v = game.table.view
    assert v is not None
    if mine:
        whole("Wh White Ann (you)", screen)
        for r in v.recipes[0]:
            whole(recipe_text(r, client.catalogue), screen)
    return screen


async def test_the_newest_log_line_shows_at_60x20_with_an_away_seat(
    away3: tuple[KupferApp, Client],
) -> None:
    kapp, client = away3
    game = kapp.game
    assert game.table.visible_log()[-1].text == AWAY
    check(kapp, client)  # our turn, nothing since our take yet
    game.recent = Recent()
    game.recent.decided = True  # mid-game: both others took since our take
    moved = m.MovedEvent(seat=0, from_space=4, to_space=6, skipped=())
    game.on_update(
        m.EventsMsg(state_version=1, events=(*took(1, "moss-3", 2), *took(2, "root-2", 3), moved))
    )
    screen = check(kapp, client)
    assert "Moss 3 (col 2)" in screen and "Root 2 wand (col 3)" in screen, screen
    v = game.table.view
    assert v is not None
    clock = m.ClockInfo(move_ms=30_000, running=0, left_ms=(29_000,) * 3, reserve_ms=(0,) * 3)
    game.table.set_view(v.model_copy(update={"clock": clock}), game.table.state_version + 1)
    check(kapp, client)  # a clock line more
    choice = v.choices[0]
    game.table.decision = Decision("special", choice)  # a question about the card
    check(kapp, client)
    game.table.decision = None
    waiting = v.model_copy(update={"to_move": 1, "clock": None})  # the computer's turn
    game.table.set_view(waiting, game.table.state_version + 1)
    check(kapp, client, mine=False)


async def test_away_is_said_once_not_again_in_the_since_lines(
    away3: tuple[KupferApp, Client],
) -> None:
    kapp, client = away3
    game = kapp.game
    assert (1, AWAY_NOTE) in [n[:2] for n in game.recent.notes]  # kept, for when Bob is back
    screen = draw(kapp, 80, 24)
    whole(AWAY, screen)  # the away line
    assert AWAY_NOTE not in screen, screen  # not "Black, so far: away, a computer plays"
    game.on_update(with_away(client, absent=False))
    screen = draw(kapp, 80, 24)
    assert "Black, so far: away, a computer plays; back" in screen, screen
    v = game.table.view
    assert v is not None
    since = game.recent.lines(3, v.colours, game.cards(), 80)
    assert [text_of(ln) for ln in since] == ["Black, so far: away, a computer plays; back"]


def test_two_seats_away_are_both_named() -> None:
    """The away line named only the first seat away; a second one is news too, in one
    line at 60 columns (colours alone where the names do not fit)."""
    game = Record.new(Options(seed=3, players=3)).start([])
    v = view_model(view(game, 0))
    seats = [
        m.SeatInfo(seat=0, name="Ann", connected=True),
        m.SeatInfo(seat=1, name="Barty", absent=True, computer=True),
        m.SeatInfo(seat=2, name="Cy", absent=True, computer=True),
    ]
    wide = away_words(v, seats, 0, replaced_me=False, width=100)
    assert wide == (
        "Black (Barty) and Lilac (Cy) are away: a computer plays for them until they come back."
    )
    assert away_words(v, seats, 0, replaced_me=False, width=60) == (
        "Black and Lilac are away: a computer plays for them."
    )


def test_an_away_seats_kettle_line_stays_one_line_at_60_columns() -> None:
    """The line read "Li Lilac Cyd away (computer), 2 cards, 1 recipe, top Frog 1" and
    "(blue)" on the panel's next page: where even the short words wrap, the seat is
    "away" alone (the away line says a computer plays for it)."""
    game = Record.new(Options(seed=2, players=3, recipes=True)).start([])
    v = view_model(view(game, 0))
    seats = [
        m.SeatInfo(seat=0, name="Ann", connected=True),
        m.SeatInfo(seat=1, name="Bob", connected=True),
        m.SeatInfo(seat=2, name="Cyd", absent=True, computer=True),
    ]
    names = [s.name for s in seats]
    cards = Cards.of(catalogue())
    side = render_side(v, cards, catalogue(), names, seats, 1, 60, True)
    lilac = [text_of(ln) for ln in side if text_of(ln).startswith("Li ")]
    top = cards.marked(v.kettles[2].top or "")
    assert lilac == [f"Li Lilac Cyd away, 1\u00a0card, 1\u00a0recipe, top {top}"], lilac


async def test_a_computer_playing_your_seat_is_said_in_one_line_at_60_columns(
    away3: tuple[KupferApp, Client],
) -> None:
    """The line "A computer plays your seat (your time ran out): b takes it back." took
    two rows at 60 columns: there it is one, "b: back to your seat" on the key line."""
    kapp, client = away3
    assert client.presence is not None
    me = {"computer": True, "connected": True}
    seats = tuple(s.model_copy(update=me) if s.seat == 0 else s for s in kapp.game.seats)
    kapp.game.on_update(
        m.PresenceMsg(table=client.table, state="playing", seats=seats, spectators=0)
    )
    assert kapp.game.replaced_me()
    lines = [ln.rstrip() for ln in draw(kapp, 60, 20).split("\n")]
    assert "A computer plays your seat: b takes it back." in lines, lines
    assert any("b: back to your seat" in ln for ln in lines), lines
    wide = draw(kapp, 80, 24)
    whole("A computer plays your seat (your time ran out): b takes it back.", wide)
    check(kapp, client)


async def test_the_move_of_the_seat_choosing_now_is_said_once_at_60x20(
    away3: tuple[KupferApp, Client],
) -> None:
    """Under the grid "Black (Bob) moves 3 spaces" (the log's newest line) stood right
    above "Black, since your take: moved 3 spaces, choosing": the since lines leave that
    turn out where the log's newest line shows (60x20, 80x24, 120x40), and say it where
    it does not (the log paged back)."""
    kapp, client = away3
    game = kapp.game
    game.recent = Recent()
    game.recent.decided = True
    moved = m.MovedEvent(seat=1, from_space=4, to_space=7, skipped=())
    game.on_update(m.EventsMsg(state_version=1, events=(*took(2, "root-2", 3), moved)))
    v = game.table.view
    assert v is not None
    game.table.set_view(v.model_copy(update={"to_move": 1}), game.table.state_version + 1)
    assert game.table.visible_log()[-1].text == "Black (Bob) moves 3 spaces"
    screen = check(kapp, client, mine=False)
    assert "moved 3 spaces, choosing" not in screen, screen
    assert "Root 2 wand (col 3)" in screen, screen  # Lilac's take still shows
    for width, height in ((80, 24), (120, 40)):
        screen = draw(kapp, width, height)
        whole("Black (Bob) moves 3 spaces", screen)
        assert "moved 3 spaces, choosing" not in screen, screen
        assert "Root 2 wand (col 3)" in screen, screen
    kapp.key("pageup")  # the log paged back: its newest line is not on the screen
    assert game.log_pager.scroll
    assert "moved 3 spaces, choosing" in draw(kapp, 80, 24)


async def test_the_claim_question_is_one_line_at_60_columns(
    away: tuple[KupferApp, Client],
) -> None:
    """The question "Claim the win? Black (Bob) is away: the game ends now and you win.
    y/n" took two rows at 60 columns, under the away line that says who is away: there
    it is one."""
    kapp, _ = away
    kapp.key("w")
    assert kapp.game.confirm_claim
    lines = [ln.rstrip() for ln in draw(kapp, 60, 20).split("\n")]
    assert "Claim the win? The game ends now: you win. y/n" in lines, lines
    whole("Black (Bob) is away: a computer plays for them", "\n".join(lines))
    wide = draw(kapp, 80, 24)
    whole("Claim the win? Black (Bob) is away: the game ends now and you win. y/n", wide)


async def test_two_seats_away_a_clock_and_a_warning_leave_the_takes_at_60x20(
    away3: tuple[KupferApp, Client],
) -> None:
    """With two seats away, our clock and a time-out warning, the since lines gave way
    entirely at 60x20: the clock and the warning say it in one line there, leaving a
    row for both other seats' takes, under the newest log line and over the prompt."""
    kapp, client = away3
    game = kapp.game
    gone = {"absent": True, "computer": True, "connected": False, "bot": None}
    seats = tuple(s.model_copy(update=gone) if s.seat else s for s in game.seats)
    game.on_update(m.PresenceMsg(table=client.table, state="playing", seats=seats, spectators=0))
    game.recent = Recent()
    game.recent.decided = True  # mid-game: both others took since our take
    moved = m.MovedEvent(seat=0, from_space=4, to_space=6, skipped=())
    game.on_update(
        m.EventsMsg(state_version=1, events=(*took(1, "moss-3", 2), *took(2, "root-2", 3), moved))
    )
    v = game.table.view
    assert v is not None
    clock = m.ClockInfo(
        move_ms=30_000,
        running=0,
        left_ms=(29_000,) * 3,
        reserve_ms=(0,) * 3,
        timeouts=(1, 0, 0),
        absent_after=3,
    )
    game.table.set_view(v.model_copy(update={"clock": clock}), game.table.state_version + 1)
    game.clock_at = time.monotonic()
    screen = check(kapp, client)
    whole("Black and Lilac are away", screen)
    assert "Moss 3 (col 2)" in screen and "Root 2 wand (col 3)" in screen, screen
    assert re.search(r"\nYour clock: 0:2\d\. You timed out 1 of 3 in a row, then away\.", screen)
    waiting = game.table.view
    assert waiting is not None  # Black's clock: the warning still says it is ours
    game.table.set_view(
        waiting.model_copy(update={"to_move": 1, "clock": clock.model_copy(update={"running": 1})}),
        game.table.state_version + 1,
    )
    screen = check(kapp, client, mine=False)
    assert re.search(r"\nClock: Black 0:2\d\. You timed out 1 of 3 in a row, then away\.", screen)
    game.table.set_view(waiting, game.table.state_version + 1)
    wide = draw(kapp, 120, 40)  # room enough: each in its full words, as before
    whole("Your clock: 0:", wide)
    whole("then a computer moves for you.", wide)
    whole("Timed out once: at 3 in a row, a computer takes your seat.", wide)
