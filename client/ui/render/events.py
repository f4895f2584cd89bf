"""Public game events in words, for the log.

One sentence per event, naming seats by colour and name, so every screen's log reads
alike.
"""

from __future__ import annotations

from collections.abc import Sequence

from protocol import messages as m

from .cards import SYMBOL_WORD, Cards, seat_label

__all__ = ["describe_event"]


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
            jump = " jumping a pawn" if skipped else ""
            return f"{who(seat)} moves {steps} space{'s' if steps != 1 else ''}{jump}"
        case m.PassedCornerEvent(seat=seat):
            return f"{who(seat)} stops at a corner: nothing to take"
        case m.TookEvent(seat=seat, card=card, line=line, special=used, ends_game=ends):
            info = cards.by_id.get(card)
            extra = ""
            if ends:
                extra = ", the last of that line: the game ends"
            elif info is not None and info.symbol and not used:
                word = SYMBOL_WORD[info.symbol]
                extra = (
                    f" (declines the {word})"
                    if could_act
                    else " (the wand gives no third turn in a row)"
                    if info.symbol == "wand"
                    else " (the boom has no kettle to hit)"
                )
            where = line.replace("col", "column ").replace("row", "row ")
            return f"{who(seat)} takes {cards.name(card)} from {where}{extra}"
        case m.ExplodedEvent(seat=seat, target=target, card=card, to=to):
            where = "under the deck" if to == "deck" else "out of the game"
            return f"Boom! {who(target)} loses {cards.name(card)} {where}"
        case m.ExtraTurnEvent(seat=seat):
            return f"Wand: {who(seat)} plays again"
        case m.RefilledEvent(card=card):
            return f"  {cards.name(card)} fills the gap"
        case m.DiscardedEvent(seat=seat, card=card):
            return f"{who(seat)} discards {cards.name(card)}"
        case m.TimedOutEvent(seat=seat):
            return f"Time ran out for {who(seat)}: a computer moves for them"
        case m.GameOverEvent(winners=winners):
            return (
                "Game over: "
                + " and ".join(who(w) for w in winners)
                + (" win" if len(winners) > 1 else " wins")
            )
    return None
