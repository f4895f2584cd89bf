"""The side panel: whose turn, the deck, each kettle, who is here or away, recipes.

Wrapped to its width and never cut; ``compact`` (under the grid on a small terminal)
leaves out the rules between its parts.
"""

from __future__ import annotations

from collections.abc import Sequence

from client.i18n import N_, _, ngettext
from client.i18n import colour_word as colour_name
from protocol import messages as m

from .cards import COLOUR_STYLE, PAWN_TAG, Cards, colour_word, seat_label
from .text import GLUE, Line, text_of, wrap

__all__ = [
    "MEASURE_WORDS",
    "legend_line",
    "level_word",
    "names_a_bot",
    "recipe_text",
    "render_side",
    "seat_status",
    "shown_name",
    "side_parts",
]


def recipe_text(recipe_id: str, catalogue: m.Catalogue) -> str:
    """A recipe card in a few words, e.g. ``3+ of both gray (+15)``."""
    info = next((r for r in catalogue.recipes if r.id == recipe_id), None)
    if info is None:
        return recipe_id
    colour = colour_name(info.colour or "")
    if info.kind == "both_of_colour":
        what = _("3+ of both {colour}").format(colour=colour)
    elif info.kind == "one_of_colour":
        what = _("3+ of one {colour}").format(colour=colour)
    elif info.kind == "last_card":
        what = _("take the last card")
    elif info.kind == "plants":
        what = _("3+ of 3 plants")
    else:
        measure = info.measure or ""
        what = _("fewest {what}").format(
            what=_(MEASURE_WORDS[measure]) if measure in MEASURE_WORDS else measure
        )
    return f"{what} (+{info.bonus})"


MEASURE_WORDS = {
    "explode": N_("boom cards"),
    "wand": N_("wand cards"),
    "cards": N_("cards"),
    "fours": N_("4s"),
}


def legend_line(colours: Sequence[str]) -> Line:
    line: Line = []
    for c in colours:
        line += [(COLOUR_STYLE.get(c, ""), f"{colour_name(c):^5}"), ("", " ")]
    return line


def seat_status(
    info: m.SeatInfo | None, *, short: bool = False, plain: bool = False
) -> tuple[str, str]:
    """A seat's presence in a word, with its style: bot, online, away (the player's
    connection is gone: the game waits for them), resigned; ``short``, where a line
    has no room for more: "away (computer)" for "away, a computer plays", and nothing
    for "online"; ``plain``: "away" alone (a line elsewhere says a computer plays)."""
    if info is None or (short and info.connected and not info.computer and not info.bot):
        return ("fg:#808080", "")  # short: "online" goes, the usual case
    computer = info.computer and not plain
    if info.resigned:
        if not computer:
            return ("fg:#ff5f5f", _("resigned"))
        return (
            "fg:#ff5f5f",
            _("resigned (computer)") if short else _("resigned, a computer plays"),
        )
    if info.bot:
        return ("fg:#808080", _("bot"))
    if info.absent or (info.computer and not info.connected):
        if not computer:
            return ("fg:#ff5f5f bold", _("away"))
        return ("fg:#ff5f5f bold", _("away (computer)") if short else _("away, a computer plays"))
    if computer:
        return (
            "fg:#ff8700 bold",
            _("online (computer)") if short else _("online, a computer plays"),
        )
    if info.connected or info.computer:
        return ("fg:#40c060", _("online"))
    return ("fg:#ff5f5f bold", _("away"))


def seat_name(info: m.SeatInfo | None, name: str) -> str:
    """A seat's name as shown: ``Hanna (registered)`` when a registered player sits
    there (1.2), so that someone who merely typed the name Hanna is told apart."""
    if info is not None and info.registered:
        return _("{name} (registered)").format(name=name)
    return name


def names_a_bot(name: str) -> bool:
    """Whether a seat's name already says it is a bot: the server names its bots
    ``"{level} bot"`` ("easy bot", shown ``Bot leicht`` in German), so the side panel
    does not say "bot" again."""
    words = name.lower().split()
    return words[-1:] == ["bot"] or _("bot").lower() in words


LEVEL_WORDS = {
    "beginner": N_("beginner"),
    "easy": N_("easy"),
    "medium": N_("medium"),
    "hard": N_("hard"),
    "expert": N_("expert"),
}
"""The computer players' levels in words (a level the server adds later: its name)."""


