"""Bad input of any kind comes out of the decoders as ``ProtocolError`` and nothing else,
with the code a server answers with."""

from __future__ import annotations

import math
from typing import Any

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from protocol import (
    CLIENT_MESSAGES,
    DEFAULT_LIMITS,
    FIELD_ADDED_IN,
    MAX_ID,
    SERVER_MESSAGES,
    ErrorCode,
    HelloMsg,
    PingMsg,
    ProtocolError,
    TakeMsg,
    check_version,
    decode_client,
    decode_server,
    encode,
)

DECODERS = [decode_client, decode_server]
ALL_TYPES = sorted({*CLIENT_MESSAGES, *SERVER_MESSAGES})


def refused_or_valid(data: bytes) -> set[ErrorCode]:
    """Decode ``data`` both ways; anything but ``ProtocolError`` escapes (and fails)."""
    codes = set()
    for decode in DECODERS:
        try:
            decode(data)
        except ProtocolError as e:
            codes.add(e.code)
    return codes


def code_of(decode: Any, data: Any, **kw: Any) -> ErrorCode:
    with pytest.raises(ProtocolError) as info:
        decode(data, **kw)
    assert isinstance(info.value.message, str) and info.value.message
    return info.value.code


# ------------------------------------------------------------------ random input
@settings(max_examples=500, deadline=None)
@given(data=st.binary(max_size=600))
def test_random_bytes(data: bytes) -> None:
    refused_or_valid(data)


scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**64 - 1)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=20)
    | st.binary(max_size=20)
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4)
    ),
    max_leaves=20,
)
field_names = st.sampled_from(
    sorted(
        {f for m in (*CLIENT_MESSAGES.values(), *SERVER_MESSAGES.values()) for f in m.model_fields}
    )
)


@settings(max_examples=800, deadline=None)
@given(
    kind=st.sampled_from([*ALL_TYPES, "nope", ""]) | values,
    fields=st.dictionaries(field_names | st.text(max_size=8), values, max_size=6),
)
@pytest.mark.long
def test_random_maps_with_message_shapes(kind: Any, fields: dict[str, Any]) -> None:
    codes = refused_or_valid(msgpack.packb({"type": kind, **fields}))
    assert codes <= {ErrorCode.MALFORMED, ErrorCode.UNKNOWN_TYPE, ErrorCode.INVALID_FIELD}


@settings(max_examples=300, deadline=None)
@given(value=values)
def test_random_values(value: Any) -> None:
    refused_or_valid(msgpack.packb(value))


@settings(max_examples=300, deadline=None)
@given(field=st.sampled_from(sorted(TakeMsg.model_fields)), value=values)
def test_a_valid_message_with_one_field_replaced(field: str, value: Any) -> None:
    good = msgpack.unpackb(encode(TakeMsg(id=5, state_version=2, card="moss-2", targets=(1,))))
    good[field] = value
    try:
        decode_client(msgpack.packb(good))
    except ProtocolError as e:
        assert e.code in {ErrorCode.INVALID_FIELD, ErrorCode.MALFORMED, ErrorCode.UNKNOWN_TYPE}


# ------------------------------------------------------------------ specific cases
@pytest.mark.parametrize("decode", DECODERS)
@pytest.mark.parametrize(
    "value",
    [None, 1, -1, 2**64 - 1, 1.5, math.nan, "hello", b"hello", [], ["type", "ping"], True],
)
def test_top_level_not_a_map(decode: Any, value: Any) -> None:
    assert code_of(decode, msgpack.packb(value)) == ErrorCode.MALFORMED


@pytest.mark.parametrize("decode", DECODERS)
def test_empty_frame_and_non_bytes(decode: Any) -> None:
    assert code_of(decode, b"") == ErrorCode.MALFORMED
    assert code_of(decode, "not bytes") == ErrorCode.MALFORMED
    assert code_of(decode, None) == ErrorCode.MALFORMED


