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
games per move. Events are only built when a list is passed to collect them. The hot
path reads tables made once (every card's takes here, landing spaces in ``geometry``)
and two counters ``apply`` keeps (filled slots per line, kettles that can be exploded)
instead of recomputing them; tests/shared/test_fast_paths.py holds each to the simple
rule. The deal and explicit set-ups are read in ``shared.setup``.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .cards import (
    CARD_IDS,
    CARD_INDEX,
    IS_EXPLODE,
    IS_WAND,
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
    LAND2,
    LINE_IDS,
    LINE_SLOTS,
    SLOT_LINES,
    SLOT_PAIR,
    SPACE_LINE,
    land,
    walk,
)
from .options import Options
from .scoring import score_game
from .setup import EMPTY, Setup, Start, deal, read_setup

__all__ = ["EMPTY", "Game", "Setup", "Take"]


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


def _take_tables() -> tuple[tuple[tuple[tuple[Take, ...], ...], ...], tuple[tuple[Take, ...], ...]]:
    """Every card's takes, made once: ``TAKES[hit | wand][card]`` for a card that does
    not end the game (``hit``: bit ``s`` set when seat ``s``'s kettle can be exploded;
    ``wand``: 8 when a wand's symbol would act), ``ENDING[card]`` for one that does.
    ``legal_actions`` lists these shared (immutable) objects instead of building new ones.
    """
    tables = []
    for key in range(16):
        hit = [s for s in range(3) if key >> s & 1]
        row = []
        for c, cid in enumerate(CARD_IDS):
            takes = [Take(cid, False)]
            if IS_EXPLODE[c]:
                takes += [Take(cid, True, (h,)) for h in hit]
                if len(hit) == 2:
                    takes.append(Take(cid, True, (hit[0], hit[1])))
            elif key & 8 and IS_WAND[c]:
                takes.append(Take(cid, True))
            row.append(tuple(takes))
        tables.append(tuple(row))
    ending = tuple(
        (Take(cid, False, None, True), Take(cid, False, None, False)) for cid in CARD_IDS
    )
    return tuple(tables), ending


TAKES, ENDING = _take_tables()
_WAND_ACTS = 8
_CARD_INDEX_GET = CARD_INDEX.get


class Game:
    """The complete, secret state of one game. Only ``shared.view`` may project it for
    a player; nothing else in the project reads hidden state to show it to anyone."""

    __slots__ = (
        "big",
        "deck",
        "ended_by",
        "grid",
        "kettles",
        "line_count",
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
    # Derived from the above, kept up to date by ``apply`` for its hot path:
    line_count: list[int]  # non-empty slots of each line; a ninth entry stays 0
    big: int  # bit s set: seat s's kettle holds more than one card (can be exploded)

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
        g = cls._start(options, deal(options))
        g.line_count = [6, 6, 6, 6, 6, 6, 6, 6, 0]  # every line full
        g.big = 0  # every kettle holds its start card only
        return g

    @classmethod
    def _start(cls, options: Options, start: Start) -> Game:
        """A game at ``start``, before any forced move (the counters not yet set)."""
        g = cls.__new__(cls)
        g.options = options
        g.grid, g.deck, g.kettles, g.pawns, g.out, g.recipes, g.to_move = start
        g.turn_in_row = 1
        g.over = False
        g.ended_by = -1
        g.ply = 0
        return g

    def _derive(self) -> None:
        """Compute ``line_count`` and ``big`` from the state (after set-up)."""
        grid = self.grid
        self.line_count = [len([s for s in slots if grid[s] != EMPTY]) for slots in LINE_SLOTS]
        self.line_count.append(0)
        self.big = sum(1 << s for s, k in enumerate(self.kettles) if len(k) > 1)

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
        start = read_setup(options, setup)
        g = cls._start(options, start)
        g._derive()
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
        g.line_count = self.line_count[:]
        g.big = self.big
        return g

    def key(self) -> tuple[Any, ...]:
        """Everything that makes up the state, for equality and hashing. The seed is
        left out: it only chose the deal, so a game replayed from a record that lists
        the deal explicitly equals the game dealt from the seed."""
        return (
            self.options.public(),
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
        if grid[slot] != EMPTY:  # then: is it the last card of one of its lines?
            a, b = SLOT_PAIR[slot]
            lc = self.line_count
            return lc[a] == 1 or lc[b] == 1
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
        The takes are shared objects from ``TAKES`` and ``ENDING``.
        """
        if self.over:
            return []
        me = self.to_move
        grid = self.grid
        table = TAKES[(self.big & ~(1 << me)) | (_WAND_ACTS if self.turn_in_row == 1 else 0)]
        if self.deck:  # no gaps, nor an end, while the deck holds cards (section 5)
            s0, s1, s2, s3, s4, s5 = LINE_SLOTS[SPACE_LINE[self.pawns[me]]]
            return [
                *table[grid[s0]],
                *table[grid[s1]],
                *table[grid[s2]],
                *table[grid[s3]],
                *table[grid[s4]],
                *table[grid[s5]],
            ]
        out: list[Take] = []
        lc = self.line_count
        for slot in LINE_SLOTS[SPACE_LINE[self.pawns[me]]]:
            c = grid[slot]
            if c != EMPTY:
                a, b = SLOT_PAIR[slot]
                out += ENDING[c] if lc[a] == 1 or lc[b] == 1 else table[c]
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
        card = take.card
        c = _CARD_INDEX_GET(card, -1) if isinstance(card, str) else -1
        if c < 0:
            raise IllegalMove(f"no such card: {card!r}", "unknown_card")
        grid = self.grid
        li = SPACE_LINE[self.pawns[me]]
        for slot in LINE_SLOTS[li]:
            if grid[slot] == c:
                break
        else:
            raise IllegalMove(f"{card} is not in {LINE_IDS[li]}", "not_in_line")
        special = take.special
        targets = take.targets
        if special.__class__ is not bool or take.keep.__class__ is not bool:
            raise IllegalMove("special and keep must be true or false", "bad_action")
        deck = self.deck
        lc = self.line_count
        if deck:
            ending = False
        else:
            a, b = SLOT_PAIR[slot]
            ending = lc[a] == 1 or lc[b] == 1
        if targets is not None and not ending:
            self._check_targets(c, targets)

        # --- validated: from here on the take happens.
        self.ply += 1
        if ending:  # section 5: keep or discard, symbol not executed, no further turn
            grid[slot] = EMPTY
            self._end(me, c, li, slot, take.keep, events)
            return
        kettle = self.kettles[me]
        kettle.append(c)
        self.big |= 1 << me
        extra = False
        if special and IS_EXPLODE[c]:
            if events is not None:
                events.append(Took(me, card, LINE_IDS[li], slot // 6, slot % 6, True, False))
            self._explode(me, targets, events)
        else:
            if special and IS_WAND[c] and self.turn_in_row == 1:
                extra = True
            if events is not None:
                events.append(Took(me, card, LINE_IDS[li], slot // 6, slot % 6, extra, False))
        if deck:  # section 4.5
            grid[slot] = new = deck.pop()
            if events is not None:
                events.append(Refilled(slot // 6, slot % 6, CARD_IDS[new]))
        else:
            grid[slot] = EMPTY
            for li in SLOT_LINES[slot]:
                lc[li] -= 1
        pawns = self.pawns
        if extra:
            self.turn_in_row = 2
            if events is not None:
                events.append(ExtraTurn(me))
        else:
            self.to_move = me = (me + 1) % len(pawns)
            self.turn_in_row = 1
            if events is not None:
                events.append(TurnPassed(me))
        if events is not None or len(pawns) != 2:
            self._advance(events)
            return
        # ``_advance`` for two players without events, by table: every playout's move.
        kettles = self.kettles
        while True:
            pawns[me] = pos = LAND2[pawns[me]][pawns[1 - me]][VALUE[kettles[me][-1]]]
            if SPACE_LINE[pos] >= 0:
                return
            self.to_move = me = 1 - me
            self.turn_in_row = 1

    def _check_targets(self, c: int, targets: Any) -> None:
        """Validate an explosion's ``targets`` (section 4.4); ``IllegalMove`` if bad."""
        me = self.to_move
        if not IS_EXPLODE[c]:
            raise IllegalMove(f"{CARD_IDS[c]} has no exploding kettle to aim", "bad_target")
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

    def _end(
        self, me: int, c: int, li: int, slot: int, keep: bool, events: list[Event] | None
    ) -> None:
        """The game-ending take (section 5): the card kept or discarded, nothing else."""
        for line in SLOT_LINES[slot]:
            self.line_count[line] -= 1
        if keep:
            self.kettles[me].append(c)
            self.big |= 1 << me
        else:
            self.out.append(c)
        self.over = True
        self.ended_by = me
        if events is not None:
            cid = CARD_IDS[c]
            events.append(Took(me, cid, LINE_IDS[li], slot // 6, slot % 6, False, True))
            if not keep:
                events.append(Discarded(me, cid))
            result = score_game(self)
            events.append(GameOver(me, result.winners, tuple(s.to_dict() for s in result.scores)))

    def _explode(self, me: int, targets: Any, events: list[Event] | None) -> None:
        """Section 4.4, before the refill: the top card of each target's kettle that
        holds more than one goes under the deck, or out of the game if it is empty."""
        deck = self.deck
        kettles = self.kettles
        for t in range(len(kettles)) if targets is None else targets:
            if t == me:
                continue
            k = kettles[t]
            if len(k) > 1:
                top = k.pop()
                if len(k) == 1:
                    self.big &= ~(1 << t)
                if deck:
                    deck.insert(0, top)
                else:
                    self.out.append(top)
                if events is not None:
                    events.append(Exploded(me, t, CARD_IDS[top], "deck" if deck else "removed"))

    def _advance(self, events: list[Event] | None) -> None:
        """Forced movement of the player to move (section 4.1), passing corner turns
        (4.2) until a pawn stops next to a line. Terminates: see RULES.md section 4.7."""
        pawns = self.pawns
        kettles = self.kettles
        while True:
            me = self.to_move
            start = pawns[me]
            if events is None:
                pawns[me] = pos = land(start, VALUE[kettles[me][-1]], pawns, me)
            else:
                others = [p for seat, p in enumerate(pawns) if seat != me]
                pos, skipped = walk(start, VALUE[kettles[me][-1]], others)
                pawns[me] = pos
                events.append(Moved(me, start, pos, skipped))
            if SPACE_LINE[pos] >= 0:
                return
            if events is not None:
                events.append(PassedCorner(me, pos))
            self.to_move = me = (me + 1) % len(pawns)
            self.turn_in_row = 1
            if events is not None:
                events.append(TurnPassed(me))

    # ----------------------------------------------------------------- helpers
    def kettle_ids(self, seat: int) -> list[str]:
        return [CARD_IDS[c] for c in self.kettles[seat]]

    def grid_ids(self) -> list[list[str | None]]:
        g = self.grid
        return [
            [None if g[r * 6 + c] == EMPTY else CARD_IDS[g[r * 6 + c]] for c in range(6)]
            for r in range(6)
        ]
