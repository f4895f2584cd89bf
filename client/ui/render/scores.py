"""The final score table and the words for an early ending.

Every kettle revealed, each ingredient's points, the bonuses and the recipes, never cut
at any width, so a player can check the count.
"""

from __future__ import annotations

from collections.abc import Sequence

from client.i18n import N_, _, fmt_list, ngettext, ordinal
from protocol import messages as m

from .cards import COLOUR_STYLE, COLOUR_TAG, PAWN_STYLE, Cards, colour_word, long_name, seat_label
from .side import recipe_text
from .text import Line, wrap

__all__ = ["ending_words", "render_scores"]


def ending_words(result: m.ResultInfo, colours: Sequence[str], names: Sequence[str | None]) -> str:
    """How a game ended, in a sentence or two, with every seat's place: an early end
    (the position is scored as it stands), or a played-out game where a seat resigned
    and so places last whatever it scores."""

    def who(seats: Sequence[int]) -> str:
        return fmt_list(seat_label(colours, s, names) for s in seats) or _("a player")

    places = ", ".join(
        f"{seat_label(colours, s, names)} {ordinal(p)}"
        for s, p in sorted(enumerate(result.places), key=lambda sp: sp[1])
    )
    if result.ending == "played_out":
        return _(
            "{who} resigned during the game (a computer played the seat to the end): a seat "
            "that resigns places last, whatever it scores. Places: {places}."
        ).format(who=who(result.resigned), places=places)
    winners = len(result.winners)
    claimer = [result.claimed_by] if result.claimed_by is not None else []
    said = {
        "resigned": (
            _("{who} resigned: every seat still playing wins, placed by its score.")
            if winners > 1
            else _("{who} resigned.")
        ).format(who=who(result.resigned)),
        "claimed": _("{who} claimed the win while the opponent was away.").format(who=who(claimer)),
        "timed_out": (
            _("Time ran out for {who} move after move: nobody wins, the places rank the totals.")
            if not winners
            else _("Time ran out for {who} move after move.")
        ).format(who=who(result.timed_out)),
        "abandoned": _("Nobody was left at the table: the game was abandoned, nobody wins."),
    }.get(result.ending, "")
    return _("{ending} Places: {places}. The cards are scored as they lay.").format(
        ending=said, places=places
    )


_ONES = N_("value-1 cards")  # the bonus row's label: the first column is at least this wide


def _cell(values: Sequence[str], doubled: bool, bonus: int, total: int, fit: int) -> str:
    """An ingredient's cell, as roomy as ``fit`` characters allow: ``2 3 x2 = +10``, then
    ``2,3 x2=+10``, then ``2,3x2=+10``; the card values run together (``23x2=+10``) only
    where nothing else fits (four cards, doubled, with the +5, in the narrowest cell)."""
    mark, plus = " x2" if doubled else "", " +5" if bonus else ""
    roomy = f"{' '.join(values)}{mark}{plus} = {total:+d}"
    compact = f"{','.join(values)}{mark}{plus}={total:+d}"
    for text in (roomy, compact, compact.replace(" ", "")):
        if len(text) <= fit:
            return text
    return f"{''.join(values)}{mark}{plus}={total:+d}".replace(" ", "")


def render_scores(
    view: m.GameView,
    cards: Cards,
    catalogue: m.Catalogue,
    names: Sequence[str | None],
    width: int = 80,
) -> list[Line]:
    """The final score table, ``width`` wide and never cut: per ingredient each
    player's cards and points (every kettle revealed), the value-1 bonus (and who gets
    it, or that a tie gives it to nobody), each player's recipes in full, the totals."""
    scores = view.scores or ()
    n = max(1, len(scores))
    held = {i.ingredient for s in scores for i in s.ingredients}
    label = max(max((len(long_name(i)) for i in held), default=10) + 3, len(_(_ONES)))
    col = max(14, min(26, (width - label - 1) // n))  # a cell, with a blank after it
    lines: list[Line] = []
    result = view.result
    winners = result.winners if result is not None else view.winners
    title: Line = [("bold", _("Final score"))]
    if winners:
        won = fmt_list(seat_label(view.colours, w, names) for w in winners)
        said = ngettext("winner: {who}", "winners: {who}", len(winners)).format(who=won)
        title.append(("bold", f"   {said}"))
    elif result is not None:
        title.append(("bold", "   " + _("no winner")))
    lines += wrap(title, width)
    if result is not None and (result.ending != "played_out" or result.resigned):
        lines += wrap([("bold", ending_words(result, view.colours, names))], width)
    head: Line = [("bold", _("ingredient").ljust(label + 1))]
    named = all(len(seat_label(view.colours, x.seat, names)) < col for x in scores)
    for s in scores:
        who = seat_label(view.colours, s.seat, names) if named else colour_word(s.colour)
        head.append((PAWN_STYLE.get(s.colour, "") + " bold", who.ljust(col)))
    lines.append(head)
    order = [c.ingredient for c in catalogue.cards[::4]]
    for ingredient in [i for i in order if i in held]:
        colour = next((c.colour for c in catalogue.cards if c.ingredient == ingredient), "gray")
        name = f"{long_name(ingredient):<{label - 3}} {COLOUR_TAG.get(colour, '')}"
        line: Line = [(COLOUR_STYLE.get(colour, ""), name.ljust(label)), ("", " ")]
        for s in scores:
            ing = next((i for i in s.ingredients if i.ingredient == ingredient), None)
            if ing is None:
                line.append(("fg:#606060", "-".ljust(col)))
                continue
            values = [c.rsplit("-", 1)[1] for c in ing.cards]
            text = _cell(values, ing.doubled, ing.bonus, ing.total, col - 1)
            style = "fg:#40c060" if ing.total > 0 else "fg:#ff5f5f" if ing.total < 0 else ""
            line.append((style, text.ljust(col)))
        lines.append(line)
    ones: Line = [("", _(_ONES).ljust(label + 1))]
    for s in scores:
        bonus = f" +{s.value_one_bonus}" if s.value_one_bonus else ""
        ones.append(("", f"{s.value_ones}{bonus}".ljust(col)))
    lines.append(ones)
    most = max((s.value_ones for s in scores), default=0)
    if most and not any(s.value_one_bonus for s in scores):
        lines += wrap(
            [
                (
                    "fg:#a0a0a0",
                    "  " + _("value-1 cards: a tie at {n}, nobody gets the +5").format(n=most),
                )
            ],
            width,
        )
    for s in scores:
        if s.recipes:
            who = seat_label(view.colours, s.seat, names)
            parts = [
                f"{recipe_text(r.id, catalogue).rsplit(' (', 1)[0]} "
                + (f"+{r.bonus}" if r.met else _("not met"))
                for r in s.recipes
            ]
            lead = _("recipes of {who}:").format(who=who) + " "
            lines += wrap([("", lead), ("fg:#a0a0a0", "; ".join(parts))], width)
    total: Line = [("bold", _("TOTAL").ljust(label + 1))]
    for s in scores:
        total.append(("bold", f"{s.total}".ljust(col)))
    lines.append(total)
    if not named:  # the names did not fit the columns: below, whole
        for s in scores:
            who = seat_label(view.colours, s.seat, names)
            lines += wrap([("", f"  {colour_word(s.colour)}: {who}")], width)
    lines += wrap(
        [("fg:#808080", _("x2: own colour, doubled (penalty too, not the +5); +5: all four"))],
        width,
    )
    return lines
