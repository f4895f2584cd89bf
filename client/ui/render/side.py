"""The side panel: whose turn, the deck, each kettle, who is here or away, recipes.

Wrapped to its width and never cut; ``compact`` (under the grid on a small terminal)
leaves out the rules between its parts.
"""

from __future__ import annotations

from collections.abc import Sequence

from protocol import messages as m

from .cards import COLOUR_STYLE, PAWN_TAG, Cards, colour_word, seat_label
from .text import GLUE, Line, text_of, wrap

__all__ = [
    "MEASURE_WORDS",
    "legend_line",
    "names_a_bot",
    "recipe_text",
    "render_side",
    "seat_status",
    "side_parts",
]


def recipe_text(recipe_id: str, catalogue: m.Catalogue) -> str:
    """A recipe card in a few words, e.g. ``3+ of both gray (+15)``."""
    info = next((r for r in catalogue.recipes if r.id == recipe_id), None)
    if info is None:
        return recipe_id
    what = {
        "both_of_colour": f"3+ of both {info.colour}",
        "one_of_colour": f"3+ of one {info.colour}",
        "last_card": "take the last card",
        "plants": "3+ of 3 plants",
    }.get(info.kind, f"fewest {MEASURE_WORDS.get(info.measure or '', info.measure)}")
    return f"{what} (+{info.bonus})"


MEASURE_WORDS = {"explode": "boom cards", "wand": "wand cards", "cards": "cards", "fours": "4s"}


def legend_line(colours: Sequence[str]) -> Line:
    line: Line = []
    for c in colours:
        line += [(COLOUR_STYLE.get(c, ""), f"{c:^5}"), ("", " ")]
    return line


def seat_status(info: m.SeatInfo | None, *, short: bool = False) -> tuple[str, str]:
    """A seat's presence in a word, with its style: bot, online, away (the player's
    connection is gone: the game waits for them), resigned; ``short``, where a line
    has no room for more: "away (computer)" for "away, a computer plays", and nothing
    for "online"."""
    computer = " (computer)" if short else ", a computer plays"
    if info is None or (short and info.connected and not info.computer and not info.bot):
        return ("fg:#808080", "")  # short: "online" goes, the usual case
        return ("fg:#808080", "")
    if info.resigned:
        return ("fg:#ff5f5f", f"resigned{computer}" if info.computer else "resigned")
    if info.bot:
        return ("fg:#808080", "bot")
    if info.absent or (info.computer and not info.connected):
        return ("fg:#ff5f5f bold", f"away{computer}")
    if info.computer:
        return ("fg:#ff8700 bold", f"online{computer}")
    if info.connected:
        return ("fg:#40c060", "online")
    return ("fg:#ff5f5f bold", "away")


def seat_name(info: m.SeatInfo | None, name: str) -> str:
    """A seat's name as shown: ``Hanna (registered)`` when a registered player sits
    there (1.2), so that someone who merely typed the name Hanna is told apart."""
    return f"{name} (registered)" if info is not None and info.registered else name


def names_a_bot(name: str) -> bool:
    """Whether a seat's name already says it is a bot: the server names its bots
    ``"{level} bot"`` ("easy bot"), so the side panel does not say "bot" again."""
    return name.lower().split()[-1:] == ["bot"]


def render_side(
    view: m.GameView | None,
    cards: Cards,
    catalogue: m.Catalogue,
    names: Sequence[str | None],
    seats: Sequence[m.SeatInfo],
    me: int | None,
    width: int,
    compact: bool = False,
    legend: bool = False,
) -> list[Line]:
    """Whose turn, the deck, each kettle (top card, count), who is here or away, your
    recipes and (``legend``) the colour legend; wrapped to ``width``, never cut.
    ``compact`` (the panel under the grid on a small terminal) leaves out rules."""
    args = (view, cards, catalogue, names, seats, me, width)
    return side_parts(*args, compact=compact, legend=legend)[0]


