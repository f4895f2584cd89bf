"""The smallest table screen, 60x20, when it has the most to say: the opponent is away
(a computer plays for them), so the prompt has an away line and the side panel says
so too. The kettles and the newest line of the log must still be on the screen, not
only behind ``L``."""

from __future__ import annotations

import pytest

from client.lib import Client
from client.ui.app import KupferApp
from client.ui.pane import SidePager
from client.ui.prompt import landing_words
from client.ui.recent import Recent
from client.ui.render import Cards, Line, recipe_text, render_side, text_of
from client.ui.table import Landing, LogEntry
from protocol import messages as m
from protocol.convert import catalogue, view_model
from shared.options import Options
from shared.record import Record
from shared.view import view
from tests.helpers.screens import draw, took, whole

CARDS = Cards.of(catalogue())


async def test_at_60x20_the_log_shows_while_the_opponent_is_away(
    away: tuple[KupferApp, Client],
) -> None:
    kapp, client = away
    game = kapp.game
    assert game.claimable() and game.table.my_turn
    screen = draw(kapp, 60, 20)
    whole("Black (Bob) is away: a computer plays for them", screen)  # the away line
    newest = game.table.log[-1].text
    assert newest == "Black (Bob) is away: a computer plays for them"
    lines = [ln.rstrip() for ln in screen.split("\n")[:20]]
    assert newest in lines, screen  # the log's own line, not only the away line's words
    view = client.view
    assert view is not None
    for k in view.kettles:  # both kettles, not paged away behind PgDn
        whole(f"{k.count} card", screen)
        assert k.top is not None
        whole(game.cards().marked(k.top), screen)
    assert "PgDn" not in screen, screen
    whole("w: claim the win", screen)
    kapp.game.table.log.append(LogEntry("Black (Bob) takes Frog slime 2 from row 3"))
    lines = [ln.rstrip() for ln in draw(kapp, 60, 20).split("\n")]
    assert "Black (Bob) takes Frog slime 2 from row 3" in lines
    # a computer's turn for Bob, long in full words: they give way to the log's line
    boom = m.TookEvent(
        seat=1, card="frog_slime-2", line="row3", row=3, col=1, special=True, ends_game=False
    )
    hit = m.ExplodedEvent(seat=1, target=0, card=view.kettles[0].top or "", to="deck")
    turn = (m.MovedEvent(seat=1, from_space=11, to_space=14, skipped=()), boom, hit)
    kapp.game.on_update(m.EventsMsg(state_version=1, events=turn))
    assert len(game.recent.lines(2, view.colours, game.cards(), 60)) > 1  # it would wrap
    newest = game.table.visible_log()[-1].text
    screen = draw(kapp, 60, 20)
    assert newest in [ln.rstrip() for ln in screen.split("\n")], screen
    assert "Frog 2 boom (row 3)" in screen and "PgDn" not in screen, screen


async def test_at_60x20_your_own_kettle_and_recipes_show_on_your_turn(
    seated: tuple[KupferApp, Client],
) -> None:
    """Three players with recipes, a clock line and both other seats' takes: under the
    grid the panel has two rows. On your turn your kettle's line and your recipes come
    first (the prompt says whose turn), not paged away behind PgDn by the others'
    kettles; with rows more they stay on every page while the rest pages."""
    kapp, client = seated
    game = kapp.game
    game.recent = Recent()
    game.recent.decided = True  # mid-game: we took before
    moved = m.MovedEvent(seat=0, from_space=4, to_space=6, skipped=())
    events = (*took(1, "moss-3", 2), *took(2, "root-2", 3), moved)
    game.on_update(m.EventsMsg(state_version=1, events=events))
    v = game.table.view
    assert v is not None and game.table.my_turn and v.recipes[0]
    clock = m.ClockInfo(move_ms=30_000, running=0, left_ms=(29_000,) * 3, reserve_ms=(0,) * 3)
    game.table.set_view(v.model_copy(update={"clock": clock}), game.table.state_version + 1)
    own = f"Wh White {game.names()[0]} (you)"
    recipes = "Your recipes: " + "; ".join(recipe_text(r, client.catalogue) for r in v.recipes[0])
    screen = draw(kapp, 60, 20)
    whole(own, screen)
    whole(recipes, screen)
    assert "Your turn: " in screen and "(PgDn)" not in screen, screen
    assert "Moss 3 (col 2)" in screen and "Root 2 wand (col 3)" in screen, screen
    game.recent = Recent()  # one since line, no clock: a page of the others' kettles
    game.recent.decided = True
    game.on_update(m.EventsMsg(state_version=2, events=tuple(took(1, "moss-3", 2))))
    game.table.set_view(v, game.table.state_version + 1)
    pages = []
    for _ in range(4):
        pages.append(draw(kapp, 60, 20))
        kapp.key("pagedown")
    assert any("(PgDn)" in p for p in pages), pages[0]
    for page in pages:
        assert "Your turn: " in page, page  # whose turn: the prompt says it
        whole(own, page)
        whole(recipes, page)


