"""What a seat knows, and sampling a full position consistent with it (RULES.md section 9).

A seat sees the grid, the pawns, the deck size, each kettle's top card and count, the cards
out of the game and its own recipes. Every take and explosion is public, so a player with
perfect memory also knows every card in every kettle, and that the cards exploded under
the deck lie at its bottom, in order. What nobody knows is the order of the rest of the
deck and the other seats' recipes. ``Memory`` follows the public events to keep exactly
that knowledge, forgets as much as its ``Recall`` says (for bots that play like a casual
person), and ``sample`` deals the unknown cards and recipes at random into a ``Game`` a
bot may search: a *determinization* of the seat's information set.

``Memory`` is fed only views and public events; it re-synchronises from every view, so a
bot that joins mid-game (say, replacing a player who left) knows the kettle tops only.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ..cards import CARD_COUNT, CARD_IDS, CARD_INDEX, RECIPES
from ..events import Discarded, Event, Exploded, Refilled, Took
from ..game import Game, Setup
from ..setup import shuffle
from ..view import View

__all__ = ["PERFECT", "UNKNOWN", "Memory", "Recall"]

UNKNOWN = -1
"""A kettle card the seat never saw or has forgotten."""


@dataclass(frozen=True, slots=True)
class Recall:
    """How much a seat remembers. ``own`` and ``others``: how many cards from the top of
    its own and the other kettles it keeps in mind (None: all of them; the top card is
    public and always known). ``deck``: whether it remembers the cards exploded under
    the deck."""

    own: int | None = None
    others: int | None = None
    deck: bool = True


PERFECT = Recall()


class Memory:
    """One seat's knowledge of the hidden cards, built from views and public events."""

    def __init__(self, seat: int, recall: Recall = PERFECT) -> None:
        self.seat = seat
        self.recall = recall
        self.kettles: list[list[int]] = []  # bottom first, UNKNOWN where not known
        self.under: list[int] = []  # known cards at the bottom of the deck, top first
        self._synced = False
        self._backlog: list[Event] = []
        self._shown: set[int] = set()  # seats whose whole kettle the last view showed

    # ----------------------------------------------------------------- following play
    def observe(self, events: Iterable[Event]) -> None:
        """Follow a batch of public events (in order). Before the first view, events are
        kept and replayed at that view: a bot seated into a restored game is given the
        game's whole public history, and remembers it as a person would."""
        if not self._synced:
            self._backlog.extend(events)
            return
        for e in events:
            if isinstance(e, Took):
                self.kettles[e.seat].append(CARD_INDEX[e.card])
            elif isinstance(e, Exploded):
                k = self.kettles[e.target]
                if k:
                    k.pop()
                if e.to == "deck":
                    self.under.append(CARD_INDEX[e.card])
            elif isinstance(e, Discarded):
                k = self.kettles[e.seat]
                if k and k[-1] == CARD_INDEX[e.card]:
                    k.pop()
            elif isinstance(e, Refilled):
                c = CARD_INDEX[e.card]
                if c in self.under:
                    self.under.remove(c)
        self._forget()

    def sync(self, view: View) -> None:
        """Reconcile with a view: what it shows is certain; where memory disagrees with it
        (missed events), forget the kettle below its top."""
        if not self._synced:
            # Each kettle starts with one card; a replayed history fills in the rest.
            self.kettles = [[UNKNOWN] for _ in view.kettles]
            self._synced = True
            backlog, self._backlog = self._backlog, []
            self.observe(backlog)
        self._shown = {kv.seat for kv in view.kettles if kv.cards is not None}
        for kv in view.kettles:
            k = self.kettles[kv.seat]
            if kv.cards is not None:  # casual memory (own kettle) or the game is over
                k[:] = [CARD_INDEX[c] for c in kv.cards]
                continue
            top = CARD_INDEX[kv.top] if kv.top is not None else UNKNOWN
            if len(k) != kv.count or (k and k[-1] not in (UNKNOWN, top)):
                k[:] = [UNKNOWN] * kv.count
            if k:
                k[-1] = top
        seen = _public_cards(view)
        seen.update(c for k in self.kettles for c in k[-1:])
        if len(self.under) > view.deck_size or any(c in seen for c in self.under):
            self.under = []
        self._forget()

    def _forget(self) -> None:
        r = self.recall
        for s, k in enumerate(self.kettles):
            depth = r.own if s == self.seat else r.others
            if depth is not None and s not in self._shown:
                for i in range(max(0, len(k) - max(depth, 1))):
                    k[i] = UNKNOWN
        if not r.deck:
            self.under = []

    def _forget_all(self) -> None:
        for k in self.kettles:
            k[:-1] = [UNKNOWN] * (len(k) - 1)
        self.under = []

    def copy(self) -> Memory:
        """An independent copy (a bot searches on one while the host may feed it events)."""
        m = Memory(self.seat, self.recall)
        m.kettles = [k[:] for k in self.kettles]
        m.under = self.under[:]
        m._synced = self._synced
        m._backlog = self._backlog[:]
        m._shown = set(self._shown)
        return m

    # ----------------------------------------------------------------- what is known
    def known_kettle(self, seat: int) -> list[int]:
        """The cards of ``seat``'s kettle this memory knows (bottom first)."""
        return [c for c in self.kettles[seat] if c != UNKNOWN]

    def unknown_cards(self, view: View) -> list[int]:
        """Cards whose place this seat does not know: in the deck above the known bottom
        cards, or forgotten in a kettle. Sorted, so sampling depends only on the seed."""
        known = _public_cards(view)
        for k in self.kettles:
            known.update(c for c in k if c != UNKNOWN)
        known.update(self.under)
        return [c for c in range(CARD_COUNT) if c not in known]

    # ----------------------------------------------------------------- sampling
    def sample(self, view: View, rng: random.Random) -> Game:
        """A full position consistent with what this seat knows, drawn at random: the
        unknown cards shuffled into the deck and the forgotten kettle places, the other
        seats' recipes dealt from the pool of section 8 minus its own. The player to move
        has made the forced move (``Game.from_setup(moved=True)``)."""
        pool = self.unknown_cards(view)
        holes = sum(k.count(UNKNOWN) for k in self.kettles)
        if len(pool) != holes + view.deck_size - len(self.under):
            self._forget_all()  # memory out of step with the view: trust only the view
            pool = self.unknown_cards(view)
        rng.shuffle(pool)
        it = iter(pool)
        kettles = tuple(
            tuple(CARD_IDS[next(it) if c == UNKNOWN else c] for c in k) for k in self.kettles
        )
        rest = [CARD_IDS[c] for c in it]
        under = [CARD_IDS[c] for c in self.under]
        options = view.options
        setup = Setup(
            grid=view.grid,
            deck=(*rest, *under),
            kettles=kettles,
            pawns=view.pawns,
            recipes=sample_recipes(view, rng) if options.recipes else (),
            to_move=view.to_move if view.to_move is not None else 0,
        )
        return Game.from_setup(options, setup, moved=True, turn_in_row=view.turn_in_row)

    def sampler(self, view: View) -> Callable[[random.Random], Game]:
        """``sample`` for many draws in one view: a function of the random source that
        gives, for the same source state, the same position as ``sample(view, rng)``
        and uses the source the same way (tests/shared/bots/test_fast_bots.py).

        Why: a search draws a position every iteration, and all but the shuffle of the
        unknown cards and recipes is the same every time. That part is worked out once
        here; the first draw is made by ``sample`` itself (so a position the engine
        refuses is refused the same way), the others copy it and deal the cards anew."""
        pool = self.unknown_cards(view)
        holes = sum(k.count(UNKNOWN) for k in self.kettles)
        if len(pool) != holes + view.deck_size - len(self.under):
            self._forget_all()  # as sample does; sample then finds memory in step
            pool = self.unknown_cards(view)
            holes = sum(k.count(UNKNOWN) for k in self.kettles)
        kettles = [k[:] for k in self.kettles]
        full = holes == 0
        under = self.under[::-1]  # the known bottom of the deck, as Game holds it
        recipes = _recipe_sampler(view) if view.options.recipes else None
        first: list[Game] = []

        def draw(rng: random.Random) -> Game:
            if not first:
                first.append(self.sample(view, rng))
                return first[0].copy()
            cards = pool[:]
            shuffle(rng, cards)
            if full:
                filled = [k[:] for k in kettles]
            else:
                it = iter(cards)
                filled = [[next(it) if c == UNKNOWN else c for c in k] for k in kettles]
            rest = cards[holes:]
            rest.reverse()
            game = first[0].copy()
            game.kettles = filled
            game.deck = under + rest
            if recipes is not None:
                game.recipes = recipes(rng)
            return game

        return draw


