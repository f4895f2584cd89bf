"""Every message type survives encode -> decode unchanged (generated from the models)."""

from __future__ import annotations

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from protocol import (
    CLIENT_MESSAGES,
    SERVER_MESSAGES,
    TakeMsg,
    decode_client,
    decode_server,
    encode,
)

from .strategies import for_model


@pytest.mark.parametrize("kind", sorted(CLIENT_MESSAGES))
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_client_message_round_trip(kind: str, data: st.DataObject) -> None:
    msg = data.draw(for_model(CLIENT_MESSAGES[kind]))
    assert decode_client(encode(msg)) == msg


@pytest.mark.parametrize("kind", sorted(SERVER_MESSAGES))
@settings(max_examples=40, deadline=None)
@given(data=st.data(), seq=st.integers(1, 2**53))
def test_server_message_round_trip(kind: str, data: st.DataObject, seq: int) -> None:
    msg = data.draw(for_model(SERVER_MESSAGES[kind]))
    assert decode_server(encode(msg)) == msg
    assert decode_server(encode(msg, seq=seq)) == msg.model_copy(update={"seq": seq})


@pytest.mark.parametrize("kind", sorted({**CLIENT_MESSAGES, **SERVER_MESSAGES}))
@settings(max_examples=5, deadline=None)
@given(data=st.data())
def test_type_tag_always_on_the_wire(kind: str, data: st.DataObject) -> None:
    model: type[BaseModel] = {**CLIENT_MESSAGES, **SERVER_MESSAGES}[kind]
    msg = data.draw(for_model(model))
    raw = msgpack.unpackb(encode(msg))
    assert raw["type"] == kind
    assert next(iter(raw)) == "type"


def test_defaults_are_left_out_and_restored() -> None:
    msg = TakeMsg(id=7, state_version=3, card="moss-2")
    raw = msgpack.unpackb(encode(msg))
    assert raw == {"type": "take", "id": 7, "state_version": 3, "card": "moss-2"}
    assert decode_client(encode(msg)) == msg


def test_seq_comes_second() -> None:
    raw = msgpack.unpackb(encode(TakeMsg(id=1, state_version=0, card="moss-2"), seq=5))
    assert list(raw)[:2] == ["type", "seq"]
