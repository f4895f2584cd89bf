"""The game log: events and presence changes in words, the log under the grid and on
its own page (paged with PgUp/PgDn or Up/Down), and the log kept on disk for a client
started again.

What the log may show is the rules' business (``TableModel.visible_log``); this module
only words the entries, pages them and keeps them.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Sequence
from dataclasses import dataclass

from pydantic import TypeAdapter, ValidationError

from client.i18n import N_, _, ngettext
from protocol import messages as m
from shared.geometry import SPACE_LINE

from ..lib import Client
from ..tokens import LogStore
from .recent import AWAY_NOTE, AWAY_WHILE, Recent
from .render import Cards, Line, describe_event, seat_label, shown_name, wrap, wrap_items
from .table import LogEntry

__all__ = [
    "COMPUTER_MARK",
    "LogPager",
    "away_entries",
    "event_entries",
    "forget_log",
    "keep_log",
    "keep_seen",
    "missed_entries",
    "newest_alone",
    "presence_entries",
    "restore_log",
    "restore_seen",
    "wrapped_log",
]

COMPUTER_MARK = N_("(computer's move)")
"""After a take a computer made for its person's seat (protocol 1.4's ``by_computer``)."""


def presence_entries(
    view: m.GameView | None, old: Sequence[m.SeatInfo], new: Sequence[m.SeatInfo]
) -> list[tuple[LogEntry, tuple[int, str]]]:
    """What the log must say that no game event says: a seat resigned (with three
    players a computer plays it to the end), a computer took over an absent seat,
    its person came back; each with the seat and a few words for "since your take"."""
    if view is None or view.game_over or len(new) != len(old):
        return []
    out: list[tuple[LogEntry, tuple[int, str]]] = []
    names = [shown_name(s) for s in new]
    for was, now in zip(old, new, strict=True):
        who = seat_label(view.colours, now.seat, names)
        text = short = None
        if now.resigned and not was.resigned:
            if view.players > 2:
                text = _("{who} resigned: a computer plays their seat to the end").format(who=who)
                short = _("resigned, a computer plays on")
            else:
                text, short = _("{who} resigned").format(who=who), _("resigned")
        elif now.resigned:
            continue
        elif now.absent and not was.absent:
            text = _("{who} is away: a computer plays for them").format(who=who)
            short = _(AWAY_NOTE)
        elif was.absent and not now.absent:
            text, short = _("{who} is back").format(who=who), _("back")
        if text is not None and short is not None:
            out.append((LogEntry(text), (now.seat, short)))
    return out


def missed_entries(takes: int, by_computer: int, omitted: int) -> tuple[list[LogEntry], str]:
    """1.4, back after the connection dropped: the log's words before the missed takes
    are shown (how many, how many a computer made for us, how many earlier ones the
    server no longer had), and the notice shown meanwhile."""
    said = ngettext("While you were away: {n} take", "While you were away: {n} takes", takes)
    said = said.format(n=takes)
    if by_computer:
        said += ", " + _("{n} by the computer for you").format(n=by_computer)
    entries = [LogEntry(said)]
    if omitted:
        hidden = ngettext("({n} earlier take not shown)", "({n} earlier takes not shown)", omitted)
        entries.append(LogEntry(hidden.format(n=omitted)))
    notice = ngettext("Replaying {n} missed take", "Replaying {n} missed takes", takes)
    return entries, notice.format(n=takes)


def event_entries(
    events: Sequence[m.GameEvent],
    view: m.GameView | None,
    names: Sequence[str | None],
    cards: Cards,
    by_computer: bool = False,
) -> list[LogEntry]:
    """A batch of public events in words. ``view`` still is the one the take was
    decided on: it says whether a symbol could act at all. ``by_computer`` (1.4): a
    computer made the take for its person's seat, and its line says so."""
    colours = view.colours if view else ("white", "black", "lilac")
    discarded = any(isinstance(e, m.DiscardedEvent) for e in events)
    timed_out = {e.seat for e in events if isinstance(e, m.TimedOutEvent)}
    out: list[LogEntry] = []
    for e in events:
        could_act = True
        if isinstance(e, m.TookEvent) and view is not None:
            symbol = cards.by_id[e.card].symbol if e.card in cards.by_id else None
            could_act = (view.turn_in_row < 2) if symbol == "wand" else bool(view.explodable)
        words = describe_event(e, colours, names, cards, could_act=could_act)
        if words and by_computer and isinstance(e, m.TookEvent):
            words += " " + _(COMPUTER_MARK)
        if words:
            turn = e.seat if isinstance(e, m.MovedEvent | m.PassedCornerEvent) else None
            mine = isinstance(e, m.TookEvent) and e.seat not in timed_out and not by_computer
            chose = e.seat if isinstance(e, m.TookEvent) and mine else None
            out.append(LogEntry(words, turn, chose))
        if isinstance(e, m.TookEvent) and e.ends_game and not discarded:
            who = seat_label(colours, e.seat, names)
            out.append(LogEntry(_("{who} keeps {card}").format(who=who, card=cards.name(e.card))))
    return out


