"""From the engine's public outputs to protocol models, and a table's options and time
rules both ways.

``view_message`` (from ``shared.view.view``) and ``events_message`` (from the engine's
public events) build the models of what the server sends, never from a ``Game``. The
server itself sends the same views and events through ``protocol.wire`` without
building models; the tests hold those bytes to these models. Clients, tools and the
docs use the models.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, fields
from functools import cache
from typing import Any

from pydantic import TypeAdapter

from shared.analysis import Analysis
from shared.cards import CARDS, COLOURS, PLAYER_COLOURS, RECIPES, THIRD_COLOURS
from shared.clock import TimeRules
from shared.events import Event
from shared.options import Options
from shared.record import action_to_dict
from shared.view import View

from .messages import (
    AnalysisMsg,
    CardInfo,
    Catalogue,
    DecisionInfo,
    EventsMsg,
    GameEvent,
    GameView,
    RecipeInfo,
    RecordActionInfo,
    SeatAnalysis,
    TableOptions,
    Thresholds,
    Timing,
    ViewMsg,
)

__all__ = [
    "analysis_message",
    "catalogue",
    "event_model",
    "events_message",
    "options_from_shared",
    "options_to_shared",
    "timing_from_shared",
    "timing_to_shared",
    "view_message",
    "view_model",
]

_EVENT_ADAPTER: TypeAdapter[GameEvent] = TypeAdapter(GameEvent)


@cache
def catalogue() -> Catalogue:
    """The card set of ``shared.cards`` as sent in ``welcome``."""
    return Catalogue(
        colours=COLOURS,
        player_colours=PLAYER_COLOURS,
        third_colours=THIRD_COLOURS,
        cards=tuple(
            CardInfo(
                id=c.id,
                ingredient=c.key,
                colour=c.colour,
                value=c.value,
                plant=c.plant,
                symbol=c.symbol,
            )
            for c in CARDS
        ),
        recipes=tuple(RecipeInfo.model_validate(asdict(r)) for r in RECIPES.values()),
    )


def options_from_shared(options: Options | dict[str, Any], *, seed: bool = False) -> TableOptions:
    """The protocol's ``TableOptions`` for the engine's ``Options`` (or their record
    dict): the public options, without the seed, unless ``seed`` is set (for a
    ``create_table`` request). The two types have the same fields (a test holds them)."""
    o = options if isinstance(options, Options) else Options.from_dict(options)
    if not seed:
        o = o.public()
    return TableOptions.model_validate(o, from_attributes=True)


def options_to_shared(options: TableOptions) -> Options:
    """The engine's ``Options`` for a ``create_table`` request (seed included)."""
    return Options(**dict(options))


def timing_from_shared(rules: TimeRules) -> Timing:
    """The protocol's ``Timing`` for a table's ``TimeRules`` (whole seconds)."""
    return Timing(
        move=None if rules.move is None else round(rules.move),
        reserve=round(rules.reserve),
        grace=round(rules.grace),
        absent_after=rules.absent_after,
    )


def timing_to_shared(timing: Timing | None) -> TimeRules:
    """The engine's ``TimeRules`` for a ``Timing`` (None: the defaults); a
    ``RuleError`` for rules the engine refuses."""
    if timing is None:
        return TimeRules()
    return TimeRules(timing.move, timing.reserve, timing.grace, timing.absent_after)


def _attributes(obj: Any) -> dict[str, Any]:
    """A dataclass's fields, one level deep (its values are tuples and plain data, or
    dataclasses that the models read by attribute): far faster than ``asdict``."""
    return {f.name: getattr(obj, f.name) for f in fields(obj)}


def view_model(view: View) -> GameView:
    """``shared.view.View`` as a model (its public options, never a seed)."""
    return GameView.model_validate(_attributes(view), from_attributes=True)


def view_message(view: View, state_version: int) -> ViewMsg:
    """The ``view`` message for one seat's (or a spectator's) view."""
    return ViewMsg(state_version=state_version, view=view_model(view))


def event_model(event: Event) -> GameEvent:
    """One public event of ``shared.events`` as a model."""
    data = _attributes(event)
    data["kind"] = event.kind
    return _EVENT_ADAPTER.validate_python(data, from_attributes=True)


def events_message(events: Iterable[Event], state_version: int) -> EventsMsg:
    """The ``events`` message for public events leading to ``state_version``."""
    return EventsMsg(state_version=state_version, events=tuple(event_model(e) for e in events))


def analysis_message(table: str, analysis: Analysis) -> AnalysisMsg:
    """The ``analysis`` message (1.5) of a game's analysis (``shared.analysis``)."""

    def take(t: Any) -> RecordActionInfo:
        return RecordActionInfo.model_validate(action_to_dict(t), strict=False)

    return AnalysisMsg(
        table=table,
        budget=analysis.budget,
        thresholds=Thresholds.model_validate(dict(analysis.thresholds)),
        decisions=tuple(
            DecisionInfo(
                ply=d.ply,
                seat=d.seat,
                take=take(d.take),
                best=take(d.best),
                loss=d.cost,
                noise=d.noise,
                mark=d.mark,  # type: ignore[arg-type]
                value=d.value,
                points=d.points,
            )
            for d in analysis.decisions
        ),
        seats=tuple(
            SeatAnalysis(
                seat=s.seat,
                decisions=s.decisions,
                lost=s.lost,
                inaccuracies=s.inaccuracies,
                mistakes=s.mistakes,
                blunders=s.blunders,
                best=s.best,
                worst=s.worst,
                final=s.final,
                series=s.series,
            )
            for s in analysis.summaries
        ),
    )
