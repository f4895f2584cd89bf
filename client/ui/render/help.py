"""The help page: keys, scoring, the turn, and which colour is which.

Paragraphs wrapped to the screen, so the whole help reads at 60x20 as at 120x40.
"""

from __future__ import annotations

from client.i18n import N_, _
from client.i18n import colour_word as colour_name
from protocol import messages as m

from .cards import COLOUR_STYLE, COLOUR_TAG, long_name
from .text import Line, wrap

__all__ = ["HELP", "colour_table", "help_lines"]


HELP: tuple[str, ...] = (  # paragraphs, wrapped to the screen; "" a blank line
    N_("KEYS"),
    N_(
        "arrows or h j k l: choose a card of the underlined line; 0-5: the card in "
        "that row or column (the labels); Enter or a click: take it"
    ),
    N_("y / n: use or decline a card's symbol;  1 2 3 then Enter: explosion targets (3 players)"),
    N_("k / d: keep or discard the card that ends the game"),
    N_(
        "PgUp / PgDn: page the log;  L: the kettles and the whole log on the screen;  "
        "c: chat;  C: every chat line said at the table;  ?: this help;  G: the "
        "first-game guide;  R: resign;  q: quit"
    ),
    N_("at the end: g the board, v a review of the game take by take, r a rematch"),
    "",
    N_("SCORING (per ingredient in your kettle)"),
    N_(
        "1 card: minus its value.  2 cards: 0.  3 cards: plus the sum of the values.  "
        "4 cards: plus the sum, plus 5."
    ),
    N_(
        "Your own colour (white or black; the third player's colour) counts double, "
        "the penalty too, but not the +5 for all four."
    ),
    N_("Most value-1 cards: +5 (a tie gives nobody the points)."),
    N_("Recipes (variant): the bonus of each recipe you fulfil."),
    "",
    N_("THE TURN"),
    N_(
        "Your pawn moves clockwise by the value of your kettle's top card (other "
        "pawns are jumped, not counted). Take one card from the line next to your "
        "pawn (column 1-4 or row 1-4; the grid is labelled 0-5 all round); at a "
        "corner you take nothing. The line under the prompt says where a card would "
        "send you next turn."
    ),
    N_(
        "* boom: the other players' top kettle cards go under the deck, or out of the "
        "game once it is empty (a one-card kettle is immune). ~ wand: play another "
        "turn (at most two in a row)."
    ),
    N_(
        "You only ever see your kettle's top card: remember what you took! (With "
        "casual memory the side panel lists your whole kettle.) The game ends when a "
        "line is emptied: keep or discard that last card."
    ),
    N_(
        "Away: w claims the win while the other player is away (two players); b takes "
        "your seat back from the computer that plays it after your time ran out."
    ),
    N_(
        "Hints (servers of protocol 1.5): at a table made with hints (never a rated "
        "one; the header says so), H on your turn asks the expert for its take: the "
        "card is marked on the grid and said under the prompt, with the points it "
        "expects at the end. A few a minute."
    ),
    "",
    N_("PLAYERS (servers of protocol 1.2)"),
    N_(
        "in the lobby: m your player: register a name once, and every later "
        "connection signs in by itself; b the leaderboard (a rating with ? is "
        "provisional)."
    ),
    N_(
        "on a profile: Up/Down a game, Enter replays it take by take; d shows a "
        "one-time code: on the other device press m and type it as the device code. "
        "Esc: back."
    ),
    N_("signed in, the new-table form offers a rated table (players only, no computer)."),
)
"""The help's paragraphs: a heading in capitals, a paragraph (indented when shown), or
a blank line."""


def colour_table(catalogue: m.Catalogue) -> list[Line]:
    """Which ingredients have which colour, and the marks cards carry for it."""
    head = _("COLOURS (the mark on each card: the colour word, or its tag)")
    lines: list[Line] = [[("bold", head)]]
    wide = max(6, *(len(colour_name(c)) for c in catalogue.colours))
    for colour in catalogue.colours:
        names = []
        for c in catalogue.cards:
            name = long_name(c.ingredient)
            if c.colour == colour and name not in names:
                names.append(name)
        lines.append(
            [
                ("", "  "),
                (COLOUR_STYLE.get(colour, ""), colour_name(colour).ljust(wide)),
                ("", f" {COLOUR_TAG.get(colour, '')}: {', '.join(names)}"),
            ]
        )
    return lines


def help_lines(width: int = 80, catalogue: m.Catalogue | None = None) -> list[Line]:
    """The help, wrapped to ``width``: keys, scoring, the turn and the colour table."""
    lines: list[Line] = []
    for t in HELP:
        heading = t.split(" ")[0].isupper()  # "KEYS", "SCORING (per ...)"; else indented
        lines.append([("bold", _(t))] if heading else [("", f"  {_(t)}" if t else "")])
        if t.startswith("SCORING") and catalogue is not None:
            lines[-1:-1] = [*colour_table(catalogue), []]
    return [piece for line in lines for piece in wrap(line, width, 4)]
