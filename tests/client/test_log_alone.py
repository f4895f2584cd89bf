"""The log in one or two rows (a small screen): its newest entry must read alone. A
follow-on entry such as "  Toad 1 fills the gap" says nothing without the take it
follows, so there it comes with that take (in fewer words if it must), or the take
shows alone."""

from __future__ import annotations

from client.lib import Client
from client.ui.app import KupferApp
from client.ui.log import LogPager
from client.ui.recent import Recent
from client.ui.render import text_of
from client.ui.table import LogEntry
from protocol import messages as m
from tests.helpers.screens import draw, took

LOG = [
    LogEntry("Black (Bob) moves 3 spaces", 1),
    LogEntry("Black (Bob) takes Moss 3 from column 2", None, 1),
    LogEntry("  Toad 1 fills the gap"),
]


def shown(entries: list[LogEntry], width: int, rows: int) -> list[str]:
    return [text_of(ln) for ln in LogPager().lines(entries, width, rows)]


def test_one_row_shows_the_take_with_its_refill() -> None:
    assert shown(LOG, 60, 1) == ["Black (Bob) takes Moss 3 from column 2; Toad 1 fills the gap"]


def test_one_narrow_row_says_it_in_fewer_words_or_the_take_alone() -> None:
    assert shown(LOG, 56, 1) == ["Black takes Moss 3 from column 2; Toad 1 fills the gap"]
    declined = [
        *LOG[:1],
        LogEntry("Lilac (easy bot) takes Root 2 from column 3 (declines the wand)"),
        LOG[2],
    ]
    assert shown(declined, 60, 1) == ["Lilac takes Root 2 from column 3; Toad 1 fills the gap"]
    assert shown(LOG, 40, 1) == ["Black (Bob) takes Moss 3 from column 2"]


def test_two_rows_show_the_take_and_its_refill_not_a_pointer_and_the_refill() -> None:
    many = [LogEntry(f"entry {n}") for n in range(9)] + LOG
    assert shown(many, 60, 2) == [
        "Black (Bob) takes Moss 3 from column 2",
        "  Toad 1 fills the gap",
    ]
    # an entry that reads alone keeps the pager's line above it, as before
    plain = [*many, LogEntry("Wand: Black (Bob) plays again")]
    assert shown(plain, 60, 2)[1] == "Wand: Black (Bob) plays again"
    assert "L: all" in shown(plain, 60, 2)[0]


async def test_at_60x20_the_log_row_under_the_panel_reads_alone(
    away3: tuple[KupferApp, Client],
) -> None:
    """Black's computer took a card and Lilac chooses: the one log row at 60x20 showed
    "  Toad 1 fills the gap" alone."""
    kapp, _ = away3
    game = kapp.game
    game.recent = Recent()
    game.recent.decided = True
    game.on_update(m.EventsMsg(state_version=1, events=tuple(took(1, "moss-3", 2))))
    v = game.table.view
    assert v is not None
    game.table.set_view(v.model_copy(update={"to_move": 2}), game.table.state_version + 1)
    assert game.table.visible_log()[-1].text == "  Toad 1 fills the gap"
    lines = [ln.rstrip() for ln in draw(kapp, 60, 20).split("\n")]
    assert "Black (Bob) takes Moss 3 from column 2; Toad 1 fills the gap" in lines, lines
    assert "Toad 1 fills the gap" not in [ln.strip() for ln in lines], lines


def test_a_page_of_the_log_begins_with_an_entry_not_the_end_of_one() -> None:
    """At 80x24 the log under the grid read "log: 3 more above (PgUp), L: all" over
    "  the wand)", the end of an entry cut above: a page begins where an entry does."""
    entries = [
        LogEntry("Black (Bob) is away: a computer plays for them"),
        LogEntry("Lilac (easy bot) moves 3 spaces"),
        LogEntry("Lilac (easy bot) takes Root 2 from column 3 (declines the wand)"),
        LogEntry("  Toad 1 fills the gap"),
        LogEntry("Black (Bob) moves 3 spaces"),
    ]
    page = shown(entries, 57, 4)
    assert page == ["", "", "log: 5 more above (PgUp), L: all", "Black (Bob) moves 3 spaces"]
    assert shown(entries, 57, 5)[1:3] == [
        "Lilac (easy bot) takes Root 2 from column 3 (declines the",
        "  wand)",
    ]


def test_a_page_of_the_log_does_not_begin_with_a_follow_on() -> None:
    """A spectator at 80x24 read "log: 16 more above (PgUp), L: all" over "  Dragon
    blood 3 fills the gap", the refill of a take paged away above."""
    entries = [
        *(LogEntry(f"entry {n}") for n in range(5)),
        LogEntry("White (Ann) takes Moss 4 from row 4"),
        LogEntry("  Dragon blood 3 fills the gap"),
        LogEntry("Black (Bob) moves 1 space"),
    ]
    page = shown(entries, 57, 3)
    assert page[1:] == ["log: 7 more above (PgUp), L: all", "Black (Bob) moves 1 space"], page
    assert shown(entries, 57, 4)[1:] == [e.text for e in entries[-3:]]
