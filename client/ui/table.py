"""The table screen's interaction state, without a terminal: which card the cursor is
on, the decision being asked (use the symbol? which targets? keep or discard?), and the
take it leads to. Only ``view.choices`` can be selected, so an illegal take cannot be
made; the server still checks every take.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from client.i18n import _
from protocol import messages as m
from shared.geometry import LINE_IDS, SPACE_LINE, walk

from .render import line_words, seat_label

__all__ = ["Decision", "Intent", "Landing", "LogEntry", "TableModel"]


@dataclass(frozen=True)
class LogEntry:
    """A line of the log; ``turn`` is the seat whose turn starts with it (its move, or
    its stop at a corner), None inside a turn; ``decided`` the seat whose own choice it
    records (a take it made; not a corner stop, nor a computer's move for it)."""

    text: str
    turn: int | None = None
    decided: int | None = None


@dataclass(frozen=True)
class Landing:
    """Where our pawn would stop next turn with a card of ``value`` on top of our
    kettle: ``line`` (``col3``), or None at a corner (a lost turn). The other pawns
    move first, each by its kettle's top card (known to all); ``wand``: the card's wand
    gives the next turn at once, before anyone moves; ``guess``: the card's boom would
    change the others' top cards, so their moves (and so this landing) are a guess;
    ``last``: the card ends the game, there is no next turn."""

    value: int
    space: int
    line: str | None
    wand: bool = False
    guess: bool = False
    last: bool = False


@dataclass(frozen=True)
class Intent:
    """A take to send."""

    card: str
    special: bool = True
    targets: tuple[int, ...] | None = None
    keep: bool = True


@dataclass
class Decision:
    """A question about the chosen card: ``special`` (use its symbol?), ``targets``
    (whom the explosion hits, three players) or ``end`` (keep or discard)."""

    kind: str
    choice: m.TakeChoice
    targets: set[int] = field(default_factory=set)


class TableModel:
    def __init__(self, me: int | None = None, log_size: int = 1000) -> None:
        self.me = me  # our seat; None for a spectator
        self.view: m.GameView | None = None
        self.state_version = 0
        self.cursor = 0
        self.decision: Decision | None = None
        self.log: deque[LogEntry] = deque(maxlen=log_size)
        self.busy = False  # a take is on its way
        self.finished = False  # the table says the game ended (a resignation, ...)
        self.resigned = False  # our seat resigned: a computer plays it to the end

    # ------------------------------------------------------------------ queries
    @property
    def choices(self) -> list[m.TakeChoice]:
        if self.view is None or not self.my_turn:
            return []
        return sorted(self.view.choices, key=lambda c: (c.row, c.col))

    @property
    def my_turn(self) -> bool:
        v = self.view
        over = self.finished or self.resigned or (v is not None and v.game_over)
        return v is not None and self.me is not None and v.to_move == self.me and not over

    def cursor_cell(self) -> tuple[int, int] | None:
        ch = self.choices
        if not ch:
            return None
        c = ch[min(self.cursor, len(ch) - 1)]
        return c.row, c.col

    def landing(self, value_of: Callable[[str], int]) -> Landing | None:
        """For the card under the cursor: where our pawn lands next turn with it on
        top (``shared.geometry.walk``, the engine's own movement), after the others
        moved in turn order by their kettles' top cards (RULES.md 4.1)."""
        v = self.view
        cell = self.cursor_cell()
        if v is None or self.me is None or cell is None:
            return None
        choice = self.choices[min(self.cursor, len(self.choices) - 1)]
        value = value_of(choice.card)
        pawns = list(v.pawns)
        if choice.ends_game:
            return Landing(value, pawns[self.me], None, last=True)
        wand = choice.symbol == "wand"
        if not wand:  # the others move first, each by its top card
            for step in range(1, v.players):
                seat = (self.me + step) % v.players
                top = v.kettles[seat].top if seat < len(v.kettles) else None
                others = [p for s, p in enumerate(pawns) if s != seat]
                pawns[seat], _ = walk(pawns[seat], value_of(top) if top else 0, others)
        others = [p for seat, p in enumerate(pawns) if seat != self.me]
        space, _ = walk(pawns[self.me], value, others)
        line = SPACE_LINE[space]
        where = LINE_IDS[line] if line >= 0 else None
        return Landing(value, space, where, wand=wand, guess=choice.symbol == "explode")

    def visible_log(self) -> list[LogEntry]:
        """The log as the rules allow: with casual memory the whole history; with
        strict memory everything since our last decision (RULES.md section 9: every take
        is seen as it happens), from the start of the last turn in which we chose a
        card. A turn that only stopped at a corner, or that a computer played for us,
        decided nothing and does not cut the log (a spectator follows the player to
        move)."""
        entries = list(self.log)
        v = self.view
        if v is None or v.options.memory == "casual" or v.game_over:
            return entries
        me = self.me if self.me is not None else v.to_move
        # the turns, merging a seat's consecutive turns (a wand's extra turn)
        starts: list[tuple[int, int]] = []
        for i, e in enumerate(entries):
            if e.turn is not None and (not starts or starts[-1][1] != e.turn):
                starts.append((i, e.turn))
        turns = list(zip(starts, [i for i, _ in starts[1:]] + [len(entries)], strict=False))
        if turns and starts[-1][1] == me and v.to_move == me:
            turns.pop()  # our turn now: what we decide in it does not cut it yet
        decided = [
            start
            for (start, seat), end in turns
            if seat == me and any(e.decided == me for e in entries[start:end])
        ]
        return entries[decided[-1] :] if decided else entries

    # ------------------------------------------------------------------ changes
    def set_view(self, view: m.GameView, state_version: int) -> None:
        old = [c.card for c in self.choices]
        current = old[self.cursor] if old and self.cursor < len(old) else None
        self.view, self.state_version = view, state_version
        self.decision = None
        self.busy = False
        cards = [c.card for c in self.choices]
        self.cursor = cards.index(current) if current in cards else self._by_the_pawn()

    def _by_the_pawn(self) -> int:
        """The choice nearest our pawn: the top of a column when the pawn stands above
        it, the bottom from below, the left or right end of a row likewise."""
        ch = self.choices
        v = self.view
        if not ch or v is None or self.me is None:
            return 0
        space = v.pawns[self.me]
        return len(ch) - 1 if 6 <= space <= 14 else 0  # right side and bottom: the far end

    def move(self, delta: int) -> None:
        n = len(self.choices)
        if n and self.decision is None:
            self.cursor = (self.cursor + delta) % n

    def jump(self, index: int) -> bool:
        """The number keys: the card in row ``index`` of the column (or column
        ``index`` of the row) to take from, as labelled; False if none is there."""
        v = self.view
        for i, c in enumerate(self.choices):
            at = c.row if v is not None and (v.line or "").startswith("col") else c.col
            if at == index and self.decision is None:
                self.cursor = i
                return True
        return False

    def point_at(self, card: str) -> bool:
        """Put the cursor on ``card`` (a hint's), marked as a chosen card is; False if
        it is none of the choices now."""
        for i, c in enumerate(self.choices):
            if c.card == card and self.decision is None:
                self.cursor = i
                return True
        return False

    def select(self, cell: tuple[int, int] | None = None) -> Intent | None:
        """Choose the card under the cursor (or at ``cell``): a take, or a question."""
        if self.busy or self.decision is not None:
            return None
        ch = self.choices
        if cell is not None:
            idx = next((i for i, c in enumerate(ch) if (c.row, c.col) == cell), None)
            if idx is None:
                return None
            self.cursor = idx
        if not ch:
            return None
        choice = ch[min(self.cursor, len(ch) - 1)]
        if choice.ends_game:
            self.decision = Decision("end", choice)
            return None
        if choice.symbol == "wand" or (
            choice.symbol == "explode" and self.view and self.view.explodable
        ):
            self.decision = Decision("special", choice)
            return None
        return self._send(Intent(choice.card))

    def answer(self, key: str) -> Intent | None:
        """A key while a question is open: y/n, k/d, 1-3, Enter, Escape."""
        d = self.decision
        if d is None or self.view is None:
            return None
        card = d.choice.card
        if key == "escape":
            self.decision = None
        elif d.kind == "end":
            if key in ("k", "enter", "y"):
                return self._send(Intent(card, special=False, keep=True))
            if key in ("d", "n"):
                return self._send(Intent(card, special=False, keep=False))
        elif d.kind == "special":
            if key in ("y", "enter"):
                hit = self.view.explodable
                if d.choice.symbol == "explode" and len(hit) > 1:
                    self.decision = Decision("targets", d.choice, set(hit))
                    return None
                return self._send(Intent(card, special=True))
            if key == "n":
                return self._send(Intent(card, special=False))
            hit = self.view.explodable
            if key.isdigit() and d.choice.symbol == "explode" and int(key) - 1 in hit:
                self.decision = Decision("targets", d.choice, {int(key) - 1})  # that one
        elif d.kind == "targets":
            if key.isdigit():
                seat = int(key) - 1
                if seat in self.view.explodable:
                    d.targets ^= {seat}
            elif key == "enter":
                return self._send(
                    Intent(card, special=bool(d.targets), targets=tuple(sorted(d.targets)))
                )
        return None

    def _send(self, intent: Intent) -> Intent:
        self.decision = None
        self.busy = True
        return intent

    def failed(self) -> None:
        """The take was refused: let the player choose again."""
        self.busy = False
        self.decision = None

    # ------------------------------------------------------------------ words
    def prompt(self, names: list[str | None], card_name: Callable[[str], str] = str) -> str:
        """What the player is asked now, for the prompt line (``card_name``: a card in
        words, to say which top cards a boom knocks off). Every question says its keys
        and that ``Esc`` chooses again."""
        v = self.view
        if v is None:
            return _("Waiting for the game to start...")
        if v.game_over or self.finished:
            return _("The game is over.")
        d = self.decision
        if d is not None:
            again = _("(Esc: choose again)")
            if d.kind == "end":
                ask = _("This card empties a line and ends the game: [k]eep it or [d]iscard it?")
                return f"{ask}  {again}"
            if d.kind == "special" and d.choice.symbol == "wand":
                ask = _("Wand: play another turn? [y]es / [n]o")
                return f"{ask}  {again}"

            def top(s: int) -> str:
                card = v.kettles[s].top if s < len(v.kettles) else None
                who = seat_label(v.colours, s, names)
                return _("{who}'s {card}").format(who=who, card=card_name(card)) if card else who

            if d.kind == "special" and len(v.explodable) > 1:  # a choice of whom to hit
                hit = ", ".join(f"{s + 1}={top(s)}" for s in v.explodable)
                ask = _(
                    "Boom: whom to hit? {targets}: a number chooses one, [y]es: every one, "
                    "[n]o: nobody"
                ).format(targets=hit)
                return f"{ask}  {again}"
            if d.kind == "special":
                ask = _("Boom: knock {top} off the kettle? [y]es / [n]o")
                return f"{ask.format(top=top(v.explodable[0]))}  {again}"
            hit = ", ".join(
                f"{s + 1}={top(s)}{' ' + _('(hit)') if s in d.targets else ''}"
                for s in v.explodable
            )
            ask = _("Targets (a number hits or spares one): {targets}   Enter: go")
            return f"{ask.format(targets=hit)}  {again}"
        if self.resigned:
            return _("You resigned: a computer plays your seat to the end.")
        if self.busy:
            return "..."
        extra = v.turn_in_row == 2  # a wand's extra turn (RULES.md 4.4), seen by all
        line = line_words(v.line or "")
        if self.my_turn:
            if extra:
                return _("Your turn (the extra turn of a wand): take a card from {line}").format(
                    line=line
                )
            return _("Your turn: take a card from {line}").format(line=line)
        if v.to_move is not None:
            who = seat_label(v.colours, v.to_move, names)
            if extra:
                return _("Waiting for {who}, on the extra turn of a wand...").format(who=who)
            return _("Waiting for {who}...").format(who=who)
        return ""
