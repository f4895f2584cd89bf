"""Hints at the table screen (1.5): at a table whose options allow them, the seat to
move asks the expert (``H``) for its take; the answer moves the cursor onto the
suggested card, which marks it as a chosen card is marked, and a sentence under the
prompt names it and what the expert expects of it.

It holds what one table's hint needs (the state it was asked for, the answer) and is
handed the client and the table model, so the table screen only asks and shows.
"""

from __future__ import annotations

from client.i18n import _, fmt_number
from protocol import messages as m

from ..lib import Client
from .render import Cards
from .table import TableModel

__all__ = ["HINT_KEY", "Hints", "hints_on"]

HINT_KEY = "H"
"""The key that asks for a hint (``h`` moves the cursor, as in vi)."""


def hints_on(view: m.GameView | None) -> bool:
    """The table's options allow hints (every seat and spectator is told so)."""
    return view is not None and view.options.hints


class Hints:
    """The hint asked for at one table: ``asked`` the state version it waits on (None:
    not waiting), ``hint`` the latest answer."""

    def __init__(self) -> None:
        self.asked: int | None = None
        self.hint: m.HintMsg | None = None

    def offered(self, table: TableModel, client: Client | None) -> bool:
        """Whether ``H`` asks for a hint now: our turn to choose a card at a table with
        hints, on a server that gives them, no hint on its way."""
        return (
            hints_on(table.view)
            and table.my_turn
            and table.decision is None
            and not table.busy
            and client is not None
            and client.speaks_analysis
            and self.asked != table.state_version
        )

    async def ask(self, client: Client, table: TableModel) -> None:
        """Ask for the hint of the decision shown; when it comes for the state still
        shown, the cursor goes to its card. A refusal is raised (the host says it)."""
        version = table.state_version
        self.asked, self.hint = version, None
        try:
            hint = await client.hint()
        finally:
            self.asked = None
        if hint.state_version == table.state_version == version:
            self.hint = hint
            table.point_at(hint.take.take)

    def words(self, table: TableModel, cards: Cards) -> str | None:
        """The hint in a sentence for the prompt (or that it is being asked), for the
        state shown only: a later take makes it old news."""
        if self.asked is not None and self.asked == table.state_version:
            return _("Asking the expert for a hint...")
        hint = self.hint
        if hint is None or hint.state_version != table.state_version or not table.my_turn:
            return None
        return hint_words(hint, cards)


def hint_words(hint: m.HintMsg, cards: Cards) -> str:
    """``Hint: take Toad 2. Expected: 28.3 points at the end, 3.5 ahead.``: the card
    by its words, and what the expert expects of it when the hint says (``budget``:
    the deals it was weighed over; none, nothing expected is said)."""
    card = cards.name(hint.take.take)
    if hint.budget <= 0:
        return _("Hint: take {card}.").format(card=card)
    said = (
        _("Hint: take {card}. Expected: {points} points at the end, {margin} behind.")
        if hint.value < 0
        else _("Hint: take {card}. Expected: {points} points at the end, {margin} ahead.")
    )
    points, margin = fmt_number(hint.points), fmt_number(abs(hint.value))
    return said.format(card=card, points=points, margin=margin)
