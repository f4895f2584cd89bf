"""From protocol messages back to the engine's public types (``shared.view.View``,
``shared.events``), so a client can feed ``shared.bots`` or other engine helpers with
exactly what it received. The inverse of ``protocol.convert``.
"""

from __future__ import annotations

from collections.abc import Iterable

from protocol import messages as m
from protocol.convert import options_to_shared
from shared import events as ev
from shared.clock import ClockView
from shared.game import Take
from shared.result import GameResult
from shared.view import KettleView, TakeChoice, View

__all__ = ["event_from_model", "events_from_models", "view_from_model"]

_EVENT_TYPES: dict[str, type[ev.Event]] = {
    cls.kind: cls
    for cls in (
        ev.Moved,
        ev.PassedCorner,
        ev.Took,
        ev.Exploded,
        ev.ExtraTurn,
        ev.Refilled,
        ev.Discarded,
        ev.TurnPassed,
        ev.GameOver,
        ev.TimedOut,
    )
}


def view_from_model(v: m.GameView) -> View:
    """A ``GameView`` as the engine's ``View`` (what a seat sees, nothing more)."""
    d = v.model_dump()  # nested models become dicts, tuples stay tuples
    d["options"] = options_to_shared(v.options)
    d["kettles"] = tuple(KettleView(**k) for k in d["kettles"])
    d["choices"] = tuple(TakeChoice(**c) for c in d["choices"])
    if v.result is not None:
        d["result"] = GameResult(**d["result"])
    if v.clock is not None:
        d["clock"] = ClockView(**d["clock"])
    if v.takes is not None:
        d["takes"] = tuple(Take(**t) for t in d["takes"])
    return View(**d)


def event_from_model(e: m.GameEvent) -> ev.Event:
    data = e.model_dump()
    data.pop("kind", None)  # the tag is always serialized
    if isinstance(e, m.GameOverEvent):
        data["scores"] = tuple(s.model_dump() for s in e.scores)
    return _EVENT_TYPES[e.kind](**data)


def events_from_models(events: Iterable[m.GameEvent]) -> list[ev.Event]:
    return [event_from_model(e) for e in events]