def _recipe_sampler(view: View) -> Callable[[random.Random], list[tuple[str, ...]]]:
    """``sample_recipes`` for many draws in one view (as a ``Game`` holds the hands)."""
    shown = {r for hand in view.recipes if hand is not None for r in hand}
    deck = [r.id for r in RECIPES.values() if view.players == 2 or r.three_players]
    pool = sorted(r for r in deck if r not in shown)
    seats = list(zip(view.recipes, view.recipe_counts, strict=True))

    def draw(rng: random.Random) -> list[tuple[str, ...]]:
        left = pool[:]
        shuffle(rng, left)
        hands = []
        for hand, n in seats:
            if hand is None:
                hand, left = tuple(left[:n]), left[n:]
            hands.append(tuple(hand))
        return hands

    return draw


def sample_recipes(view: View, rng: random.Random) -> tuple[tuple[str, ...], ...]:
    """Every seat's recipes: those the view shows, the hidden ones dealt at random from
    the recipe cards of section 8 (all 13 with two players, the +10 three-player set with
    three) that are not shown."""
    shown = {r for hand in view.recipes if hand is not None for r in hand}
    deck = [r.id for r in RECIPES.values() if view.players == 2 or r.three_players]
    pool = sorted(r for r in deck if r not in shown)
    rng.shuffle(pool)
    hands = []
    for hand, n in zip(view.recipes, view.recipe_counts, strict=True):
        if hand is None:
            hand, pool = tuple(pool[:n]), pool[n:]
        hands.append(hand)
    return tuple(hands)


def _public_cards(view: View) -> set[int]:
    """Cards any seat can see where they are: on the grid or out of the game."""
    cards = {CARD_INDEX[c] for row in view.grid for c in row if c is not None}
    cards.update(CARD_INDEX[c] for c in view.removed)
    return cards