_EVENTS: TypeAdapter[list[m.GameEvent]] = TypeAdapter(list[m.GameEvent])


def keep_log(client: Client | None, entries: Sequence[LogEntry], recent: Recent) -> None:
    """Keep what the log may show, and what the other seats did since our last
    decision (``recent``), on disk, for a client started again."""
    if client is None or client.tokens is None or client.table is None or client.seat is None:
        return
    kept = [(e.text, e.turn, e.decided) for e in entries]
    store, at = LogStore(client.tokens.directory), (client.url, client.table, client.seat)
    # the events as JSON text: read back by the models' strict JSON validation
    heard: dict[str, object] = {"events": _EVENTS.dump_json(recent.heard).decode()}
    heard["notes"], heard["notes_at"] = recent.kept_notes()  # "at": in order with the turns
    heard["decided"] = recent.decided  # we took a card: "since your take", not "so far"
    with contextlib.suppress(OSError):
        store.save(*at, kept)
        store.save_recent(*at, heard)


def restore_log(client: Client, recent: Recent) -> list[LogEntry]:
    """The log a resumed seat saw last, so it shows the last round, not an empty log;
    ``recent`` is fed what it held, so the "since your take" lines are as they were, and
    told whether we had taken a card (a file that does not read: none)."""
    if client.tokens is None or client.table is None or client.seat is None:
        return []
    store, at = LogStore(client.tokens.directory), (client.url, client.table, client.seat)
    heard = store.load_recent(*at) or {}
    notes, decided, order = heard.get("notes"), heard.get("decided"), heard.get("notes_at")
    if isinstance(decided, bool):  # an older client's file does not say: the guess stays
        recent.decided = decided
    with contextlib.suppress(ValidationError, ValueError, TypeError):
        events = _EVENTS.validate_json(str(heard.get("events", "[]")))
        kept = [(int(s), str(w)) for s, w in notes] if isinstance(notes, list) else []
        # an older client's file says not when: after the turns
        fits = isinstance(order, list) and len(order) == len(kept)
        when = [int(n) for n in order] if isinstance(order, list) and fits else []
        recent.feed(events)
        for i, (seat, words) in enumerate(kept):
            recent.note(seat, words, when[i] if when else None)
    return [LogEntry(text, turn, decided) for text, turn, decided in store.load(*at)]


def forget_log(client: Client | None, seat: int | None) -> None:
    """Drop the kept log of ``seat`` once its game is over."""
    if client and client.tokens and client.table and seat is not None:
        LogStore(client.tokens.directory).forget(client.url, client.table, seat)


def keep_seen(client: Client | None, view: m.GameView) -> None:
    """Keep what we see of the table (each kettle's count and top, the deck, the
    takes so far) on disk, to tell what happened while we were away."""
    if client is None or client.tokens is None or client.table is None or client.seat is None:
        return
    seen: dict[str, object] = {
        "counts": [k.count for k in view.kettles],
        "tops": [k.top for k in view.kettles],
        "pawns": list(view.pawns),
        "deck": view.deck_size,
        "ply": view.ply,
    }
    with contextlib.suppress(OSError):
        LogStore(client.tokens.directory).save_seen(client.url, client.table, client.seat, seen)


