"""The first-game guide: the goal, a turn, and the end with its scoring, in three short
screens, offered on the first run and from the help (``G``).

The help lists everything; a new player needs the three ideas first, in the order they
meet them, each on a screen that fits 60x20.
"""

from __future__ import annotations

from client.i18n import N_, _

from .render import Line, wrap, wrap_items

__all__ = ["PAGES", "guide_lines"]

PAGES: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        N_("1. The goal"),
        (
            N_(
                "Fill your kettle with ingredients that score. Each ingredient scores "
                "by how many of its cards end up in your kettle: 1 card costs its "
                "value, 2 cards score nothing, 3 cards score the sum of their values, "
                "all 4 the sum plus 5."
            ),
            N_(
                "Your own colour counts double (the cost too). The most value-1 cards earn +5 more."
            ),
            N_(
                "The catch: you only ever see your kettle's top card. Remember what you "
                "took! (At a table of casual memory the screen lists your whole "
                "kettle.)"
            ),
        ),
    ),
    (
        N_("2. A turn"),
        (
            N_(
                "Your pawn walks clockwise around the grid as many spaces as the value "
                "of your kettle's top card, jumping other pawns. Then you take one card "
                "from the row or column next to it (the prompt says which; arrows "
                "choose, Enter takes). It goes on top of your kettle, so it sets your "
                "next walk: the line under the prompt says where it would send you."
            ),
            N_(
                "At a corner there is nothing to take. * boom: you may knock the other "
                "player's top card out of their kettle (with three players, you choose "
                "whose; a kettle of one card is safe). ~ wand: play again at once."
            ),
        ),
    ),
    (
        N_("3. The end and the score"),
        (
            N_(
                "While the deck lasts, every gap is refilled. Once it is empty, the "
                "game ends when a take empties a line cards are taken from (the four "
                "inner rows and four inner columns): you keep that last card or discard "
                "it. Then every kettle is shown and scored, ingredient by ingredient, "
                "and the highest total wins."
            ),
            N_(
                "While you play: the lines 'since your take' say what the others did, L "
                "shows the log, c chats, ? shows every key and the colours."
            ),
        ),
    ),
)
"""The guide's screens: a title and short paragraphs each."""


def guide_lines(page: int, width: int, rows: int) -> list[Line]:
    """Screen ``page`` (0-2) of the guide in ``rows`` lines, the keys at the bottom;
    where a language's words need more rows, without the blank lines between them."""
    title, paragraphs = PAGES[page]
    body: list[Line] = [[("bold", _("First game: {title}").format(title=_(title)))], []]
    for text in paragraphs:
        body += [*wrap([("", _(text))], width, 0), []]
    last = page + 1 == len(PAGES)  # the keys that do something here, and what
    keys = [
        _("page {n} of {count}").format(n=page + 1, count=len(PAGES)),
        _("Right/Enter: done") if last else _("Right/Enter: next"),
    ]
    keys += [_("Left: back")] if page else []
    keys += [_("Esc: close")]
    foot = wrap_items(keys, width)
    room = max(0, rows - len(foot))
    if len(body) > room:  # a longer language: the blank lines give way, not the words
        body = [line for line in body if line]
    body = body[:room]
    return body + [[] for _ in range(rows - len(foot) - len(body))] + foot
