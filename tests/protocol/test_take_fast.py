"""``decode_client`` checks a ``take`` by hand (the message of every turn); it must
accept exactly what the validator accepts, and build the same message."""

from __future__ import annotations

from typing import Any

import msgpack
from hypothesis import example, given, settings
from hypothesis import strategies as st

from protocol.codec import CLIENT_ADAPTER, ProtocolError, _plain_take, decode_client

_ANY = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 2**64 - 1),
    st.floats(allow_nan=False),
    st.text(max_size=45),
    st.binary(max_size=4),
    st.lists(st.integers(-2, 4), max_size=4).map(tuple),
)
_CARD = st.one_of(
    st.sampled_from(["moss-1", "bat_wing-4", "snake_skin-2", "a-1", "x" * 38 + "-1"]),
    st.from_regex(r"\A[a-z_]{1,40}-[0-6]\n?\Z"),
    _ANY,
)
_TARGETS = st.one_of(st.none(), st.lists(st.integers(-1, 3), max_size=3).map(tuple), _ANY)


@st.composite
def takes(draw: st.DrawFn) -> dict[str, Any]:
    msg: dict[str, Any] = {"type": "take"}
    for name, values in (
        ("id", st.one_of(st.integers(-1, 2**53), _ANY)),
        ("state_version", st.one_of(st.integers(-1, 2**53), _ANY)),
        ("card", _CARD),
        ("special", st.one_of(st.booleans(), _ANY)),
        ("targets", _TARGETS),
        ("keep", st.one_of(st.booleans(), _ANY)),
        ("extra", _ANY),
    ):
        required = name in ("id", "state_version", "card")
        if draw(st.booleans()) or (required and draw(st.integers(0, 9)) > 0):
            msg[name] = draw(values)
    return msg


@settings(max_examples=3000, deadline=None)
@given(takes())
@example({"type": "take", "id": 1, "state_version": 0, "card": "moss-1\n"})
@example({"type": "take", "id": True, "state_version": 0, "card": "moss-1"})
@example({"type": "take", "id": 1, "state_version": 0, "card": "moss-1", "targets": (0, 1, 2)})
@example({"type": "take", "id": 2**53, "state_version": 0, "card": "moss-1"})
def test_hand_check_agrees_with_the_validator(raw: dict[str, Any]) -> None:
    obj = msgpack.unpackb(msgpack.packb(raw), raw=False, use_list=False)
    try:
        expected = CLIENT_ADAPTER.validate_python(obj)
    except Exception:
        expected = None
    fast = _plain_take(obj)
    if fast is not None:
        assert expected is not None, f"accepted by hand only: {obj!r}"
        assert fast == expected
        assert fast.model_fields_set == expected.model_fields_set
    decoded: Any
    try:
        decoded = decode_client(msgpack.packb(raw))
    except ProtocolError:
        decoded = None
    assert decoded == expected


def test_valid_takes_take_the_hand_path() -> None:
    for raw in (
        {"type": "take", "id": 0, "state_version": 0, "card": "moss-1"},
        {"type": "take", "id": 2**53 - 1, "state_version": 7, "card": "bat_wing-4", "keep": False},
        {"type": "take", "id": 5, "state_version": 7, "card": "moss-2", "targets": [1, 2]},
        {"type": "take", "id": 5, "state_version": 7, "card": "moss-2", "targets": None},
        {"type": "take", "id": 5, "state_version": 7, "card": "moss-2", "special": False, "x": 1},
    ):
        obj = msgpack.unpackb(msgpack.packb(raw), raw=False, use_list=False)
        fast = _plain_take(obj)
        assert fast is not None and fast == CLIENT_ADAPTER.validate_python(obj)
        assert decode_client(msgpack.packb(raw)) == fast
