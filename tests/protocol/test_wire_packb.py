"""``protocol.wire.packb`` (msgspec's encoder) writes exactly the bytes of
``msgpack.packb``, the simple path, for every value a dumped message can hold, and for
every frame of random games."""

from __future__ import annotations

import random
from typing import Any

import msgpack  # type: ignore[import-untyped]
from hypothesis import given, settings
from hypothesis import strategies as st

from protocol.wire import encode_update, encode_view, packb
from shared.game import Game
from shared.options import Options
from shared.view import views

# every size boundary of msgpack's encodings: fixint, (u)int8..64, fixstr, str8..32,
# fixarray and array16, fixmap and map16, bin8..16
_INTS = st.integers(-(2**63), 2**64 - 1) | st.sampled_from(
    [
        0,
        127,
        128,
        255,
        256,
        65535,
        65536,
        2**32 - 1,
        2**32,
        -32,
        -33,
        -128,
        -129,
        -32768,
        -32769,
        -(2**31),
        -(2**31) - 1,
        2**63 - 1,
        2**63,
    ]
)
_TEXT = st.text(st.characters(exclude_categories=["Cs"]), max_size=300) | st.sampled_from(
    ["", "x" * 31, "x" * 32, "x" * 255, "x" * 256, "é" * 20, "雪" * 100, "x" * 70000]
)
_SCALARS = (
    st.none()
    | st.booleans()
    | _INTS
    | st.floats(allow_nan=False)
    | _TEXT
    | st.binary(max_size=300)
    | st.sampled_from([float("inf"), -0.0, b"x" * 256])
)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: (
        st.lists(inner, max_size=20)
        | st.lists(inner, max_size=20).map(tuple)
        | st.dictionaries(_TEXT, inner, max_size=20)
        | st.lists(st.none(), min_size=15, max_size=17)  # fixarray / array16
        | st.dictionaries(st.text(min_size=2, max_size=4), st.none(), min_size=15, max_size=17)
    ),
    max_leaves=60,
)


@settings(max_examples=500, deadline=None)
@given(value=_VALUES)
def test_packb_writes_what_msgpack_writes(value: Any) -> None:
    assert packb(value) == msgpack.packb(value)


def test_long_containers_and_nan() -> None:
    for value in ([None] * 70000, {str(i): i for i in range(70000)}, float("nan")):
        assert packb(value) == msgpack.packb(value)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**31), players=st.sampled_from([2, 3]))
def test_every_frame_of_a_game_is_the_simple_paths(seed: int, players: int) -> None:
    """Each state's ``view`` and ``update`` frames, decoded and packed again with
    ``msgpack``, are the same bytes."""
    game, rng = Game.deal(Options(players=players, seed=seed)), random.Random(seed)
    version = 0
    while True:
        for seat, v in enumerate(views(game, [None, *range(players)])):
            for frame in (encode_view(v, version, 1), encode_update((), v, version, 2, seat)):
                assert msgpack.packb(msgpack.unpackb(frame)) == frame
        if game.over:
            break
        game.apply(rng.choice(game.legal_actions()))
        version += 1
