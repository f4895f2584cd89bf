"""The move-by-move review of a game: the board after each take, forward and back, with
that take in words and its cell marked; from the score screen (``v``) and from
``kupferkessel replay FILE --step``.

A review is a list of frames (a view and the events that led to it), so a game the
client watched and a game record read from a file step through the same screen.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from prompt_toolkit.application import Application
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.layout import Layout, Window
from prompt_toolkit.layout.controls import FormattedTextControl

from client.i18n import _
from protocol import messages as m
from protocol.convert import event_model, view_model
from shared.events import Event
from shared.record import Record
from shared.view import view as view_of

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
    side_by_side,
    wrap,
    wrap_items,
)

__all__ = ["Frame", "History", "Review", "frames_of_record", "run_review"]


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
        self, frames: Sequence[Frame], names: Sequence[str | None] = (), *, at_end: bool = False
    ) -> None:
        self.frames = list(frames)
        self.names = list(names)
        self.index = len(self.frames) - 1 if at_end else 0
        # a frame of no take (the deal, the first pawn's move before anything is taken,
        # the first view of a screen that came in mid-game) is no take of its own; the
        # takes are counted as the game counts them, so a screen that came back after
        # take 32 does not call it the start
        self._took = [any(isinstance(e, m.TookEvent) for e in f.events) for f in self.frames]
        self._takes = [f.view.ply for f in self.frames]

    def step(self) -> str:
        """The step shown, in words: ``the start``, ``take 3 of 35``."""
        total = self._takes[-1] if self._takes else 0
        k = self._takes[self.index] if self._takes else 0
        if self._took and self._took[self.index]:
            return _("take {n} of {count}").format(n=k, count=total)
        return _("the start") if k == 0 else _("after take {n} of {count}").format(n=k, count=total)

    def key(self, key: str) -> bool:
        """A key: step (Right/Left, PgDn/PgUp by five, Home/End); False: close it."""
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
        keys = [_("Left/Right: a take"), _("PgUp/PgDn: five"), "Home/End", _("q/Esc: back")]
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
