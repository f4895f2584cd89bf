"""What the other seats did since our last decision, as data: each turn's path, takes,
refills and explosions, for the "since your take" lines and the grid's highlight.

The log says it all in sentences, but it scrolls; these few facts stay on the screen
at every size (one line per seat), so nobody misses a take that happened while they
looked away (RULES.md section 9: every take is seen as it happens).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from client.i18n import N_, _, ngettext
from protocol import messages as m

from .render import Cards, Line, colour_word, line_words, text_of, wrap

__all__ = ["AWAY_NOTE", "AWAY_WHILE", "HEARD", "KEEP", "Recent", "Turn"]

KEEP = 3
"""A seat's turns shown at most (a wand's two count as two); older ones: the log."""

HEARD = 300
"""The events since our last decision kept to feed a restarted screen (``heard``): a
round is a few dozen; a seat a computer plays for a long time keeps the latest."""


AWAY_WHILE = N_("while you were away")
"""The start of a seat's note of what changed while we were away (a client started
again): for our own seat, what a computer did for us."""

AWAY_NOTE = N_("away, a computer plays")
"""A seat's note when a computer took it over; not said while the seat is still away,
since the away line under the prompt says it (``Recent.away``)."""


@dataclass
class Turn:
    """One seat's turn as everyone saw it."""

    seat: int
    path: tuple[int, ...] = ()  # the spaces the pawn passed, its landing last
    jumped: int = 0  # of those, the spaces of other pawns it jumped (not counted)
    corner: bool = False  # it stopped at a corner: nothing to take
    takes: list[tuple[str, str, tuple[int, int]]] = field(default_factory=list)
    refills: list[str] = field(default_factory=list)
    booms: list[tuple[int, str]] = field(default_factory=list)  # (target, card)
    discarded: str | None = None
    computer: bool = False  # its time ran out: a computer played it
    at: int = 0  # when: the events fed before its latest take (or its start), for order


