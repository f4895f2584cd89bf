"""Public game events in words, for the log.

One sentence per event, naming seats by colour and name, so every screen's log reads
alike.
"""

from __future__ import annotations

from collections.abc import Sequence

from client.i18n import _, fmt_list, ngettext, pgettext
from protocol import messages as m

from .cards import SYMBOL_WORD, Cards, seat_label

__all__ = ["describe_event", "line_words"]


def describe_event(
    e: m.GameEvent,
    colours: Sequence[str],
    names: Sequence[str | None],
    cards: Cards,
    *,
    could_act: bool = True,
) -> str | None:
    """A public event in words, or None for one not worth a line. ``could_act``: for
    a take, whether the card's symbol could have acted (a wand gives no third turn in a
    row, an explosion needs a kettle it can hit); only then is not using it declining."""

    def who(seat: int) -> str:
        return seat_label(colours, seat, names)

    match e:
        case m.MovedEvent(seat=seat, from_space=a, to_space=b, skipped=skipped):
            steps = (b - a) % 20 - len(skipped)
            if skipped:
                return ngettext(
                    "{who} moves {n} space jumping a pawn",
                    "{who} moves {n} spaces jumping a pawn",
                    steps,
                ).format(who=who(seat), n=steps)
            return ngettext("{who} moves {n} space", "{who} moves {n} spaces", steps).format(
                who=who(seat), n=steps
            )
        case m.PassedCornerEvent(seat=seat):
            return _("{who} stops at a corner: nothing to take").format(who=who(seat))
        case m.TookEvent(seat=seat, card=card, line=line, special=used, ends_game=ends):
            info = cards.by_id.get(card)
            said = {"who": who(seat), "card": cards.name(card), "line": line_words(line)}
            if ends:
                text = _("{who} takes {card} from {line}, the last of that line: the game ends")
                return text.format(**said)
            if info is not None and info.symbol and not used:
                if could_act:
                    text = _("{who} takes {card} from {line} (declines the {symbol})")
                    return text.format(**said, symbol=SYMBOL_WORD[info.symbol])
                if info.symbol == "wand":
                    text = _(
                        "{who} takes {card} from {line} (the wand gives no third turn in a row)"
                    )
                    return text.format(**said)
                return _("{who} takes {card} from {line} (the boom has no kettle to hit)").format(
                    **said
                )
            return _("{who} takes {card} from {line}").format(**said)
        case m.ExplodedEvent(seat=seat, target=target, card=card, to=to):
            text = (
                _("Boom! {who} loses {card} under the deck")
                if to == "deck"
                else _("Boom! {who} loses {card} out of the game")
            )
            return text.format(who=who(target), card=cards.name(card))
        case m.ExtraTurnEvent(seat=seat):
            return _("Wand: {who} plays again").format(who=who(seat))
        case m.RefilledEvent(card=card):
            return "  " + _("{card} fills the gap").format(card=cards.name(card))
        case m.DiscardedEvent(seat=seat, card=card):
            return _("{who} discards {card}").format(who=who(seat), card=cards.name(card))
        case m.TimedOutEvent(seat=seat):
            return _("Time ran out for {who}: a computer moves for them").format(who=who(seat))
        case m.GameOverEvent(winners=winners):
            return ngettext("Game over: {who} wins", "Game over: {who} win", len(winners)).format(
                who=fmt_list(who(w) for w in winners)
            )
    return None


def line_words(line: str, *, short: bool = False) -> str:
    """``column 2``, ``row 3``: a line as the prompt and the log name it; ``short``:
    the grid's labels (``col 2``)."""
    number = line[3:]
    if line.startswith("col"):
        return (_("col {number}") if short else _("column {number}")).format(number=number)
    return pgettext("a row of the grid", "row {number}").format(number=number)
