"""``shared.frozen.fast_init``: the same objects as the dataclass ``__init__`` makes."""

from __future__ import annotations

import dataclasses

import pytest

from shared.events import Moved, Took
from shared.frozen import fast_init


def test_events_built_fast_equal_and_stay_frozen() -> None:
    a = Took(0, "moss-1", "col1", 1, 2, True, False)
    b = Took(seat=0, card="moss-1", line="col1", row=1, col=2, special=True, ends_game=False)
    assert a == b and hash(a) == hash(b) and repr(a) == repr(b)
    assert a.to_dict()["kind"] == "took"
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.seat = 1  # type: ignore[misc]
    with pytest.raises(TypeError):
        Moved(0, 1, 2)  # type: ignore[call-arg]  # a field missing, as before
    assert Moved(0, 1, 5, (2,)) != Moved(0, 1, 5, ())


def test_only_plain_frozen_slots_dataclasses() -> None:
    @dataclasses.dataclass(frozen=True, slots=True)
    class WithDefault:
        x: int = 1

    @dataclasses.dataclass(frozen=True)
    class NoSlots:
        x: int

    class Plain:
        pass

    for cls in (WithDefault, NoSlots, Plain):
        with pytest.raises(TypeError):
            fast_init(cls)