def level_word(level: str) -> str:
    return _(LEVEL_WORDS[level]) if level in LEVEL_WORDS else level


def shown_name(info: m.SeatInfo) -> str | None:
    """A seat's name in the language spoken: a server's bot is named ``"{level} bot"``
    (``easy bot``), which reads as the level's words (``Bot leicht``)."""
    if info.bot and info.name == f"{info.bot} bot":
        return _("{level} bot").format(level=level_word(info.bot))
    return info.name


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
        head.append(("bold", _("Game over")))
    elif view.to_move is not None:
        mover = seat_label(colours, view.to_move, names)
        mine = view.to_move == me
        head += [
            ("bold", _("To move:") + " "),
            ("bold reverse" if mine else "bold", _("You") if mine else mover),
            *([("bold", " " + _("(extra turn)"))] if view.turn_in_row == 2 else []),
        ]
    n, ply = view.deck_size, view.ply
    deck = "   ".join(
        (
            ngettext("Deck {n} card", "Deck {n} cards", n).format(n=n).replace(" ", GLUE),
            _("{n} taken").format(n=ply).replace(" ", GLUE),
        )
    )
    if compact:
        lines.append([*head, ("", "   " + deck)])
    else:
        lines += [head, [("", deck)], rule]
    for k in view.kettles:
        seat = k.seat
        info = seats[seat] if seat < len(seats) else None
        name = names[seat] if seat < len(names) and names[seat] else "-"
        you = " " + _("(you)") if seat == me else ""
        top = cards.marked(k.top) if k.top else "-"
        count = ngettext("{n} card", "{n} cards", k.count).format(n=k.count).replace(" ", GLUE)
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
            said = ngettext("{n} recipe", "{n} recipes", held).format(n=held)
            tail.append(("", ", " + said.replace(" ", GLUE)))
        kettle: Line = (
            [("", "  " + _("top") + " "), (COLOUR_STYLE.get(cards.colour(k.top), ""), top)]
            if k.top
            else [("", "  " + _("top") + " -")]
        )
        bot_named = info is not None and info.bot and names_a_bot(name or "")
        for short in (False, True, None):  # compact: in fewer words, one line, not two
            status = (
                ("", "")
                if bot_named
                else seat_status(info, short=short is not False, plain=short is None)
            )  # short is None: "away" alone, the away line says a computer plays
            # a bot_named: "White easy bot", not "White easy bot bot"
            who = [*tag, *([("", " "), status] if status[1] else []), *tail]
            line = [*who, ("", ", " + _("top") + " "), *kettle[1:]]
            if not compact or len(text_of(line)) <= width:
                break
        if compact:
            (own if mine_first and seat == me else lines).append(line)
        else:
            lines += [who, kettle]
        if k.cards is not None and seat == me and not view.game_over:  # memory: casual
            # what scores: each ingredient with its values (the top is shown above)
            in_it: Line = [("fg:#a0a0a0", "  " + _("in it:") + f" {cards.grouped(k.cards)}")]
            (inside if mine_first else lines).append(in_it)
    if me is not None and me < len(view.recipes):
        hand = view.recipes[me]
        if hand:
            if not compact:
                lines += [rule, [("bold", _("Your recipes"))]]
                lines.extend([("", "  " + recipe_text(r, catalogue))] for r in hand)
            else:
                texts = "; ".join(recipe_text(r, catalogue) for r in hand)
                mine_said: Line = [("bold", _("Your recipes:") + " "), ("", texts)]
                (own if mine_first else lines).append(mine_said)
    if legend:
        lines.append(rule)
        lines += wrap(legend_line(catalogue.colours), width, 0)
        key = "   ".join(("* " + _("boom"), "~ " + _("wand"), "?: " + _("colours")))
        lines.append([("fg:#808080", key)])
    if own:  # your kettle and recipes first; the deck last (the prompt says whose turn)
        lines = [*own, *inside, *lines[1:], [("", deck)]]
    wrapped = [wrap(line, width) for line in lines]
    keep = sum(len(w) for w in wrapped[: len(own)]) if own else 1
    return [p for w in wrapped for p in w], keep
