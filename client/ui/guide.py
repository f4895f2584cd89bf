"""The first-game guide: the goal, a turn, and the end with its scoring, in three short
screens, offered on the first run and from the help (``G``).

The help lists everything; a new player needs the three ideas first, in the order they
meet them, each on a screen that fits 60x20.
"""

from __future__ import annotations

from .render import Line, wrap, wrap_items

__all__ = ["PAGES", "guide_lines"]

PAGES: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "1. The goal",
        (
            "Fill your kettle with ingredients that score. Each ingredient scores by how "
            "many of its cards end up in your kettle: 1 card costs its value, 2 cards "
            "score nothing, 3 cards score the sum of their values, all 4 the sum plus 5.",
            "Your own colour counts double (the cost too). The most value-1 cards earn +5 more.",
            "The catch: you only ever see your kettle's top card. Remember what you took! "
            "(At a table of casual memory the screen lists your whole kettle.)",
        ),
    ),
    (
        "2. A turn",
        (
            "Your pawn walks clockwise around the grid as many spaces as the value of "
            "your kettle's top card, jumping other pawns. Then you take one card from "
            "the row or column next to it (the prompt says which; arrows choose, Enter "
            "takes). It goes on top of your kettle, so it sets your next walk: the line "
            "under the prompt says where it would send you.",
            "At a corner there is nothing to take. * boom: you may knock the other "
            "player's top card out of their kettle (with three players, you choose whose; "
            "a kettle of one card is safe). ~ wand: play again at once.",
        ),
    ),
    (
        "3. The end and the score",
        (
            "While the deck lasts, every gap is refilled. Once it is empty, the game ends "
            "when a take empties a line cards are taken from (the four inner rows and "
            "four inner columns): you keep that last card or discard it. Then every "
            "kettle is shown and scored, ingredient by ingredient, and the highest total "
            "wins.",
            "While you play: the lines 'since your take' say what the others did, L "
            "shows the log, c chats, ? shows every key and the colours.",
        ),
    ),
)
"""The guide's screens: a title and short paragraphs each."""


def guide_lines(page: int, width: int, rows: int) -> list[Line]:
    """Screen ``page`` (0-2) of the guide in ``rows`` lines, the keys at the bottom."""
    title, paragraphs = PAGES[page]
    body: list[Line] = [[("bold", f"First game: {title}")], []]
    for text in paragraphs:
        body += [*wrap([("", text)], width, 0), []]
    last = page + 1 == len(PAGES)  # the keys that do something here, and what
    keys = [f"page {page + 1} of {len(PAGES)}", f"Right/Enter: {'done' if last else 'next'}"]
    keys += ["Left: back"] if page else []
    keys += ["Esc: close"]
    foot = wrap_items(keys, width)
    body = body[: max(0, rows - len(foot))]
    return body + [[] for _ in range(rows - len(foot) - len(body))] + foot