def test_oversized_frame_refused_before_unpacking() -> None:
    big = msgpack.packb({"type": "chat", "id": 1, "text": "x" * DEFAULT_LIMITS.max_frame})
    assert code_of(decode_client, big) == ErrorCode.TOO_LARGE
    exact = msgpack.packb({"type": "ping", "id": 1, "pad": "x" * (DEFAULT_LIMITS.max_frame - 30)})
    assert len(exact) <= DEFAULT_LIMITS.max_frame
    assert decode_client(exact) == PingMsg(id=1)
    assert code_of(decode_client, b"\xc0" * (DEFAULT_LIMITS.max_frame + 1)) == ErrorCode.TOO_LARGE


@pytest.mark.parametrize("decode", DECODERS)
def test_deep_nesting(decode: Any) -> None:
    deep_list = b"\x91" * 100_000 + b"\xc0"
    assert code_of(decode, deep_list, max_frame=16384) == ErrorCode.TOO_LARGE
    assert code_of(decode, deep_list, max_frame=1 << 20) == ErrorCode.MALFORMED
    deep_map = b"\x81\xa1a" * 30_000 + b"\xc0"
    assert code_of(decode, deep_map, max_frame=1 << 20) == ErrorCode.MALFORMED
    # nesting that msgpack accepts but no field wants
    nested: Any = None
    for _ in range(100):
        nested = [nested]
    inside = msgpack.packb({"type": "hello", "id": 3, "protocol": nested, "client": "x"})
    with pytest.raises(ProtocolError) as info:
        decode(inside)
    assert info.value.code in {ErrorCode.INVALID_FIELD, ErrorCode.UNKNOWN_TYPE}


@pytest.mark.parametrize("decode", DECODERS)
@pytest.mark.parametrize("ext_type", [-1, 0, 1, 42, 127, -128])
def test_ext_types_refused(decode: Any, ext_type: int) -> None:
    ext = b"\xd6" + ext_type.to_bytes(1, "big", signed=True) + b"\x00\x00\x00\x01"
    ping = msgpack.packb({"type": "ping", "id": 1})
    data = b"\x83" + ping[1:] + msgpack.packb("x") + ext
    assert code_of(decode, data) == ErrorCode.MALFORMED
    assert code_of(decode, ext) == ErrorCode.MALFORMED


def test_timestamp_refused() -> None:
    data = msgpack.packb({"type": "ping", "id": 1, "at": msgpack.Timestamp(1, 0)})
    assert code_of(decode_client, data) == ErrorCode.MALFORMED


@pytest.mark.parametrize(
    "bad",
    [
        b"\xc1",  # never used
        b"\xa2\xff\xfe",  # invalid UTF-8
        b"\x81\xa4type",  # truncated
        msgpack.packb({"type": "ping", "id": 1}) + b"\xc0",  # trailing data
        b"\x81\x01\xa4ping",  # integer map key
        b"\x81\x91\x01\xa4ping",  # array map key
        b"\xdd\xff\xff\xff\xff",  # array claiming 4 billion items
        b"\xdb\xff\xff\xff\xff",  # string claiming 4 GB
    ],
)
def test_broken_msgpack(bad: bytes) -> None:
    for decode in DECODERS:
        assert code_of(decode, bad) == ErrorCode.MALFORMED


@pytest.mark.parametrize("decode", DECODERS)
@pytest.mark.parametrize("kind", [None, 5, b"ping", ["ping"], True])
def test_type_missing_or_not_a_string(decode: Any, kind: Any) -> None:
    raw = {"id": 4} if kind is None else {"id": 4, "type": kind}
    assert code_of(decode, msgpack.packb(raw)) == ErrorCode.MALFORMED


def test_unknown_type_carries_the_id() -> None:
    with pytest.raises(ProtocolError) as info:
        decode_client(msgpack.packb({"type": "teleport", "id": 99}))
    assert info.value.code == ErrorCode.UNKNOWN_TYPE and info.value.id == 99
    err = info.value.to_message()
    assert err.code == "unknown_type" and err.re == 99
    # a server-only type sent by a client is unknown to the server
    assert code_of(decode_client, msgpack.packb({"type": "welcome", "id": 1})) == "unknown_type"
    assert code_of(decode_server, msgpack.packb({"type": "hello", "seq": 1})) == "unknown_type"


def test_newer_server_message_type_is_skippable() -> None:
    data = msgpack.packb({"type": "fireworks", "seq": 8, "colour": "gold"})
    assert code_of(decode_server, data) == ErrorCode.UNKNOWN_TYPE


