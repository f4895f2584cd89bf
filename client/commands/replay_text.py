"""A replayed position (``shared.record.position``) as text for a person, for
``kupferkessel replay FILE``: the grid, pawns, kettles, deck, the cards out of the game
and, once over, every score with its breakdown and the result, in the language spoken
(``client.i18n``), cards and colours in the card data's words. ``--json`` keeps the ids
and indices (a program reads it)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TextIO

from client.i18n import N_, _, fmt_list, ingredient, ngettext
from shared.geometry import LINE_IDS, SPACE_LINE

from ..ui.render.events import line_words
from ..ui.render.side import recipe_text
from .words import card_catalogue, card_words, cards_words, seat_words

__all__ = ["ENDING_TEXT", "result_text", "write_text"]

ENDING_TEXT = {
    "played_out": N_("played out"),
    "resigned": N_("by resignation"),
    "claimed": N_("claimed by the opponent of an absent player"),
    "timed_out": N_("every person timed out"),
    "abandoned": N_("abandoned: nobody was connected"),
}
"""How each ending of ``shared.result.ENDINGS`` reads in text."""


def write_text(pos: dict[str, Any], out: TextIO) -> None:
    """The position as readable text: grid, pawns, kettles, deck, removed, scores."""
    w = out.write

    def name(seat: int) -> str:
        return seat_words(pos["colours"], seat)

    after = ngettext("After {n} take", "After {n} takes", pos["ply"]).format(n=pos["ply"])
    result = pos.get("result")
    if pos["game_over"]:
        said = _("{after}: game over, ended by {who}").format(
            who=name(pos["ended_by"]), after=after
        )
    elif result is not None:
        how = _(ENDING_TEXT[result["ending"]])
        said = _("{after}: game ended early ({how})").format(after=after, how=how)
    elif pos["turn_in_row"] == 2:
        said = _("{after}: {who} to move (extra turn)").format(
            after=after, who=name(pos["to_move"])
        )
    else:
        said = _("{after}: {who} to move").format(after=after, who=name(pos["to_move"]))
    w(said + "\n\n")
    corners = {(0, 0), (0, 5), (5, 0), (5, 5)}
    rows = [
        [
            (_("(corner)") if (r, c) in corners else ".") if card is None else card_words(card)
            for c, card in enumerate(row)
        ]
        for r, row in enumerate(pos["grid"])
    ]
    cell = max(len(text) for row in rows for text in row)
    for cells in rows:
        w("  " + " ".join(text.ljust(cell) for text in cells).rstrip() + "\n")
    w("\n" + _("Pawns:") + "\n")
    for seat, space in enumerate(pos["pawns"]):
        line = SPACE_LINE[space]
        where = _("corner") if line < 0 else line_words(LINE_IDS[line])
        said = _("{who}: space {space} ({where})").format(who=name(seat), space=space, where=where)
        w(f"  {said}\n")
    w(_("Kettles (bottom first):") + "\n")
    for seat, kettle in enumerate(pos["kettles"]):
        w(f"  {name(seat)}: {cards_words(kettle)}\n")
    if any(pos["recipes"]):
        w(_("Recipes:") + "\n")
        for seat, hand in enumerate(pos["recipes"]):
            recipes = "; ".join(recipe_text(r, card_catalogue()) for r in hand) or "-"
            w(f"  {name(seat)}: {recipes}\n")
    deck, removed = pos["deck"], pos["removed"]
    w(_("Deck ({n}, top first): {cards}").format(n=len(deck), cards=cards_words(deck)) + "\n")
    w(_("Removed ({n}): {cards}").format(n=len(removed), cards=cards_words(removed)) + "\n")
    if pos["game_over"] or result is not None:
        for score in pos["scores"]:
            _write_score(score, name, out)
        if result is not None:
            w(f"\n{result_text(result, name)}\n")
        winners = fmt_list(name(s) for s in pos["winners"]) or _("nobody")
        said = _("Winners: {who}") if len(pos["winners"]) > 1 else _("Winner: {who}")
        w("\n" + said.format(who=winners) + "\n")


def result_text(result: dict[str, Any], name: Callable[[int], str]) -> str:
    """A result (``GameResult.to_dict``) in a few plain lines."""
    lines = [_("Result: {how}").format(how=_(ENDING_TEXT[result["ending"]]))]
    for label, key in ((N_("resigned: {who}"), "resigned"), (N_("timed out: {who}"), "timed_out")):
        if result[key]:
            lines.append("  " + _(label).format(who=fmt_list(name(s) for s in result[key])))
    if result["replaced"]:
        seats = fmt_list(name(s) for s in result["replaced"])
        lines.append("  " + _("played by the computer for a while: {who}").format(who=seats))
    if result["claimed_by"] is not None:
        lines.append("  " + _("claimed by: {who}").format(who=name(result["claimed_by"])))
    order = sorted(range(len(result["places"])), key=lambda s: result["places"][s])
    places = ", ".join(
        _("{place}. {who} ({total})").format(
            place=result["places"][s], who=name(s), total=result["totals"][s]
        )
        for s in order
    )
    lines.append("  " + _("places: {places}").format(places=places))
    return "\n".join(lines)


def _write_score(score: dict[str, Any], name: Callable[[int], str], out: TextIO) -> None:
    w = out.write
    w("\n" + _("Score of {who}: {total}").format(who=name(score["seat"]), total=score["total"]))
    w("\n")
    width = max((len(ingredient(i["ingredient"])) for i in score["ingredients"]), default=0)
    for ing in score["ingredients"]:
        values = " ".join(card.rsplit("-", 1)[1] for card in ing["cards"])
        doubled = "x2" if ing["doubled"] else "  "
        bonus = f"+{ing['bonus']}" if ing["bonus"] else ""
        w(
            f"  {ingredient(ing['ingredient']):<{max(14, width)}} {values:<8} {doubled}"
            f" {ing['points']:>+4} {bonus:>3} = {ing['total']:>+4}\n"
        )
    ones = _("value-1 cards: {n}, bonus {bonus}").format(
        n=score["value_ones"], bonus=f"{score['value_one_bonus']:+d}"
    )
    w(f"  {ones}\n")
    for rec in score["recipes"]:
        said = (
            _("recipe {recipe}: met, {bonus}")
            if rec["met"]
            else _("recipe {recipe}: missed, {bonus}")
        )
        recipe = recipe_text(rec["id"], card_catalogue())
        w("  " + said.format(recipe=recipe, bonus=f"{rec['bonus']:+d}") + "\n")
    w("  " + _("total: {total}").format(total=score["total"]) + "\n")
