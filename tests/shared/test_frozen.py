"""``shared.frozen.quick``: the ``__init__`` it gives a frozen dataclass makes the very
object the dataclass's own ``__init__`` makes, for every class it is used on."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import server.core.handle
import server.core.life
import shared.clock
import shared.events
import shared.scoring
import shared.view
from shared.frozen import QUICK, quick

USED_ON = {
    shared.events.Moved,
    shared.events.PassedCorner,
    shared.events.Took,
    shared.events.Exploded,
    shared.events.ExtraTurn,
    shared.events.Refilled,
    shared.events.Discarded,
    shared.events.TurnPassed,
    shared.events.TimedOut,
    shared.events.GameOver,
    shared.view.KettleView,
    shared.view.TakeChoice,
    shared.view.View,
    shared.scoring.IngredientScore,
    shared.scoring.RecipeScore,
    shared.scoring.Score,
    shared.scoring.Result,
    shared.clock.ClockView,
    server.core.handle.PublicSeat,
    server.core.life.TableLife,
}


def test_it_is_used_where_the_hot_path_makes_records() -> None:
    assert set(QUICK) == USED_ON


def _slots(obj: Any) -> list[Any]:
    return [getattr(obj, f.name) for f in dataclasses.fields(obj)]


@settings(max_examples=200, deadline=None)
@given(cls=st.sampled_from(sorted(USED_ON, key=lambda c: c.__qualname__)), data=st.data())
def test_quick_makes_what_the_dataclass_makes(cls: type, data: st.DataObject) -> None:
    """Any values (it only stores them), given by position or by name, some left to
    their defaults: the same fields hold the very same objects, the objects are
    equal, hash alike where they hash, and stay frozen."""
    fields = dataclasses.fields(cls)
    values = [object() if data.draw(st.booleans()) else data.draw(st.integers()) for _ in fields]
    required = sum(f.default is dataclasses.MISSING for f in fields)
    given_n = data.draw(st.integers(required, len(fields)))
    by_name = data.draw(st.booleans())
    args: tuple[Any, ...] = () if by_name else tuple(values[:given_n])
    kwargs = {f.name: v for f, v in zip(fields[:given_n], values, strict=False)} if by_name else {}
    fast = cls(*args, **kwargs)
    slow = object.__new__(cls)
    QUICK[cls](slow, *args, **kwargs)
    assert all(a is b for a, b in zip(_slots(fast), _slots(slow), strict=True))
    assert fast == slow and repr(fast) == repr(slow)
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(fast, fields[0].name, 1)


def test_a_wrong_call_fails_as_the_dataclass_does() -> None:
    with pytest.raises(TypeError):
        shared.events.TurnPassed()  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        shared.events.TurnPassed(1, 2)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        shared.events.TurnPassed(sear=1)  # type: ignore[call-arg]


def test_quick_refuses_what_it_cannot_make_alike() -> None:
    @dataclasses.dataclass
    class Mutable:
        a: int

    @dataclasses.dataclass(frozen=True)
    class NoSlots:
        a: int

    @dataclasses.dataclass(frozen=True, slots=True)
    class Factory:
        a: list[int] = dataclasses.field(default_factory=list)

    @dataclasses.dataclass(frozen=True, slots=True)
    class Post:
        a: int

        def __post_init__(self) -> None:
            pass

    for cls in (Mutable, NoSlots, Factory, Post):
        with pytest.raises(TypeError):
            quick(cls)
