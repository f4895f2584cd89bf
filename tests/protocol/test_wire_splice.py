"""A new state's frames (``protocol.wire``'s fast path: each frame spliced from a head
and the bytes of its events and view, what several recipients share packed once and
reused while the very same objects come again) are exactly the bytes of the simple
path, ``encode_as`` of the message built from the same source, whatever the recipients'
order, the states interleaved, the objects repeated or equal but new, the versions
left out for 1.0, and the sequence numbers."""

from __future__ import annotations

import dataclasses
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from protocol import messages as m
from protocol.codec import decode_server
from protocol.convert import view_message
from protocol.wire import encode_as, encode_events, encode_update, encode_view
from server.net.framing import V1_0_LACKS
from shared.events import Event
from shared.game import Game
from shared.options import Options
from shared.view import View, views

from .model_path import by_model

NOTHING: frozenset[str] = frozenset()


def _states(
    seed: int, players: int, casual: bool, plies: int
) -> list[tuple[Game, tuple[Event, ...]]]:
    """Three consecutive states of a random game from ply ``plies`` on (or its end),
    each with the events that led to it."""
    rng = random.Random(seed)
    options = Options(players=players, memory="casual" if casual else "strict", seed=seed)
    events: list[Event] = []
    game = Game.deal(options, events)
    out = [(game.copy(), tuple(events))]
    while not game.over and (game.ply < plies or len(out) < 3):
        events = []
        game.apply(rng.choice(game.legal_actions()), events=events)
        out.append((game.copy(), tuple(events)))
    return out[-3:]


def _simple(
    kind: str,
    events: tuple[Event, ...],
    view: View,
    version: int,
    seq: int,
    re: int | None,
    lacks: frozenset[str],
) -> bytes:
    fitted = dataclasses.replace(view, **dict.fromkeys(lacks))
    if kind == "view":
        return encode_as(m.ViewMsg, {"state_version": version, "view": fitted}, seq=seq)
    if kind == "events":
        return encode_as(m.EventsMsg, {"state_version": version, "events": events}, seq=seq)
    source = {"state_version": version, "events": events, "view": fitted}
    return encode_as(m.UpdateMsg, source, seq=seq, re=re)


def _fast(
    kind: str,
    events: tuple[Event, ...],
    view: View,
    version: int,
    seq: int,
    re: int | None,
    lacks: frozenset[str],
) -> bytes:
    if kind == "view":
        return encode_view(view, version, seq, lacks)
    if kind == "events":
        return encode_events(events, version, seq)
    return encode_update(events, view, version, seq, re, lacks)


NUMBER = st.sampled_from([0, 1, 127, 128, 255, 256, 65535, 65536, 2**32, 2**40])
FRAME = st.tuples(
    st.integers(0, 2),  # which state
    st.integers(-1, 2),  # seat (-1: a spectator)
    st.sampled_from(["view", "events", "update"]),
    st.sampled_from([NOTHING, V1_0_LACKS]),
    NUMBER,  # seq
    st.none() | NUMBER,  # re
    st.booleans(),  # a view made again (equal, another object) instead of the state's
)


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 2**31),
    players=st.sampled_from([2, 3]),
    casual=st.booleans(),
    plies=st.integers(0, 90),
    frames=st.lists(FRAME, min_size=1, max_size=16),
)
def test_state_frames_equal_the_simple_path(
    seed: int,
    players: int,
    casual: bool,
    plies: int,
    frames: list[tuple],  # type: ignore[type-arg]
) -> None:
    states = _states(seed, players, casual, plies)
    seats: list[int | None] = [None, *range(players)]
    made = [dict(zip(seats, views(game, seats), strict=True)) for game, _ in states]
    for state, seat_index, kind, lacks, seq, re, again in frames:
        state %= len(states)
        game, events = states[state]
        seat = None if seat_index < 0 else seat_index % players
        view = views(game, [seat])[0] if again else made[state][seat]
        version = game.ply + state
        fast = _fast(kind, events, view, version, seq, re, lacks)
        assert fast == _simple(kind, events, view, version, seq, re, lacks)
        assert decode_server(fast).type == kind


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**31), plies=st.integers(0, 90), seq=NUMBER)
def test_a_spectators_view_frame_is_the_model_path(seed: int, plies: int, seq: int) -> None:
    """Anchored to pydantic's own dump too, twice in a row (the second from the bytes
    packed for the first)."""
    game, _ = _states(seed, 2, False, plies)[-1]
    view = views(game, [None])[0]
    expected = by_model(view_message(view, game.ply), seq=seq)
    assert encode_view(view, game.ply, seq) == expected
    assert encode_view(view, game.ply, seq) == expected
