"""The move-by-move review of a game: the board after each take, forward and back, with
that take in words and its cell marked; from the score screen (``v``), a game of the
player's history and ``kupferkessel replay FILE --step``. With the server's analysis
(protocol 1.5, asked for with ``a`` where the review knows its game's table) each take
also says its mark, what it cost and the expert's card, and the start each seat's
points lost.

A review is a list of frames (a view and the events that led to it), so a game the
client watched and a game record read from a file step through the same screen.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from prompt_toolkit.application import Application
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.layout import Layout, Window
from prompt_toolkit.layout.controls import FormattedTextControl

from client.i18n import N_, _, fmt_list, fmt_number, ngettext
from client.lib.players import PlayerRequests
from protocol import messages as m
from protocol.convert import event_model, view_model
from shared.events import Event
from shared.record import Record
from shared.view import view as view_of

from .host import ScreenHost
from .keys import key_bindings
from .render import (
    Cards,
    Line,
    Size,
    describe_event,
    join_lines,
    pad,
    render_grid,
    render_side,
    seat_label,
    side_by_side,
    wrap,
    wrap_items,
)

__all__ = ["Frame", "History", "Review", "frames_of_record", "run_review", "summary", "verdict"]

MARK_WORDS = {
    "inaccuracy": N_("an inaccuracy"),
    "mistake": N_("a mistake"),
    "blunder": N_("a blunder"),
}
"""A decision's mark (protocol 1.5's ``mark``) in words."""
MARK_STYLE = {"inaccuracy": "fg:#d7d75f", "mistake": "fg:#ff8700", "blunder": "bold fg:#ff5f5f"}


@dataclass(frozen=True)
class Frame:
    """The board after a step, and the public events of that step."""

    view: m.GameView
    events: tuple[m.GameEvent, ...] = ()


def frames_of_record(record: Record) -> list[Frame]:
    """Every step of a game record, as a spectator sees it: the start, then each take
    (``RecordError`` names an illegal action)."""
    events: list[Event] = []
    game = record.start(events)
    frames = [Frame(view_model(view_of(game, None)), tuple(map(event_model, events)))]
    for take in record.actions:
        events = []
        game.apply(take, events=events)
        frames.append(Frame(view_model(view_of(game, None)), tuple(map(event_model, events))))
    return frames


class History:
    """Every view seen at a table, each with the events that came before it: the
    frames of the review after the game (from the first view seen)."""

    def __init__(self) -> None:
        self.frames: list[Frame] = []
        self._heard: list[m.GameEvent] = []

    def heard(self, events: Sequence[m.GameEvent]) -> None:
        self._heard += events

    def saw(self, view: m.GameView) -> None:
        """A view: a new frame, or, when it shows what the last frame shows (the start,
        its events said after the first view), the events join that frame."""
        last = self.frames[-1] if self.frames else None
        if last is not None and last.view == view:
            self.frames[-1] = Frame(view, (*last.events, *self._heard))
        else:
            self.frames.append(Frame(view, tuple(self._heard)))
        self._heard = []


class Review:
    """Stepping through ``frames`` (``names``: the seats' names, if known)."""

    def __init__(
        self,
        frames: Sequence[Frame],
        names: Sequence[str | None] = (),
        *,
        at_end: bool = False,
        ask: Callable[[], None] | None = None,
    ) -> None:
        """``ask``: how to ask the server for the game's analysis (``a``; None: this
        review's game cannot be analysed), which then comes to ``analysed``."""
        self.frames = list(frames)
        self.names = list(names)
        self.index = len(self.frames) - 1 if at_end else 0
        self.analysis: m.AnalysisMsg | None = None
        self._decisions: dict[int, m.DecisionInfo] = {}
        self._ask = ask
        self.asked = False
        # a frame of no take (the deal, the first pawn's move before anything is taken,
        # the first view of a screen that came in mid-game) is no take of its own; the
        # takes are counted as the game counts them, so a screen that came back after
        # take 32 does not call it the start
        self._took = [any(isinstance(e, m.TookEvent) for e in f.events) for f in self.frames]
        self._takes = [f.view.ply for f in self.frames]

    @classmethod
    def of_game(
        cls,
        frames: Sequence[Frame],
        names: Sequence[str | None],
        client: PlayerRequests,
        table: str | None,
        host: ScreenHost,
        *,
        at_end: bool = False,
    ) -> Review:
        """The review of the game at ``table`` whose ``a`` asks ``client`` for its
        analysis through ``host`` (``act`` runs it, ``say`` tells its progress); no
        ``a`` where the server makes none (1.4 or older) or the table is unknown."""
        review = cls(frames, names, at_end=at_end)
        if table is not None and client.speaks_analysis:
            review._ask = lambda: host.act(lambda: review.fetch(client, table, host.say))
        return review

    def step(self) -> str:
        """The step shown, in words: ``the start``, ``take 3 of 35``."""
        total = self._takes[-1] if self._takes else 0
        k = self._takes[self.index] if self._takes else 0
        if self._took and self._took[self.index]:
            return _("take {n} of {count}").format(n=k, count=total)
        return _("the start") if k == 0 else _("after take {n} of {count}").format(n=k, count=total)

    def analysed(self, analysis: m.AnalysisMsg) -> None:
        """The game's analysis came: shown with each take from now on."""
        self.analysis = analysis
        self._decisions = {d.ply: d for d in analysis.decisions}

    async def fetch(self, client: PlayerRequests, table: str, say: Callable[[str], None]) -> None:
        """Ask ``client`` for the analysis of the game at ``table`` (1.5), saying so;
        refused (its words go to the status line), ``a`` asks again."""
        say(_("the expert analyses the game: the first time takes a while"))
        try:
            self.analysed(await client.analysis(table))
        finally:
            self.asked = self.analysis is not None
        say(_("analysed: each take says what the expert thinks of it"))

    def decision(self) -> m.DecisionInfo | None:
        """The analysis of the take that led to the step shown, if there is one."""
        frame = self.frames[self.index]
        took = next((e for e in frame.events if isinstance(e, m.TookEvent)), None)
        d = self._decisions.get(frame.view.ply - 1) if took is not None else None
        if d is None or took is None or (d.seat, d.take.take) != (took.seat, took.card):
            return None
        return d

    def key(self, key: str) -> bool:
        """A key: step (Right/Left, PgDn/PgUp by five, Home/End), ``a`` the analysis
        (once, where it can be asked for); False: close it."""
        if key == "a" and self._ask is not None:
            if not self.asked and self.analysis is None:
                self.asked = True
                self._ask()
            return True
        last = len(self.frames) - 1
        steps = {"right": 1, "l": 1, " ": 1, "left": -1, "h": -1, "pagedown": 5, "pageup": -5}
        if key in steps:
            self.index = max(0, min(last, self.index + steps[key]))
        elif key in ("home", "0"):
            self.index = 0
        elif key in ("end", "$"):
            self.index = last
        else:
            return False
        return True

    def lines(
        self,
        width: int,
        height: int,
        cards: Cards,
        catalogue: m.Catalogue,
        *,
        screen: int | None = None,
    ) -> list[Line]:
        """The review screen in ``height`` lines: the board, the kettles, the step. The
        cards are as large as on the table screen of a terminal ``screen`` lines high
        (default ``height``), smaller only when the grid would not fit."""
        frame = self.frames[self.index]
        v = frame.view
        size = Size(width, max(height, screen or height))
        if size.grid_height + 3 > height:  # the title and the keys: smaller cards
            size = Size(width, height)
        took = next((e for e in frame.events if isinstance(e, m.TookEvent)), None)
        moved = next((e for e in frame.events if isinstance(e, m.MovedEvent)), None)
        path: tuple[int, ...] = ()
        if moved is not None:
            n = (moved.to_space - moved.from_space) % 20
            path = tuple((moved.from_space + i) % 20 for i in range(1, n + 1))
        cell = (took.row, took.col) if took is not None else None
        grid = render_grid(v, cards, None, None, size, cell, path)
        side = render_side(
            v, cards, catalogue, self.names, (), None, size.side_width, compact=not size.side_right
        )
        step = self.step()
        words = [describe_event(e, v.colours, self.names, cards) for e in frame.events]
        said: list[Line] = []
        for w in words:
            said += wrap([("fg:#c0c0c0", w)], width) if w else []
        said += self._analysis_lines(v, cards, width)
        keys = [_("Left/Right: a take"), _("PgUp/PgDn: five"), "Home/End", _("q/Esc: back")]
        if self._ask is not None and self.analysis is None:
            keys.insert(3, _("analysing...") if self.asked else _("a: the expert's analysis"))
        foot = wrap_items(keys, width)
        title = " Kupferkessel Co. - " + _("review: {step}").format(step=step)
        if len(title) > width:
            title = " " + _("review: {step}").format(step=step)
        out: list[Line] = [[("bold", title)]]
        if size.side_right:
            out += side_by_side(grid, side, size.grid_width)
        else:
            out += grid + side
        room = height - len(foot) - 1
        body = out[: max(1, room - len(said))] + said
        return body[:room] + [[] for _ in range(room - len(body))] + foot

    def _analysis_lines(self, v: m.GameView, cards: Cards, width: int) -> list[Line]:
        """What the analysis says of the step shown: the take's verdict, or at the start
        each seat's summary."""
        if self.analysis is None:
            return []
        d = self.decision()
        if d is not None:
            return wrap([(MARK_STYLE.get(d.mark or "", "fg:#87d787"), verdict(d, cards))], width)
        if self.index != 0:
            return []
        out: list[Line] = []
        for s in self.analysis.seats:
            out += wrap([("fg:#87d787", summary(s, v.colours, self.names))], width)
        return out


def verdict(d: m.DecisionInfo, cards: Cards) -> str:
    """A decision of the analysis in words: the expert's choice, or what it cost, its
    mark and the expert's card."""
    if d.loss <= 0 or d.take == d.best:
        return _("Expert: the best take.")
    said = {"loss": fmt_number(d.loss), "card": cards.name(d.best.take)}
    if d.mark is None:
        return _("Expert: {loss} points lost; better {card}.").format(**said)
    mark = _(MARK_WORDS[d.mark])
    return _("Expert: {mark}, {loss} points lost; better {card}.").format(mark=mark, **said)


def summary(s: m.SeatAnalysis, colours: Sequence[str], names: Sequence[str | None]) -> str:
    """A seat's summary of the analysis in words: points lost and marks."""
    marks = fmt_list(
        [
            ngettext("{n} blunder", "{n} blunders", s.blunders).format(n=s.blunders),
            ngettext("{n} mistake", "{n} mistakes", s.mistakes).format(n=s.mistakes),
            ngettext("{n} inaccuracy", "{n} inaccuracies", s.inaccuracies).format(n=s.inaccuracies),
        ]
    )
    return _("{who}: {lost} points lost by the expert's measure; {marks}").format(
        who=seat_label(colours, s.seat, names), lost=fmt_number(s.lost), marks=marks
    )


def run_review(review: Review, catalogue: m.Catalogue) -> int:
    """Show ``review`` full screen until q or Esc (``kupferkessel replay --step``)."""
    app: Application[int]

    def press(key: str) -> None:
        if not review.key(key):
            app.exit(result=0) if key in ("q", "escape") else None
        app.invalidate()

    def text() -> StyleAndTextTuples:
        size = app.output.get_size()
        width, height = max(1, size.columns), max(1, size.rows)
        cards = Cards.of(catalogue)
        return join_lines([pad(ln, width) for ln in review.lines(width, height, cards, catalogue)])

    app = Application(
        layout=Layout(Window(FormattedTextControl(text, focusable=True, show_cursor=False))),
        key_bindings=key_bindings(press),
        full_screen=True,
    )
    return app.run()