def side_parts(
    view: m.GameView | None,
    cards: Cards,
    catalogue: m.Catalogue,
    names: Sequence[str | None],
    seats: Sequence[m.SeatInfo],
    me: int | None,
    width: int,
    *,
    compact: bool = False,
    legend: bool = False,
) -> tuple[list[Line], int]:
    """``render_side``'s lines, and how many of the first stay in place when the panel
    pages: whose turn; ``compact`` on your turn your kettle's line and your recipes
    instead, which then come first (before your kettle's cards and the other kettles,
    the deck last: the prompt says whose turn), since on a small terminal the others'
    kettles would page them away and every row is needed."""
    lines: list[Line] = []
    if view is None:
        return lines, 0
    mine_first = compact and me is not None and view.to_move == me and not view.game_over
    own: list[Line] = []  # mine_first: your kettle's line and your recipes
    inside: list[Line] = []  # mine_first: what is in your kettle, under them
    colours = view.colours
    rule: Line = [("fg:#808080", "-" * max(1, width - 1))]
    head: Line = []
    if view.game_over:
        head.append(("bold", "Game over"))
    elif view.to_move is not None:
        mover = seat_label(colours, view.to_move, names)
        mine = view.to_move == me
        head += [
            ("bold", "To move: "),
            ("bold reverse" if mine else "bold", "You" if mine else mover),
            *([("bold", " (extra turn)")] if view.turn_in_row == 2 else []),
        ]
    n, ply = view.deck_size, view.ply
    deck = f"Deck{GLUE}{n}{GLUE}card{'s' if n != 1 else ''}   {ply}{GLUE}taken"
    if compact:
        lines.append([*head, ("", "   " + deck)])
    else:
        lines += [head, [("", deck)], rule]
    for k in view.kettles:
        seat = k.seat
        info = seats[seat] if seat < len(seats) else None
        name = names[seat] if seat < len(names) and names[seat] else "-"
        you = " (you)" if seat == me else ""
        top = cards.marked(k.top) if k.top else "-"
        count = f"{k.count}{GLUE}card{'s' if k.count != 1 else ''}"
        held = view.recipe_counts[seat] if seat < len(view.recipe_counts) else 0
        tag: Line = [
            (COLOUR_STYLE.get(k.colour, ""), PAWN_TAG.get(k.colour, "  ")),
            ("", " "),
            (
                "bold" if seat == view.to_move else "",
                f"{colour_word(k.colour)} {seat_name(info, name or '-')}{you}",
            ),
        ]
        tail: Line = [("", f", {count}")]
        if view.options.recipes and seat != me and not view.game_over:
            # how many recipes each seat holds is public (RULES.md 9), which they are not
            tail.append(("", f", {held}{GLUE}recipe{'s' if held != 1 else ''}"))
        kettle: Line = (
            [("", "  top "), (COLOUR_STYLE.get(cards.colour(k.top), ""), top)]
            if k.top
            else [("", "  top -")]
        )
        bot_named = info is not None and info.bot and names_a_bot(name or "")
        for short in (False, True, None):  # compact: in fewer words, one line, not two
            status = ("", "") if bot_named else seat_status(info, short=short is not False)
            if short is None:  # "away" alone: the away line says a computer plays
                status = (status[0], status[1].replace(" (computer)", ""))
            # a bot_named: "White easy bot", not "White easy bot bot"
            who = [*tag, *([("", " "), status] if status[1] else []), *tail]
            line = [*who, ("", ", top "), *kettle[1:]]
            if not compact or len(text_of(line)) <= width:
                break
        if compact:
            (own if mine_first and seat == me else lines).append(line)
        else:
            lines += [who, kettle]
        if k.cards is not None and seat == me and not view.game_over:  # memory: casual
            # what scores: each ingredient with its values (the top is shown above)
            in_it: Line = [("fg:#a0a0a0", f"  in it: {cards.grouped(k.cards)}")]
            (inside if mine_first else lines).append(in_it)
    if me is not None and me < len(view.recipes):
        hand = view.recipes[me]
        if hand:
            if not compact:
                lines += [rule, [("bold", "Your recipes")]]
                lines.extend([("", "  " + recipe_text(r, catalogue))] for r in hand)
            else:
                texts = "; ".join(recipe_text(r, catalogue) for r in hand)
                (own if mine_first else lines).append([("bold", "Your recipes: "), ("", texts)])
    if legend:
        lines.append(rule)
        lines += wrap(legend_line(catalogue.colours), width, 0)
        lines.append([("fg:#808080", "* boom   ~ wand   ?: colours")])
    if own:  # your kettle and recipes first; the deck last (the prompt says whose turn)
        lines = [*own, *inside, *lines[1:], [("", deck)]]
    wrapped = [wrap(line, width) for line in lines]
    keep = sum(len(w) for w in wrapped[: len(own)]) if own else 1
    return [p for w in wrapped for p in w], keep