@pytest.mark.parametrize("line", ["col4", "row1", None])
@pytest.mark.parametrize(("wand", "guess"), [(False, False), (True, False), (False, True)])
def test_the_landing_preview_is_one_line_at_60_columns(
    line: str | None, wand: bool, guess: bool
) -> None:
    """Wider it says it all; at 60 columns in fewer words, never in two lines."""
    land = Landing(4, 3, line, wand=wand, guess=guess)
    _, full = landing_words(land, 200)
    assert full.startswith("This card on top: ")
    assert ("column 4" if line == "col4" else "row 1" if line else "a lost turn") in full
    for width in range(60, 100):  # every width between says it in words that read
        words = landing_words(land, width)[1]
        assert len(words) <= width and "land a corner" not in words, words
    _, short = landing_words(land, 60)
    assert len(short) <= 60, short
    if len(full) <= 60:
        assert short == full
        return
    assert "move 4" in short and ("boom" in short) == guess and ("wand" in short) == wand
    assert ("col 4" if line == "col4" else "row 1" if line else "lost turn") in short


def test_a_seat_line_under_the_grid_says_it_in_fewer_words_not_two_lines() -> None:
    """At 60 columns (the panel under the grid) a seat's line that would wrap drops
    "online" (the usual case) and says "away (computer)", or "away" alone (the away
    line says who plays it); a line that fits says it all, and the panel beside the
    grid always does."""
    game = Record.new(Options(seed=3, players=3, recipes=True)).start([])
    v = view_model(view(game, 0))
    names = ["Ann", "Barty", "Cy"]
    seats = [
        m.SeatInfo(seat=0, name="Ann", connected=True),
        m.SeatInfo(seat=1, name="Barty", connected=True),
        m.SeatInfo(seat=2, name="Cy", absent=True, computer=True),
    ]
    lines = [text_of(ln) for ln in render_side(v, CARDS, catalogue(), names, seats, 0, 60, True)]
    black = next(ln for ln in lines if ln.startswith("Bk Black Barty"))
    top = CARDS.marked(v.kettles[1].top or "")
    whole = f"Bk Black Barty online, 1\u00a0card, 1\u00a0recipe, top {top}"
    lilac = next(ln for ln in lines if ln.startswith("Li "))
    assert len(whole) > 60 and black == whole.replace(" online", ""), lines
    assert "Cy away," in lilac, lines  # not even "away (computer)" fits: "away" alone
    assert "Ann (you) online" in lines[0], lines  # it fits: all of it (yours first)
    wide = " ".join(text_of(ln) for ln in render_side(v, CARDS, catalogue(), names, seats, 0, 40))
    assert "Barty online" in wide and "away, a computer plays" in wide


def test_a_panel_that_just_fits_is_not_paged_to_point_at_the_log() -> None:
    """Under the grid the panel with exactly its own rows paged its last kettle away to
    make room for "the log: L" (which the key line says anyway): it shows whole now,
    and pages only when it does not fit."""
    side = [[("", f"line {n}")] for n in range(4)]
    asked: list[int] = []

    def log(rows: int) -> list[Line]:
        asked.append(rows)
        return [[("", "log")]] * rows

    pane = [text_of(ln) for ln in SidePager().pane(side, 4, log)]
    assert pane == ["line 0", "line 1", "line 2", "line 3"] and asked == [0], pane
    pane = [text_of(ln) for ln in SidePager().pane(side, 5, log)]
    assert pane == ["line 0", "line 1", "line 2", "line 3", "log"], pane
    pane = [text_of(ln) for ln in SidePager().pane(side, 3, log)]
    assert pane[0] == "line 0" and "(PgDn); the log: L" in pane[-1], pane
