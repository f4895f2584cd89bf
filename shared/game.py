"""The rules engine: set-up, the turn, the end of the game (RULES.md sections 3, 4, 5, 7, 8).

Theory of operation. A ``Game`` is always at rest *waiting for a take*: the pawn of the
player to move has already made its forced move, and turns that ended next to a corner
have already been passed (section 4.6: movement and corner landings are not actions). The
only decision in the game is therefore a ``Take``: which card of the pawn's line, whether
to use its symbol (and, with three players, whom to explode), and, for the card that ends
the game, whether to keep it. ``apply`` validates a take completely before it changes
anything, so an illegal take leaves the state untouched.

The state is a handful of flat lists of small ints (cards 0..55, slots 0..35, spaces
0..19), so ``copy`` and ``apply`` are cheap enough for bots to simulate many thousands of
games per move. Events are only built when a list is passed to collect them.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, NamedTuple

from .cards import (
    CARD_COUNT,
    CARD_IDS,
    CARD_INDEX,
    COLOUR_OF,
    IS_EXPLODE,
    IS_PLAYER_COLOUR,
    IS_WAND,
    RECIPES,
    VALUE,
)
from .errors import IllegalMove, SetupError
from .events import (
    Discarded,
    Event,
    Exploded,
    ExtraTurn,
    GameOver,
    Moved,
    PassedCorner,
    Refilled,
    Took,
    TurnPassed,
)
from .geometry import (
    CORNER_SLOTS,
    INGREDIENT_SLOTS,
    LINE_IDS,
    LINE_SLOTS,
    SLOT_LINES,
    SPACE_LINE,
    SPACES,
    walk,
)
from .options import Options
from .scoring import score_game

__all__ = ["EMPTY", "Game", "Setup", "Take"]

EMPTY = -1
"""An empty grid slot (and the corner slots, which never hold an ingredient)."""

START_PAWNS = (0, 10, 5)


class Take(NamedTuple):
    """The one decision of a turn (section 4.3-4.4, section 5).

    ``special``: use the card's symbol (default true, as in records). ``targets``: the
    seats an explosion hits; None means every other player. ``keep``: for the card that
    ends the game, keep it (true) or discard it.
    """

    card: str
    special: bool = True
    targets: tuple[int, ...] | None = None
    keep: bool = True


@dataclass(frozen=True, slots=True)
class Setup:
    """An explicit position to start from (section 11.2): card ids; deck top first,
    kettles bottom first; ``None`` marks an empty slot (and the corners)."""

    grid: tuple[tuple[str | None, ...], ...]
    deck: tuple[str, ...]
    kettles: tuple[tuple[str, ...], ...]
    pawns: tuple[int, ...]
    recipes: tuple[tuple[str, ...], ...] = ()
    to_move: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "grid": [list(r) for r in self.grid],
            "deck": list(self.deck),
            "kettles": [list(k) for k in self.kettles],
            "pawns": list(self.pawns),
            "recipes": [list(r) for r in self.recipes],
            "to_move": self.to_move,
        }


class Game:
    """The complete, secret state of one game. Only ``shared.view`` may project it for
    a player; nothing else in the project reads hidden state to show it to anyone."""

    __slots__ = (
        "deck",
        "ended_by",
        "grid",
        "kettles",
        "options",
        "out",
        "over",
        "pawns",
        "ply",
        "recipes",
        "to_move",
        "turn_in_row",
    )

    options: Options
    grid: list[int]  # 36 slots, EMPTY for gaps and corners
    deck: list[int]  # top of the deck is the END of the list
    kettles: list[list[int]]  # bottom first
    pawns: list[int]
    out: list[int]  # out of the game: discarded, exploded into an empty deck, never dealt
    recipes: list[tuple[str, ...]]
    to_move: int
    turn_in_row: int  # 1, or 2 during a wand's extra turn
    over: bool
    ended_by: int  # seat that took the last card, -1 while running
    ply: int  # number of takes applied

    # ----------------------------------------------------------------- creation
    @classmethod
    def deal(cls, options: Options, events: list[Event] | None = None) -> Game:
        """Set up from ``options.seed`` (sections 3, 7, 8): same seed and options, same
        deal. The first player's forced move is made (``events`` collects it)."""
        g = cls._dealt(options)
        g._advance(events)
        return g

    @classmethod
    def deal_setup(cls, options: Options) -> Setup:
        """The explicit set-up that ``options.seed`` deals, as a game record stores it."""
        return cls._dealt(options).position()

    @classmethod
    def _dealt(cls, options: Options) -> Game:
        if options.seed is None:
            raise SetupError("a deal needs a seed; the caller picks one", "bad_option")
        rng = random.Random(options.seed)
        cards = list(range(CARD_COUNT))
        rng.shuffle(cards)
        g = cls.__new__(cls)
        g.options = options
        g.grid = [EMPTY] * 36
        it = iter(cards)
        for slot in INGREDIENT_SLOTS:  # row by row
            g.grid[slot] = next(it)
        rest = list(it)  # rest[0] is the top of the deck
        rest.reverse()
        g.deck = rest
        colours = options.colours
        g.kettles = []
        for seat in range(options.players):
            while True:
                card = g.deck.pop()
                if _refused_start_card(card, colours[seat], options.start_card):
                    g.deck.insert(0, card)
                    continue
                g.kettles.append([card])
                break
        g.pawns = list(START_PAWNS[: options.players])
        g.out = []
        g.recipes = [() for _ in range(options.players)]
        if options.recipes:
            pool = sorted(r.id for r in RECIPES.values() if options.players == 2 or r.three_players)
            rng.shuffle(pool)
            per = 2 if options.players == 2 else 1
            g.recipes = [tuple(pool[i * per : (i + 1) * per]) for i in range(options.players)]
        g.to_move = 0
        g.turn_in_row = 1
        g.over = False
        g.ended_by = -1
        g.ply = 0
        return g

    @classmethod
    def from_setup(
        cls,
        options: Options,
        setup: Setup,
        events: list[Event] | None = None,
        *,
        moved: bool = False,
        turn_in_row: int = 1,
    ) -> Game:
        """Start from an explicit position; set-up steps are skipped (section 11.2).
        Raises ``SetupError`` naming the problem for a position play can never reach.

        ``moved=True`` continues a game mid-turn (as bots do with a sampled position):
        the pawn of the player to move has already made its forced move and stands next
        to a line, and ``turn_in_row`` says whether this is a wand's extra turn."""
        n = options.players
        seen: set[int] = set()

        def card(cid: Any, where: str) -> int:
            if not isinstance(cid, str) or cid not in CARD_INDEX:
                raise SetupError(f"{where}: unknown card {cid!r}", "unknown_card")
            c = CARD_INDEX[cid]
            if c in seen:
                raise SetupError(f"{where}: card {cid} appears twice", "duplicate_card")
            seen.add(c)
            return c

        if len(setup.grid) != 6 or any(len(r) != 6 for r in setup.grid):
            raise SetupError("grid: must be 6 rows of 6 slots", "bad_grid")
        grid = [EMPTY] * 36
        for r, row in enumerate(setup.grid):
            for c, cid in enumerate(row):
                slot = r * 6 + c
                if cid is None:
                    continue
                if slot in CORNER_SLOTS:
                    raise SetupError(f"grid[{r}][{c}]: a corner holds a card", "bad_grid")
                grid[slot] = card(cid, f"grid[{r}][{c}]")
        deck = [card(cid, f"deck[{i}]") for i, cid in enumerate(setup.deck)]
        deck.reverse()
        if len(setup.kettles) != n:
            raise SetupError(f"kettles: need {n}, got {len(setup.kettles)}", "bad_kettles")
        kettles = []
        for s, k in enumerate(setup.kettles):
            if not k:
                raise SetupError(f"kettles[{s}]: a kettle holds at least one card", "bad_kettles")
            kettles.append([card(cid, f"kettles[{s}][{i}]") for i, cid in enumerate(k)])
        if len(setup.pawns) != n:
            raise SetupError(f"pawns: need {n}, got {len(setup.pawns)}", "bad_pawns")
        for i, p in enumerate(setup.pawns):
            if isinstance(p, bool) or not isinstance(p, int) or not 0 <= p < SPACES:
                raise SetupError(f"pawns[{i}]: space must be 0..19", "bad_pawns")
        if len(set(setup.pawns)) != n:
            raise SetupError("pawns: two pawns share a space", "bad_pawns")
        for li, slots in enumerate(LINE_SLOTS):
            if all(grid[s] == EMPTY for s in slots):
                raise SetupError(f"grid: line {LINE_IDS[li]} is already empty", "bad_grid")
        if deck and any(grid[s] == EMPTY for s in INGREDIENT_SLOTS):
            raise SetupError("grid: a gap while the deck still holds cards", "bad_grid")
        recipes: list[tuple[str, ...]] = [() for _ in range(n)]
        if options.recipes:
            if len(setup.recipes) != n:
                raise SetupError(f"recipes: need {n} hands", "bad_recipes")
            dealt: set[str] = set()
            for s, hand in enumerate(setup.recipes):
                for rid in hand:
                    if not isinstance(rid, str) or rid not in RECIPES:
                        raise SetupError(f"recipes[{s}]: unknown recipe {rid!r}", "bad_recipes")
                    if rid in dealt:
                        raise SetupError(f"recipes[{s}]: {rid} dealt twice", "bad_recipes")
                    dealt.add(rid)
                recipes[s] = tuple(hand)
        elif any(setup.recipes):
            raise SetupError("recipes: dealt but the recipes option is off", "bad_recipes")
        to_move = setup.to_move
        if isinstance(to_move, bool) or not isinstance(to_move, int) or to_move not in range(n):
            raise SetupError(f"to_move: must be a seat 0..{n - 1}", "bad_setup")
        g = cls.__new__(cls)
        g.options = options
        g.grid = grid
        g.deck = deck
        g.kettles = kettles
        g.pawns = list(setup.pawns)
        g.out = [c for c in range(CARD_COUNT) if c not in seen]
        g.recipes = recipes
        g.to_move = setup.to_move
        g.turn_in_row = 1
        g.over = False
        g.ended_by = -1
        g.ply = 0
        if moved:
            if SPACE_LINE[g.pawns[g.to_move]] < 0:
                raise SetupError("pawns: the player to move stands at a corner", "bad_pawns")
            if turn_in_row not in (1, 2):
                raise SetupError("turn_in_row must be 1 or 2", "bad_setup")
            g.turn_in_row = turn_in_row
        else:
            g._advance(events)
        return g

    def position(self) -> Setup:
        """This position as a ``Setup``. Starting from it makes the forced move of the
        player to move, so it continues this game only before that move was made."""
        return Setup(
            grid=tuple(
                tuple(
                    None if self.grid[r * 6 + c] == EMPTY else CARD_IDS[self.grid[r * 6 + c]]
                    for c in range(6)
                )
                for r in range(6)
            ),
            deck=tuple(CARD_IDS[c] for c in reversed(self.deck)),
            kettles=tuple(tuple(CARD_IDS[c] for c in k) for k in self.kettles),
            pawns=tuple(self.pawns),
            recipes=tuple(self.recipes) if self.options.recipes else (),
            to_move=self.to_move,
        )

    def copy(self) -> Game:
        g = Game.__new__(Game)
        g.options = self.options
        g.grid = self.grid[:]
        g.deck = self.deck[:]
        g.kettles = [k[:] for k in self.kettles]
        g.pawns = self.pawns[:]
        g.out = self.out[:]
        g.recipes = self.recipes[:]
        g.to_move = self.to_move
        g.turn_in_row = self.turn_in_row
        g.over = self.over
        g.ended_by = self.ended_by
        g.ply = self.ply
        return g

    def key(self) -> tuple[Any, ...]:
        """Everything that makes up the state, for equality and hashing. The seed is
        left out: it only chose the deal, so a game replayed from a record that lists
        the deal explicitly equals the game dealt from the seed."""
        return (
            self.options.replace(seed=None) if self.options.seed is not None else self.options,
            tuple(self.grid),
            tuple(self.deck),
            tuple(tuple(k) for k in self.kettles),
            tuple(self.pawns),
            tuple(sorted(self.out)),
            tuple(self.recipes),
            self.to_move,
            self.turn_in_row,
            self.over,
            self.ended_by,
            self.ply,
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def __repr__(self) -> str:
        state = "over" if self.over else f"seat {self.to_move} to move"
        return f"<Game ply={self.ply} {state} deck={len(self.deck)}>"

    # ----------------------------------------------------------------- queries
    @property
    def players(self) -> int:
        return self.options.players

    def line(self) -> int:
        """Index of the line the player to move takes from (-1 once the game is over)."""
        if self.over:
            return -1
        return SPACE_LINE[self.pawns[self.to_move]]

    def line_slots(self) -> list[int]:
        """The non-empty slots of the current line, top to bottom or left to right."""
        li = self.line()
        if li < 0:
            return []
        grid = self.grid
        return [s for s in LINE_SLOTS[li] if grid[s] != EMPTY]

    def ends_game(self, slot: int) -> bool:
        """Would taking the card in ``slot`` leave a selectable line empty (section 5)?"""
        if self.deck:
            return False
        grid = self.grid
        for li in SLOT_LINES[slot]:
            for s in LINE_SLOTS[li]:
                if s != slot and grid[s] != EMPTY:
                    break
            else:
                return True
        return False

    def explodable(self) -> list[int]:
        """Other seats whose kettle an explosion would hit (more than one card)."""
        me = self.to_move
        return [s for s, k in enumerate(self.kettles) if s != me and len(k) > 1]

    def legal_actions(self) -> list[Take]:
        """Every distinct decision open to the player to move (empty once over).

        Decisions with the same effect are listed once: a symbol that would do nothing
        (a wand on the second turn in a row, an explosion with every kettle immune) is
        listed only as ``special=False``; the game-ending card only as keep or discard.
        """
        if self.over:
            return []
        out: list[Take] = []
        grid = self.grid
        may_end = not self.deck  # only an empty deck leaves gaps (section 5)
        wand_acts = self.turn_in_row == 1
        hit: list[int] | None = None
        for slot in LINE_SLOTS[SPACE_LINE[self.pawns[self.to_move]]]:
            c = grid[slot]
            if c == EMPTY:
                continue
            cid = CARD_IDS[c]
            if may_end and self.ends_game(slot):
                out.append(Take(cid, False, None, True))
                out.append(Take(cid, False, None, False))
            elif IS_EXPLODE[c]:
                out.append(Take(cid, False))
                if hit is None:
                    hit = self.explodable()
                if len(hit) == 1:
                    out.append(Take(cid, True, (hit[0],)))
                elif len(hit) == 2:
                    out.append(Take(cid, True, (hit[0],)))
                    out.append(Take(cid, True, (hit[1],)))
                    out.append(Take(cid, True, (hit[0], hit[1])))
            elif wand_acts and IS_WAND[c]:
                out.append(Take(cid, False))
                out.append(Take(cid, True))
            else:
                out.append(Take(cid, False))
        return out

    # ----------------------------------------------------------------- the turn
    def apply(self, take: Take, seat: int | None = None, events: list[Event] | None = None) -> None:
        """Apply the take of the player to move (section 4.3-4.5, section 5), then the
        next player's forced movement. ``seat``, if given, must be the player to move.
        Raises ``IllegalMove`` (state untouched) for anything not legal now."""
        if self.over:
            raise IllegalMove("the game is over", "game_over")
        me = self.to_move
        if seat is not None and seat != me:
            raise IllegalMove(f"it is seat {me}'s turn, not seat {seat}'s", "not_your_turn")
        c = CARD_INDEX.get(take.card, -1) if isinstance(take.card, str) else -1
        if c < 0:
            raise IllegalMove(f"no such card: {take.card!r}", "unknown_card")
        grid = self.grid
        li = SPACE_LINE[self.pawns[me]]
        slot = -1
        for s in LINE_SLOTS[li]:
            if grid[s] == c:
                slot = s
                break
        if slot < 0:
            raise IllegalMove(f"{take.card} is not in {LINE_IDS[li]}", "not_in_line")
        special = take.special
        targets = take.targets
        if not isinstance(special, bool) or not isinstance(take.keep, bool):
            raise IllegalMove("special and keep must be true or false", "bad_action")
        ending = self.ends_game(slot)
        if targets is not None and not ending:
            if not IS_EXPLODE[c]:
                raise IllegalMove(f"{take.card} has no exploding kettle to aim", "bad_target")
            if not isinstance(targets, tuple | list) or any(
                isinstance(t, bool) or not isinstance(t, int) for t in targets
            ):
                raise IllegalMove("targets must be a list of seats", "bad_target")
            if len(set(targets)) != len(targets):
                raise IllegalMove("a target is named twice", "bad_target")
            for t in targets:
                if t == me:
                    raise IllegalMove("you cannot explode your own kettle", "bad_target")
                if not 0 <= t < self.options.players:
                    raise IllegalMove(f"no seat {t}", "bad_target")

        # --- validated: from here on the take happens.
        grid[slot] = EMPTY
        self.ply += 1
        if ending:  # section 5: keep or discard, symbol not executed, no further turn
            if take.keep:
                self.kettles[me].append(c)
            else:
                self.out.append(c)
            self.over = True
            self.ended_by = me
            if events is not None:
                events.append(Took(me, take.card, LINE_IDS[li], slot // 6, slot % 6, False, True))
                if not take.keep:
                    events.append(Discarded(me, take.card))
                result = score_game(self)
                events.append(
                    GameOver(me, result.winners, tuple(s.to_dict() for s in result.scores))
                )
            return
        self.kettles[me].append(c)
        used = False
        extra = False
        if special:
            if IS_EXPLODE[c]:
                used = True
            elif IS_WAND[c] and self.turn_in_row == 1:
                used = True
                extra = True
        if events is not None:
            events.append(Took(me, take.card, LINE_IDS[li], slot // 6, slot % 6, used, False))
        if used and IS_EXPLODE[c]:  # section 4.4, before the refill
            deck = self.deck
            for t in range(self.options.players) if targets is None else targets:
                if t == me:
                    continue
                k = self.kettles[t]
                if len(k) > 1:
                    top = k.pop()
                    if deck:
                        deck.insert(0, top)
                    else:
                        self.out.append(top)
                    if events is not None:
                        events.append(Exploded(me, t, CARD_IDS[top], "deck" if deck else "removed"))
        if self.deck:  # section 4.5
            grid[slot] = self.deck.pop()
            if events is not None:
                events.append(Refilled(slot // 6, slot % 6, CARD_IDS[grid[slot]]))
        if extra:
            self.turn_in_row = 2
            if events is not None:
                events.append(ExtraTurn(me))
        else:
            self._next_player(events)
        self._advance(events)

    def _next_player(self, events: list[Event] | None) -> None:
        self.to_move = (self.to_move + 1) % self.options.players
        self.turn_in_row = 1
        if events is not None:
            events.append(TurnPassed(self.to_move))

    def _advance(self, events: list[Event] | None) -> None:
        """Forced movement of the player to move (section 4.1), passing corner turns
        (4.2) until a pawn stops next to a line. Terminates: see RULES.md section 4.7."""
        pawns = self.pawns
        while True:
            me = self.to_move
            start = pawns[me]
            others = [p for seat, p in enumerate(pawns) if seat != me]
            pos, skipped = walk(start, VALUE[self.kettles[me][-1]], others)
            pawns[me] = pos
            if events is not None:
                events.append(Moved(me, start, pos, skipped))
            if SPACE_LINE[pos] >= 0:
                return
            if events is not None:
                events.append(PassedCorner(me, pos))
            self._next_player(events)

    # ----------------------------------------------------------------- helpers
    def kettle_ids(self, seat: int) -> list[str]:
        return [CARD_IDS[c] for c in self.kettles[seat]]

    def grid_ids(self) -> list[list[str | None]]:
        g = self.grid
        return [
            [None if g[r * 6 + c] == EMPTY else CARD_IDS[g[r * 6 + c]] for c in range(6)]
            for r in range(6)
        ]


def _refused_start_card(card: int, colour: str, mode: str) -> bool:
    """Section 3.3: a start card may not be black or white (rulebook), or under the
    ``not_own_color`` option, not the player's own colour."""
    if mode == "no_player_colors":
        return IS_PLAYER_COLOUR[card]
    return COLOUR_OF[card] == colour
