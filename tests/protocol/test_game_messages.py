"""Game messages built from real engine games, and models that mirror the engine's
dataclasses field for field (a field added in shared/ must be added here too)."""

from __future__ import annotations

import dataclasses
import random

import msgpack
import pytest

import shared.events as ev
from protocol import (
    EVENT_MODELS,
    ClockInfo,
    GameView,
    IngredientScore,
    KettleState,
    RecipeInfo,
    RecipeScore,
    ResultInfo,
    Score,
    TableOptions,
    TakeChoice,
    ViewMsg,
    catalogue,
    decode_server,
    encode,
    event_model,
    events_message,
    options_from_shared,
    options_to_shared,
    view_message,
)
from protocol import messages as m
from protocol.convert import timing_from_shared, timing_to_shared
from shared import scoring
from shared import view as sv
from shared.cards import CARDS, RECIPES
from shared.clock import ClockView, TimeRules
from shared.errors import RuleError
from shared.game import Game
from shared.options import Options
from shared.result import GameResult

from .strategies import played

EVENT_CLASSES = [
    getattr(ev, name)
    for name in ev.__all__
    if isinstance(getattr(ev, name), type) and getattr(ev, name) is not ev.Event
]


def names(cls: type) -> set[str]:
    return {f.name for f in dataclasses.fields(cls)}


@pytest.mark.parametrize(
    ("dataclass", "model", "extra"),
    [
        (sv.View, GameView, set()),
        (sv.KettleView, KettleState, set()),
        (sv.TakeChoice, TakeChoice, set()),
        (GameResult, ResultInfo, set()),
        (ClockView, ClockInfo, set()),
        (scoring.Score, Score, set()),
        (scoring.IngredientScore, IngredientScore, {"total"}),
        (scoring.RecipeScore, RecipeScore, set()),
        (Options, TableOptions, set()),
        (type(next(iter(RECIPES.values()))), RecipeInfo, set()),
    ],
)
def test_models_mirror_dataclasses(dataclass: type, model: type, extra: set[str]) -> None:
    assert set(model.model_fields) == names(dataclass) | extra


@pytest.mark.parametrize("cls", EVENT_CLASSES, ids=lambda c: c.kind)
def test_every_event_kind_has_a_model(cls: type[ev.Event]) -> None:
    assert cls.kind in EVENT_MODELS
    assert set(EVENT_MODELS[cls.kind].model_fields) == names(cls) | {"kind"}


def test_no_event_model_without_an_engine_event() -> None:
    assert set(EVENT_MODELS) == {c.kind for c in EVENT_CLASSES}


def test_catalogue_is_the_card_set() -> None:
    cat = catalogue()
    assert [c.id for c in cat.cards] == [c.id for c in CARDS]
    assert [(c.ingredient, c.colour, c.value, c.plant, c.symbol) for c in cat.cards] == [
        (c.key, c.colour, c.value, c.plant, c.symbol) for c in CARDS
    ]
    assert {r.id for r in cat.recipes} == set(RECIPES)


def test_options_both_ways() -> None:
    opts = Options(players=3, recipes=True, memory="casual", third_colour="gray", seed=9)
    wire = options_from_shared(opts)
    assert wire.seed is None  # never sent
    assert options_to_shared(wire.model_copy(update={"seed": 9})) == opts
    assert options_from_shared(opts.to_dict(public=True)) == wire


def round_trip(msg: ViewMsg) -> None:
    assert decode_server(encode(msg, seq=1)) == msg.model_copy(update={"seq": 1})


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("memory", ["strict", "casual"])
def test_played_games_round_trip(players: int, memory: str) -> None:
    """Every view of every seat and spectator, and every batch of events, of whole games."""
    kinds: set[str] = set()
    for seed in range(4):
        events: list[ev.Event] = []
        game = Game.deal(
            Options(players=players, seed=seed, recipes=seed % 2 == 0, memory=memory), events
        )
        rnd = random.Random(seed)
        version = 0
        while True:
            msg = events_message(events, version)
            assert decode_server(encode(msg)) == msg
            kinds.update(e.kind for e in msg.events)
            for seat in [*range(players), None]:
                round_trip(view_message(sv.view(game, seat), version))
            if game.over:
                break
            events = []
            game.apply(rnd.choice(game.legal_actions()), events=events)
            version += 1
    assert {"moved", "took", "refilled", "turn_passed", "game_over"} <= kinds


def test_every_event_kind_converts() -> None:
    samples = [
        ev.Moved(0, 3, 5, (4,)),
        ev.PassedCorner(1, 10),
        ev.Took(0, "moss-2", "col2", 1, 2, True, False),
        ev.Exploded(0, 1, "toad-3", "deck"),
        ev.ExtraTurn(0),
        ev.Refilled(1, 2, "vine-4"),
        ev.Discarded(1, "root-1"),
        ev.TurnPassed(2),
        ev.TimedOut(1),
    ]
    game = played(2, seed=5)
    over: list[ev.Event] = []
    view = sv.view(game, None)
    assert view.scores is not None
    over.append(ev.GameOver(game.ended_by, view.winners, view.scores))
    msg = events_message([*samples, *over], 12)
    assert {e.kind for e in msg.events} == {c.kind for c in EVENT_CLASSES}
    for src, model in zip([*samples, *over], msg.events, strict=True):
        assert model.model_dump(mode="json") == msgpack.unpackb(msgpack.packb(src.to_dict()))
        assert event_model(src) == model
    assert decode_server(encode(msg)) == msg


def test_no_secret_reaches_a_view_message() -> None:
    """The seed never appears, and a seat's mid-game message holds no other seat's
    recipes or hidden kettle cards (the view decides; the converter adds nothing)."""
    game = played(2, seed=77, plies=12, recipes=True)
    msg = view_message(sv.view(game, 0), 12)
    raw = msgpack.unpackb(encode(msg))
    assert "seed" not in raw["view"]["options"]
    assert raw["view"]["recipes"][1] is None
    assert all("cards" not in k for k in raw["view"]["kettles"])
    spectator = msgpack.unpackb(encode(view_message(sv.view(game, None), 12)))
    assert spectator["view"]["recipes"] == [None, None]
    assert "seat" not in spectator["view"]


def test_game_over_view_reveals_everything() -> None:
    game = played(3, seed=4, recipes=True)
    raw = msgpack.unpackb(encode(view_message(sv.view(game, None), 99)))["view"]
    assert raw["game_over"] is True
    assert all(k["cards"] for k in raw["kettles"])
    assert all(r is not None for r in raw["recipes"])
    assert [s["total"] for s in raw["scores"]] == [s.total for s in scoring.score_game(game).scores]


def test_time_rules_both_ways() -> None:
    """The protocol's ``Timing`` and the engine's ``TimeRules`` have the same fields;
    whole seconds cross unchanged, and no timing means the default rules."""
    assert list(m.Timing.model_fields) == [f.name for f in dataclasses.fields(TimeRules)]
    for rules in (TimeRules(), TimeRules(move=30.0, reserve=120.0, grace=5.0, absent_after=2)):
        assert timing_to_shared(timing_from_shared(rules)) == rules
    assert timing_to_shared(None) == TimeRules()
    assert timing_from_shared(TimeRules(move=29.6)).move == 30
    with pytest.raises(RuleError):
        timing_to_shared(m.Timing(move=1).model_copy(update={"move": 0}))
