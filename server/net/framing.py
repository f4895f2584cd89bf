"""How what a table delivers becomes frames, for one protocol version and mode.

``Framing`` is the one place that turns an occupant's deliveries (views, updates,
results, presence, chat) into messages: a local ``Session`` and, on the node that owns
a table, the ``RemoteOccupant`` standing for a session of another node frame alike, so
a forwarded frame has the very bytes a local one has.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from pydantic import BaseModel

from protocol import messages as m
from protocol.wire import encode_as, encode_events, encode_update, encode_view
from shared.analysis import Suggestion
from shared.events import Event, TimedOut
from shared.record import action_to_dict
from shared.view import View

from ..core.handle import TableFacts
from ..core.journal import Step
from .summaries import presence_source

__all__ = ["V1_0_LACKS", "Frame", "Framing"]

V1_0_LACKS = frozenset({"result", "clock", "takes"})
"""The view's fields protocol 1.0 does not know."""
NOTHING: frozenset[str] = frozenset()

Frame = Callable[[int], bytes]
"""A message to send, as the function making its frame from the connection's ``seq``."""
_ABSENT_AFTER: int = m.ClockInfo.model_fields["absent_after"].default


def _as_1_1(view: View) -> View:
    """``view`` as protocol 1.1 has it: its clock without the 1.2 fields (``timeouts``,
    ``absent_after``), which is a new view only when they are not at their defaults
    (left out of the frame then anyway)."""
    clock = view.clock
    if clock is None or (not clock.timeouts and clock.absent_after == _ABSENT_AFTER):
        return view
    return replace(view, clock=replace(clock, timeouts=(), absent_after=_ABSENT_AFTER))


class Framing:
    """Delivers a table's traffic as frames through ``send``, for protocol
    1.``minor`` (``combined``: one ``update`` per new state, which answers the take
    whose id the table gives it, ``re``)."""

    minor = 0
    combined = False

    def send(self, message: BaseModel | Frame, re: int | None = None) -> None:
        raise NotImplementedError

    @property
    def _lacks(self) -> frozenset[str]:
        """The view's fields this session's protocol version does not know: 1.0 knows
        no result, clock or takes (they are left out of its frames)."""
        return V1_0_LACKS if self.minor == 0 else NOTHING

    def deliver_view(self, table: TableFacts, view: View, version: int) -> None:
        lacks = self._lacks
        if self.minor == 1:
            view = _as_1_1(view)
        if self.combined:
            self.send(lambda seq: encode_update((), view, version, seq, None, lacks))
        else:
            self.send(lambda seq: encode_view(view, version, seq, lacks))

    def deliver_update(
        self,
        table: TableFacts,
        events: Sequence[Event],
        view: View,
        version: int,
        re: int | None = None,
        by_computer: bool = False,
    ) -> None:
        lacks = self._lacks
        if self.minor == 1:
            view = _as_1_1(view)
        mark = by_computer and self.minor >= 4  # 1.4's mark of a computer's take
        if self.combined:
            self.send(lambda seq: encode_update(events, view, version, seq, re, lacks, mark))
            return
        if self.minor == 0 and events and isinstance(events[0], TimedOut):
            events = events[1:]  # a 1.1 event (the table's, never the engine's)
        if events:
            self.send(lambda seq: encode_events(events, version, seq, mark))
        self.send(lambda seq: encode_view(view, version, seq, lacks))

    def deliver_missed(
        self,
        table: TableFacts,
        since: int,
        version: int,
        steps: Sequence[Step],
        omitted: int,
        re: int,
    ) -> None:
        """1.4's ``missed``: each step's events as its ``update`` carried them."""
        source = {
            "since": since,
            "state_version": version,
            "omitted": omitted,
            "steps": [
                {"state_version": s.version, "by_computer": s.by_computer, "events": s.events}
                for s in steps
            ],
        }
        self.send(lambda seq: encode_as(m.MissedMsg, source, seq=seq, re=re))

    def deliver_hint(self, table: TableFacts, version: int, hint: Suggestion, re: int) -> None:
        """1.5's ``hint``."""
        msg = m.HintMsg(
            state_version=version,
            take=m.RecordActionInfo.model_validate(action_to_dict(hint.take), strict=False),
            value=hint.value,
            points=hint.points,
            budget=hint.budget,
        )
        self.send(lambda seq: encode_as(m.HintMsg, msg, seq=seq, re=re))

    def deliver_result(self, table: TableFacts, view: View, version: int) -> None:
        """1.1: the final view of a game that ended early (1.0 had none: its clients
        learn the end from ``presence``)."""
        if self.minor >= 1:
            self.deliver_view(table, view, version)

    def deliver_presence(self, table: TableFacts) -> None:
        presence = presence_source(table, self.minor)
        self.send(lambda seq: encode_as(m.PresenceMsg, presence, seq=seq))

    def deliver_chat(self, table: TableFacts, seat: int | None, name: str, text: str) -> None:
        self.send(m.ChatLineMsg(seat=seat, name=name, text=text))

    def deliver_finished(self, table: TableFacts, reason: str, seat: int | None) -> None:
        """The table is finished: presence says so (after a game over the final view,
        with every kettle revealed, has already been sent)."""
        self.deliver_presence(table)
