"""The one encoding path (``protocol.wire``: dumpers compiled from the models) gives
exactly the bytes of the models' own ``model_dump``, for every message type and for the
engine's views and events sent without models."""

from __future__ import annotations

import random
from typing import Any

import msgpack  # type: ignore[import-untyped]
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from protocol import CLIENT_MESSAGES, SERVER_MESSAGES
from protocol import messages as m
from protocol.codec import decode_server, encode
from protocol.convert import events_message, view_message
from protocol.wire import encode_ack, encode_as, encode_events, encode_view
from shared.cards import THIRD_COLOURS
from shared.events import Event
from shared.game import Game
from shared.options import Options
from shared.view import views

from .model_path import by_model
from .strategies import for_model


def _options(seed: int) -> Options:
    return Options(
        players=2 + seed % 2,
        recipes=seed % 3 == 0,
        memory="casual" if seed % 4 == 0 else "strict",
        start_card=("no_player_colors", "not_own_color")[seed % 2],
        third_colour=THIRD_COLOURS[seed % 4],
        seed=seed,
    )


@pytest.mark.parametrize("seed", range(40))
def test_views_and_events_equal_the_model_path(seed: int) -> None:
    """Every seat's view and every take's events of random games (2 and 3 players, every
    option), with sequence numbers and versions of every msgpack integer width."""
    rng = random.Random(seed)
    options = _options(seed)
    events: list[Event] = []
    game = Game.deal(options, events)
    big = [0, 5, 127, 128, 255, 256, 65535, 65536, 2**32, 2**40]
    while True:
        seats: list[int | None] = [None, *range(options.players)]
        for v in views(game, seats):
            seq, version = rng.choice(big), rng.choice(big)
            wire = encode_view(v, version, seq=seq)
            assert wire == by_model(view_message(v, version), seq=seq)
            assert decode_server(wire).type == "view"
        if events:
            wire = encode_events(events, game.ply, seq=3)
            assert wire == by_model(events_message(events, game.ply), seq=3)
        if game.over:
            break
        events = []
        game.apply(rng.choice(game.legal_actions()), events=events)


@pytest.mark.parametrize(("version", "re", "seq"), [(0, 0, 1), (41, 7, 300), (2**40, 2**53 - 1, 9)])
def test_ack_equals_the_model_path(version: int, re: int, seq: int) -> None:
    model = by_model(m.AckMsg(state_version=version, re=re), seq=seq)
    assert encode_ack(version, re, seq) == model


@pytest.mark.parametrize("kind", sorted(SERVER_MESSAGES))
@settings(max_examples=40, deadline=None)
@given(data=st.data(), seq=st.integers(1, 2**53), re=st.none() | st.integers(0, 2**53))
def test_any_server_message_equals_the_model_path(
    kind: str, data: st.DataObject, seq: int, re: int | None
) -> None:
    msg = data.draw(for_model(SERVER_MESSAGES[kind]))
    assert encode_as(type(msg), msg, seq=seq, re=re) == by_model(msg, seq, re)
    assert encode(msg) == by_model(msg)
    as_dict = msg.model_dump()  # the same fields given as a dict
    assert encode_as(type(msg), as_dict, seq=seq, re=re) == by_model(msg, seq, re)


@pytest.mark.parametrize("kind", sorted(CLIENT_MESSAGES))
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_any_client_message_equals_the_model_path(kind: str, data: st.DataObject) -> None:
    msg = data.draw(for_model(CLIENT_MESSAGES[kind]))
    assert encode(msg) == by_model(msg)


def test_a_field_added_to_a_model_is_on_the_wire() -> None:
    """Field names, order and count come from the model, not from this module."""

    class Wider(m.AckMsg):
        extra: int = 0
        note: str | None = None

    msg = Wider(state_version=3, re=1, extra=2, note="x")
    assert encode(msg, seq=4) == by_model(msg, seq=4)
    assert list(msgpack.unpackb(encode(msg, seq=4))) == [
        "type",
        "seq",
        "re",
        "state_version",
        "extra",
        "note",
    ]


def test_dict_sources_take_defaults_for_absent_fields() -> None:
    source: dict[str, Any] = {"code": "internal", "message": "oops"}
    assert encode_as(m.ErrorMsg, source, seq=2) == by_model(
        m.ErrorMsg(code="internal", message="oops"), seq=2
    )