@pytest.mark.parametrize(
    ("fields", "good_id"),
    [
        ({"id": 7, "state_version": math.nan, "card": "moss-2"}, 7),
        ({"id": 7, "state_version": 1.0, "card": "moss-2"}, 7),
        ({"id": 7, "state_version": "1", "card": "moss-2"}, 7),
        ({"id": 7, "state_version": True, "card": "moss-2"}, 7),
        ({"id": 7, "state_version": 2**64 - 1, "card": "moss-2"}, 7),
        ({"id": 7, "state_version": -1, "card": "moss-2"}, 7),
        ({"id": 7, "state_version": 1, "card": b"moss-2"}, 7),
        ({"id": 7, "state_version": 1, "card": "moss-2", "special": 1}, 7),
        ({"id": 7, "state_version": 1, "card": "moss-2", "targets": [0, 0, 1]}, 7),
        ({"id": 7, "state_version": 1, "card": "moss-2", "targets": [3]}, 7),
        ({"id": 7, "state_version": 1, "card": "x" * 41}, 7),
        ({"id": 7, "state_version": 1}, 7),
        ({"id": MAX_ID + 1, "state_version": 1, "card": "moss-2"}, None),
        ({"id": -1, "state_version": 1, "card": "moss-2"}, None),
        ({"id": True, "state_version": 1, "card": "moss-2"}, None),
        ({"state_version": 1, "card": "moss-2"}, None),
    ],
)
def test_invalid_fields(fields: dict[str, Any], good_id: int | None) -> None:
    with pytest.raises(ProtocolError) as info:
        decode_client(msgpack.packb({"type": "take", **fields}))
    assert info.value.code == ErrorCode.INVALID_FIELD
    assert info.value.id == good_id
    assert info.value.message.startswith("take: ")


@pytest.mark.parametrize(
    "text", ["", "line\nbreak", "bell\x07", "c1\x85", "x" * (DEFAULT_LIMITS.max_chat + 1)]
)
def test_chat_text_bounds(text: str) -> None:
    data = msgpack.packb({"type": "chat", "id": 1, "text": text})
    assert code_of(decode_client, data) == ErrorCode.INVALID_FIELD


def test_unknown_fields_are_ignored_both_ways() -> None:
    msg = decode_client(msgpack.packb({"type": "ping", "id": 2, "future": [1, {"a": 2}]}))
    assert msg == PingMsg(id=2)
    srv = decode_server(msgpack.packb({"type": "pong", "seq": 3, "re": 2, "later": "x"}))
    assert srv.type == "pong" and srv.re == 2 and srv.seq == 3


def test_check_version() -> None:
    assert check_version(HelloMsg(id=1, protocol=(1, 0), client="c")) is None
    assert check_version(HelloMsg(id=1, protocol=(1, 7), client="c")) is None
    err = check_version(HelloMsg(id=4, protocol=(2, 0), client="c"))
    assert err is not None
    assert err.code == ErrorCode.VERSION_UNSUPPORTED and err.re == 4 and err.detail == "1"
    assert "1.x" in err.message


def test_error_messages_name_the_field() -> None:
    with pytest.raises(ProtocolError) as info:
        decode_client(msgpack.packb({"type": "hello", "id": 1, "protocol": [1, "0"]}))
    assert "protocol.1" in info.value.message and "client: Field required" in info.value.message


def test_an_invalid_field_is_named_from_1_5_on() -> None:
    """The first field at fault, by its path: in ``error.field`` for a 1.5 connection;
    a 1.0 to 1.4 one gets the error its version always got (the golden frames)."""
    raw = {"type": "create_table", "id": 3, "name": "t", "options": {"players": 9}}
    with pytest.raises(ProtocolError) as info:
        decode_client(msgpack.packb(raw))
    assert info.value.code == ErrorCode.INVALID_FIELD and info.value.field == "options.players"
    assert info.value.to_message(FIELD_ADDED_IN).field == "options.players"
    assert info.value.to_message(FIELD_ADDED_IN - 1).field is None
    take = {"type": "take", "id": 4, "state_version": 1, "card": "Moss"}
    with pytest.raises(ProtocolError) as info:
        decode_client(msgpack.packb(take))
    assert info.value.field == "card"