def restore_seen(client: Client) -> dict[str, object] | None:
    if client.tokens is None or client.table is None or client.seat is None:
        return None
    return LogStore(client.tokens.directory).load_seen(client.url, client.table, client.seat)


def away_entries(
    seen: dict[str, object], view: m.GameView, names: Sequence[str | None], cards: Cards
) -> list[tuple[LogEntry, tuple[int, str] | None]]:
    """What happened while we were away, from what we saw last and the view now: the
    takes in between, each kettle's change, and each pawn that moved on without a take
    (a corner stop, the seat choosing now) (the server sends no history). The game
    rests only waiting for a take, so with no take in between nothing moved."""
    counts, tops, ply = seen.get("counts"), seen.get("tops"), seen.get("ply")
    if not isinstance(counts, list) or not isinstance(tops, list) or not isinstance(ply, int):
        return []
    takes = view.ply - ply
    if takes <= 0 or len(counts) != len(view.kettles):
        return []
    pawns = seen.get("pawns")  # a file of an older client has none: no pawn words
    was = pawns if isinstance(pawns, list) and len(pawns) == len(view.pawns) else view.pawns
    said = ngettext(
        "While you were away: {n} card taken", "While you were away: {n} cards taken", takes
    ).format(n=takes)
    out: list[tuple[LogEntry, tuple[int, str] | None]] = [(LogEntry(said), None)]
    for k in view.kettles:
        grew = k.count - counts[k.seat] if isinstance(counts[k.seat], int) else 0
        changed = grew != 0 or tops[k.seat] != k.top
        moved = _pawn_words(view, k.seat, changed) if was[k.seat] != view.pawns[k.seat] else ""
        if not changed and not moved:
            continue
        more = (
            ngettext("{n} card", "{n} cards", abs(grew)).format(n=f"{grew:+d}") if changed else ""
        )
        now = cards.marked(k.top) if k.top else "-"
        top = _("{change}, top now {card}").format(change=more, card=now) if changed else ""
        note = (k.seat, f"{_(AWAY_WHILE)}: " + "; ".join(w for w in (more, moved) if w))
        said = "; ".join(w for w in (top, moved) if w)
        out.append((LogEntry(f"  {seat_label(view.colours, k.seat, names)}: {said}"), note))
    return out


def _pawn_words(view: m.GameView, seat: int, took: bool) -> str:
    """A pawn that moved while we were away, in words: its turn ended at a corner (no
    card), or it moved and the seat chooses now (ours: the prompt says so); ``took``:
    the kettle changed, which says the rest (a pawn moves on after each take)."""
    if SPACE_LINE[view.pawns[seat]] < 0:
        return _("stopped at a corner, nothing taken")
    if took or (view.to_move == seat and seat == view.seat):
        return ""
    return _("moved on, choosing now") if view.to_move == seat else _("its pawn moved on")


def wrapped_log(entries: Sequence[LogEntry], width: int) -> list[Line]:
    """The entries wrapped to ``width``, the newest at the bottom."""
    return [piece for e in entries for piece in wrap([("fg:#c0c0c0", e.text)], width)]


def newest_alone(entries: Sequence[LogEntry], width: int, rows: int) -> list[Line]:
    """The newest entry in ``rows`` lines of ``width``, said so that it reads alone: a
    follow-on entry (indented, ``  Toad 1 fills the gap``) with the entry it follows,
    in fewer words (no names, no asides in brackets) where the whole does not fit, else
    that entry alone; empty if none of it fits."""
    if not entries:
        return []
    last = entries[-1].text
    heads = [e.text for e in entries[:-1] if not e.text.startswith("  ")]
    tried = [[last]]
    if last.startswith("  ") and heads:
        head, tail = heads[-1], last.strip()
        short = re.sub(r" \([^)]*\)", "", head)
        tried = [[head, last], [f"{head}; {tail}"], [f"{short}; {tail}"], [head], [short]]
    for texts in tried:
        lines = wrapped_log([LogEntry(t) for t in texts], width)
        if len(lines) <= rows:
            return lines
    return []