class Recent:
    """The turns since our last decision (``me``: our seat; a spectator, ``None``,
    keeps each seat's last turn). Fed with every batch of events, in order."""

    def __init__(self) -> None:
        self.me: int | None = None
        self.turns: list[Turn] = []
        # (seat, words, when: the events fed before it): resigned, away, back
        self.notes: list[tuple[int, str, int]] = []
        self.away: frozenset[int] = frozenset()  # seats the away line names now
        self._current: Turn | None = None
        self._by_computer: set[int] = set()  # seats whose next take a computer makes
        # we took a card in this game: "since your take" (before: "so far"); a screen
        # that comes in mid-game (a resume) is told by ``came_in`` or the kept log
        self.decided = False
        # what was fed since our last decision: fed again, it makes these turns again
        # (a client started again shows them, ``client.ui.log.keep_log``)
        self.heard: list[m.GameEvent] = []
        self._fed = 0  # events fed since our last decision: when a turn or a note was

    def feed(self, events: Sequence[m.GameEvent], by_computer: bool = False) -> None:
        """One state's events; ``by_computer`` (1.4): a computer made its take for its
        person's seat, which is no decision of that person's."""
        if by_computer:
            self._by_computer.update(e.seat for e in events if isinstance(e, m.TookEvent))
        for e in events:
            self.heard.append(e)
            self._fed += 1
            self._feed(e)
        del self.heard[:-HEARD]

    def _feed(self, e: m.GameEvent) -> None:
        if isinstance(e, m.TimedOutEvent):
            self._by_computer.add(e.seat)
        elif isinstance(e, m.MovedEvent):
            path = tuple(
                (e.from_space + i) % 20 for i in range(1, (e.to_space - e.from_space) % 20 + 1)
            )
            started = self._start(e.seat)
            started.path, started.jumped = path, len(e.skipped)
        elif isinstance(e, m.PassedCornerEvent):
            turn = self._current if self._current and self._current.seat == e.seat else None
            (turn or self._start(e.seat)).corner = True
            self._current = None
        elif isinstance(e, m.TookEvent):
            turn = self._current if self._current and self._current.seat == e.seat else None
            # the time runs out after the pawn moved: the server says so just before the
            # computer's take, once the turn has begun
            computer = (turn is not None and turn.computer) or e.seat in self._by_computer
            self._by_computer.discard(e.seat)
            if turn is not None:
                turn.computer = computer
            if e.seat == self.me and not computer:
                self.turns, self.notes, self._current = [], [], None  # our decision
                self.heard, self._fed = [], 0
                self.decided = True
                return
            turn = turn or self._start(e.seat)
            turn.takes.append((e.card, e.line, (e.row, e.col)))
            turn.at = self._fed  # a note before this take is told before the turn
        elif isinstance(e, m.RefilledEvent) and self._current is not None:
            self._current.refills.append(e.card)
        elif isinstance(e, m.ExplodedEvent) and self._current is not None:
            self._current.booms.append((e.target, e.card))
        elif isinstance(e, m.DiscardedEvent) and self._current is not None:
            self._current.discarded = e.card

    def came_in(self, view: m.GameView | None, me: int | None) -> None:
        """A screen that comes in mid-game (a resume) saw none of our takes: our kettle
        says whether there were any, as best it can (it starts with one card, and a
        kettle of one is immune to a boom). The log kept on disk, where there is one,
        says it for sure (``client.ui.log.restore_log``)."""
        self.me = me
        kettles = view.kettles if view is not None else ()
        self.decided = me is not None and me < len(kettles) and kettles[me].count > 1

    def missed(self) -> None:
        """Cards were taken while we were away (a client started again): the turns kept
        from before are no longer the latest, and what came between is not known turn by
        turn (the notes say it), so they go."""
        self.turns, self._current, self.heard = [], None, []

    def note(self, seat: int, words: str, at: int | None = None) -> None:
        """Something no game event says about ``seat`` (it resigned, went away, came
        back), kept with its turns until our next decision, in the order it happened
        (``at``: after that many of the events ``heard``; by default now)."""
        fed = self._fed if at is None else min(self._fed, self._fed - len(self.heard) + at)
        self.notes.append((seat, words, fed))

    def kept_notes(self) -> tuple[list[tuple[int, str]], list[int]]:
        """The notes, and after how many of the events ``heard`` each came: to be kept
        on disk and given back to ``note`` by a client started again."""
        dropped = self._fed - len(self.heard)
        return [(s, w) for s, w, _ in self.notes], [max(0, at - dropped) for *_, at in self.notes]

    def _start(self, seat: int) -> Turn:
        turn = Turn(seat, computer=seat in self._by_computer, at=self._fed)
        self._by_computer.discard(seat)
        wand = bool(self.turns) and self.turns[-1].seat == seat  # its wand's second turn
        if self.me is None and not wand:  # a spectator: each seat's last turn (or two)
            self.turns = [t for t in self.turns if t.seat != seat]
            self.notes = [n for n in self.notes if n[0] != seat]  # and what came after it
        self.turns.append(turn)
        self._current = turn
        return turn

    def last(self) -> Turn | None:
        """The latest turn of another seat (or a computer's for us): the highlight."""
        return next((t for t in reversed(self.turns) if t.seat != self.me or t.computer), None)

    def lines(
        self,
        players: int,
        colours: Sequence[str],
        cards: Cards,
        width: int,
        *,
        one_line: bool = False,
        moving: bool = False,
    ) -> list[Line]:
        """One line per seat (but ours) that did something since our last decision,
        the seat that moved last at the bottom (next to the prompt; on a small screen
        the lines at the top give way first). Wrapped; ``one_line``: each seat in one
        line, its newest turns first to stay, in fewer words when it must; ``moving``:
        without the turn of the seat that is choosing now (``choosing``), which the
        log's newest line says."""
        out: list[Line] = []
        since = self._since()
        for seat, turns, notes in self._seats(players, moving):
            who = _("You (a computer)") if seat == self.me else colour_word(colours[seat])
            style = "fg:#d7af00" if turns and turns[-1] is self.last() else ""
            if one_line:
                out.append(_one_line(who, since, turns, notes, colours, cards, width, style))
                continue
            kept = turns[-KEEP:]
            said = _in_order(kept, [_turn_words(t, colours, cards) for t in kept], notes)
            if len(turns) > KEEP:  # several rounds of corner stops: the log has the rest
                n = len(turns) - KEEP
                said.insert(
                    0, ngettext("{n} turn before (L)", "{n} turns before (L)", n).format(n=n)
                )
            words = "; ".join(said)
            head = _("{who}, {since}:").format(who=who, since=since) + " "
            out += wrap([("bold", head), (style, words)], width)
        return out

    def merged(
        self,
        players: int,
        colours: Sequence[str],
        cards: Cards,
        width: int,
        moving: bool = False,
        seats: int | None = None,
    ) -> Line:
        """Each seat's newest turn (or note) in its fewest words, all in one line of
        ``width`` (a small screen with one row for them; ``seats``: only the first so
        many of the lines, the ones that did something longest ago); empty if they do
        not fit."""
        parts: list[Line] = []
        for seat, turns, notes in self._seats(players, moving)[:seats]:
            who = _("You (a computer)") if seat == self.me else colour_word(colours[seat])
            style = "fg:#d7af00" if turns and turns[-1] is self.last() else ""
            newest = _newest(turns)
            said = _turn_words(newest, colours, cards, short=True) if newest else notes[-1][1]
            parts.append([("bold", _("{who}:").format(who=who) + " "), (style, said)])
        since = self._since()
        for head in (_("{who}:").format(who=since[:1].upper() + since[1:]) + " ", ""):
            line: Line = [("bold", head)] if head else []
            for i, part in enumerate(parts):
                line += [("", "; "), *part] if i else part
            if len(text_of(line)) <= width:
                return line
        return []

    def _since(self) -> str:
        if self.me is None:
            return _("last turn")
        return _("since your take") if self.decided else _("so far")

    def choosing(self) -> int | None:
        """The seat whose pawn moved last and that chooses its card now."""
        t = self._current
        moved = bool(self.heard) and isinstance(self.heard[-1], m.MovedEvent)
        return t.seat if moved and t is not None and not t.takes and not t.corner else None

    def _seats(
        self, players: int, moving: bool = False
    ) -> list[tuple[int, list[Turn], list[tuple[int, str]]]]:
        """Each seat (but ours, unless a computer played it) that did something since
        our last decision, with its turns and notes (when, words); the seat that did
        something last last; ``moving``: without the turn of the seat ``choosing`` now."""
        now = self._current if moving and self.choosing() is not None else None
        # a seat's latest line: our own turns only where a computer played them
        latest = {t.seat: (t.at, 0) for t in self.turns if t.seat != self.me or t.computer}
        for s, _words, at in self.notes:
            latest[s] = max(latest.get(s, (at, 1)), (at, 1))
        out = []
        for seat in sorted(range(players), key=lambda s: latest.get(s, (-1, 0))):
            mine = seat == self.me
            turns = [t for t in self.turns if t.seat == seat and (not mine or t.computer)]
            turns = [t for t in turns if t is not now]
            notes = self._notes(seat)
            if mine:  # ours: only what a computer did for us while we were away
                notes = [(at, w) for at, w in notes if w.startswith(_(AWAY_WHILE))]
            if turns or notes:
                out.append((seat, turns, notes))
        return out

    def _notes(self, seat: int) -> list[tuple[int, str]]:
        """``seat``'s notes (when, words), but "away" while the away line says it (once,
        not twice)."""
        away = seat in self.away
        note = _(AWAY_NOTE)
        return [(at, w) for s, w, at in self.notes if s == seat and not (away and w == note)]


