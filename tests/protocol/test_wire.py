"""The server's fast wire path gives exactly the bytes of the model path."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from protocol import SERVER_MESSAGES
from protocol import messages as m
from protocol.codec import decode_server, encode
from protocol.convert import events_message, view_message
from protocol.wire import (
    encode_ack,
    encode_events,
    encode_message,
    encode_payload,
    encode_view,
    events_payload,
)
from shared.cards import THIRD_COLOURS
from shared.events import Event
from shared.game import Game
from shared.options import Options
from shared.view import view, views

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
def test_fast_path_bytes_equal_the_model_path(seed: int) -> None:
    rng = random.Random(seed)
    options = _options(seed)
    events: list[Event] = []
    game = Game.deal(options, events)
    while True:
        for seat in [None, *range(options.players)]:
            v = view(game, seat)
            fast = encode_view(v, game.ply, seq=seed + 1)
            assert fast == encode(view_message(v, game.ply), seq=seed + 1)
            assert decode_server(fast).type == "view"
        if events:
            fast = encode_events(events, game.ply, seq=3)
            assert fast == encode(events_message(events, game.ply), seq=3)
            assert encode_payload(events_payload(events, game.ply), 3) == fast
        if game.over:
            break
        events = []
        game.apply(rng.choice(game.legal_actions()), events=events)


@pytest.mark.parametrize(("version", "re", "seq"), [(0, 0, 1), (41, 7, 300), (2**40, 2**53 - 1, 9)])
def test_fast_ack_bytes_equal_the_model_path(version: int, re: int, seq: int) -> None:
    model = encode(m.AckMsg(state_version=version, re=re), seq=seq)
    assert encode_ack(version, re, seq) == model


@pytest.mark.parametrize("seed", range(12))
def test_views_of_one_take_share_packing_and_stay_exact(seed: int) -> None:
    """The server encodes a take's views one after another (their public parts packed
    once), and takes of other tables come in between: every frame still equals the
    model path, whatever the seq and state version (one byte, two, four, eight)."""
    rng = random.Random(seed)
    games = [Game.deal(_options(seed * 2 + i)) for i in range(2)]
    big = [0, 5, 127, 128, 255, 256, 65535, 65536, 2**32, 2**40]
    while not all(g.over for g in games):
        for game in games:
            if game.over:
                continue
            seats: list[int | None] = [*range(game.options.players), None]
            made = views(game, seats)
            for v in made + made[::-1]:  # the same views again, in the other order
                seq, version = rng.choice(big), rng.choice(big)
                fast = encode_view(v, version, seq=seq)
                assert fast == encode(view_message(v, version), seq=seq)
            game.apply(rng.choice(game.legal_actions()))


def test_payload_packed_once_is_exact_for_each_seq() -> None:
    game = Game.deal(Options(seed=4))
    events: list[Event] = []
    game.apply(game.legal_actions()[0], events=events)
    payload = events_payload(events, game.ply)
    for seq in (1, 127, 128, 70000, 2**33):
        assert encode_payload(payload, seq) == encode(events_message(events, game.ply), seq=seq)
    other = events_payload(events[:1], game.ply)
    assert encode_payload(other, 9) == encode(events_message(events[:1], game.ply), seq=9)
    assert encode_payload(payload, 9) == encode(events_message(events, game.ply), seq=9)


@pytest.mark.parametrize("kind", sorted(SERVER_MESSAGES))
@settings(max_examples=40, deadline=None)
@given(data=st.data(), seq=st.integers(1, 2**53), re=st.none() | st.integers(0, 2**53))
def test_any_server_message_fast_equals_the_model_path(
    kind: str, data: st.DataObject, seq: int, re: int | None
) -> None:
    msg = data.draw(for_model(SERVER_MESSAGES[kind]))
    expected = msg if re is None else msg.model_copy(update={"re": re})
    assert encode_message(msg, seq, re) == encode(expected, seq=seq)