def _where(above: int, below: int, up: str, down: str) -> str:
    """Words for the lines of the log above and below a page, and the keys to them."""
    parts = [_("{n} more above ({key})").format(n=above, key=up)] if above else []
    parts += [_("{n} below ({key})").format(n=below, key=down)] if below else []
    return ", ".join(parts) or _("the whole log")


@dataclass
class LogPager:
    """How far the log is paged back: ``scroll`` lines up from the newest."""

    scroll: int = 0

    def lines(self, entries: Sequence[LogEntry], width: int, rows: int) -> list[Line]:
        """The log in ``rows`` lines: the entries, wrapped, the newest at the bottom;
        PgUp/PgDn page through what does not fit, ``L`` shows it all (in one line: the
        newest entry alone, the key line names ``L``)."""
        if rows <= 0:
            return []
        wrapped = wrapped_log(entries, width)
        if len(wrapped) <= rows:
            self.scroll = 0
            return wrapped + [[] for _ in range(rows - len(wrapped))]
        newest = wrapped_log(entries[-1:], width)
        follow = entries[-1].text.startswith("  ")  # "Toad 1 fills the gap": of what?
        if rows <= len(newest) + follow:  # no room for a page: the newest entry, if it fits
            self.scroll = 0
            alone = newest_alone(entries, width, rows)
            if alone:
                return [*([] for _ in range(rows - len(alone))), *alone]
            n = len(wrapped)  # else say where the log is
            said = _("log: {n} lines (L: read the log)").format(n=n)
            return [[("fg:#808080 italic", said[:width])]]
        shown, more = self.window(wrapped, rows - 1, "PgUp", "PgDn")
        # the page begins with an entry, not the end of one cut above ("  the wand)"),
        # nor a follow-on of one above ("  Toad 1 fills the gap": of what?)
        starts, at = set(), 0
        for e in entries:
            if not e.text.startswith("  "):
                starts.add(at)
            at += len(wrapped_log([e], width))
        first = len(wrapped) - self.scroll - len(shown)
        cut = next((n for n in range(len(shown)) if first + n in starts), len(shown))
        if cut:
            more = _where(first + cut, self.scroll, "PgUp", "PgDn")
        head: Line = [("fg:#808080 italic", _("log: {where}, L: all").format(where=more)[:width])]
        return [*([] for _ in range(cut)), head, *shown[cut:]]

    def window(self, wrapped: list[Line], page: int, up: str, down: str) -> tuple[list[Line], str]:
        """``page`` lines of the wrapped log, ``scroll`` lines up from the newest, and
        words for what lies above and below them."""
        self.scroll = max(0, min(self.scroll, len(wrapped) - page))
        end = len(wrapped) - self.scroll
        shown = wrapped[max(0, end - page) : end]
        return shown, _where(end - len(shown), self.scroll, up, down)

    def page(
        self,
        head: Line,
        side: list[Line],
        entries: Sequence[LogEntry],
        title: str,
        width: int,
        rows: int,
    ) -> list[Line]:
        """The log on the whole screen (``L``): the kettles (``side``), then every
        entry, wrapped, the newest at the bottom, paged with Up/Down and PgUp/PgDn."""
        foot = wrap_items([_("Up/Down, PgUp/PgDn: scroll"), _("any other key: back")], width)
        room = rows - 1 - len(foot)
        wrapped = [
            *side,
            *wrap([("bold", title)], width),
            *(wrapped_log(entries, width) or [[("fg:#808080", "  " + _("(nothing yet)"))]]),
        ]
        if len(wrapped) > room:
            shown, more = self.window(wrapped, room - 1, _("Up"), _("Down"))
            shown = [[("fg:#808080 italic", more)], *shown]
        else:
            self.scroll = 0
            shown = wrapped
        return [head, *shown, *[[] for _ in range(room - len(shown))], *foot]

    def key(self, key: str) -> bool:
        """Up/Down and PgUp/PgDn on the log page; False for any other key (back)."""
        if key in ("up", "k", "pageup"):
            self.scroll += 1 if key in ("up", "k") else 10
        elif key in ("down", "j", "pagedown", " "):
            self.scroll = max(0, self.scroll - (1 if key in ("down", "j") else 10))
        else:
            return False
        return True