def _in_order(
    turns: Sequence[Turn], words: Sequence[str], notes: Sequence[tuple[int, str]]
) -> list[str]:
    """The ``words`` of ``turns`` and the notes, in the order they happened (a note
    made after a turn's take follows the turn; one before it, precedes it)."""
    said = [((t.at, 0), w) for t, w in zip(turns, words, strict=True)]
    said += [((at, 1), w) for at, w in notes]
    return [w for _, w in sorted(said, key=lambda item: item[0])]


def _one_line(
    who: str,
    since: str,
    turns: Sequence[Turn],
    notes: Sequence[tuple[int, str]],
    colours: Sequence[str],
    cards: Cards,
    width: int,
    style: str,
) -> Line:
    """A seat's line in ``width``: as many of its newest turns (and notes) as fit, in
    fewer words before fewer turns (a take is not pushed out by the words of a later
    corner stop), and the notes (away, back, resigned) go before its newest turn does
    (they are in the log, and the panel says who is away); the end cut (``…``) only if
    even the newest turn alone is too long."""
    full = {id(t): _turn_words(t, colours, cards) for t in turns}
    short = {id(t): _turn_words(t, colours, cards, short=True) for t in turns}
    tried = [
        (
            _in_order(kept, [full[id(t)] for t in kept], notes),
            _in_order(kept, [short[id(t)] for t in kept], notes),
        )
        for kept in _kept(turns)
    ]
    newest = _newest(turns)
    tried += [([full[id(newest)]], [short[id(newest)]])] if newest else []
    # the card says "boom" already: "Rat 2 boom (row 3), hit Black, Lilac"
    tersest = [_turn_words(newest, colours, cards, short=True, terse=True)] if newest else []
    tried += [(tersest, tersest)] if newest and tersest != [short[id(newest)]] else []
    words = [w for _, w in notes]
    tried += [(words[-n:], words[-n:]) for n in range(len(notes), 0, -1)]
    for words, fewer in tried:
        for head in (
            _("{who}, {since}:").format(who=who, since=since) + " ",
            _("{who}:").format(who=who) + " ",
        ):
            for said in (words, fewer):
                text = "; ".join(said)
                if len(head) + len(text) <= width:
                    return [("bold", head), (style, text)]
    head = _("{who}:").format(who=who) + " "
    text = short[id(newest)] if newest else notes[-1][1] if notes else ""
    return [("bold", head), (style, text[: max(0, width - len(head) - 1)] + "\u2026")]


def _kept(turns: Sequence[Turn]) -> list[Sequence[Turn]]:
    """The turns a seat's line may keep, the most first: its newest ones, but a turn
    that took no card (a corner stop, a move still choosing) gives way before any
    take does. The cards taken are what a player must remember; the log has the rest
    (a CI run saw a boom's take vanish from an 80x24 screen behind "a corner, nothing
    taken": both did not fit in fewer words either)."""
    taking = [t for t in turns if t.takes]
    kept: list[Sequence[Turn]] = []
    for n in range(len(turns), 0, -1):
        if sum(1 for t in turns[-n:] if t.takes) < len(taking):
            break  # a take would go: the turns that took nothing go first
        kept.append(turns[-n:])
    return kept + [taking[-n:] for n in range(len(taking), 0, -1)]


def _newest(turns: Sequence[Turn]) -> Turn | None:
    """The turn a seat's line says when it has room for one: its newest take's, or its
    newest turn when it took nothing since."""
    return next((t for t in reversed(turns) if t.takes), turns[-1] if turns else None)


def _turn_words(
    t: Turn, colours: Sequence[str], cards: Cards, *, short: bool = False, terse: bool = False
) -> str:
    """A turn in a few words: ``Frog 1 (col 1), RatTl 4 in``; ``short``: the take and
    whom a boom hit only (``Frog 1 (col 1), boom hit White, Black``); ``terse``: the card
    says "boom" already (``Rat 2 boom (row 3), hit Black, Lilac``)."""
    parts: list[str] = []
    if t.corner:
        parts.append(_("corner") if short else _("a corner, nothing taken"))
    for i, (card, line, _used) in enumerate(t.takes):
        part = f"{cards.short(card)} ({line_words(line, short=True)})"
        if i < len(t.refills) and not short:
            part += ", " + _("{card} in").format(card=cards.short(t.refills[i]))
        parts.append(part)
    if short and t.booms:
        hit = ", ".join(colour_word(colours[s]) for s, _card in t.booms)
        parts.append((_("hit {who}") if terse else _("boom hit {who}")).format(who=hit))
    for target, card in t.booms if not short else ():
        parts.append(
            _("boom: {who} lost {card}").format(
                who=colour_word(colours[target]), card=cards.short(card)
            )
        )
    if t.discarded:
        parts.append(_("discarded {card}").format(card=cards.short(t.discarded)))
    if parts:
        return ", ".join(parts)
    steps = len(t.path) - t.jumped  # as the log counts them (RULES.md 4.1)
    if t.jumped and not short:
        return ngettext(
            "moved {n} space jumping a pawn, choosing",
            "moved {n} spaces jumping a pawn, choosing",
            steps,
        ).format(n=steps)
    return ngettext("moved {n} space, choosing", "moved {n} spaces, choosing", steps).format(
        n=steps
    )
