"""The relay of ``bench/load.py`` sends the frames our server sends, and the load bench
runs end to end (a tiny run, so that the benchmark cannot rot unnoticed)."""

from __future__ import annotations

import random
import re
import sys

import pytest

from protocol import decode_server
from protocol.codec import encode
from protocol.convert import events_message, view_message
from shared.events import Event
from shared.options import Options
from shared.record import Record
from shared.view import view

from .runner import ROOT, run_bench

sys.path.insert(0, str(ROOT / "bench"))

import relay


@pytest.mark.parametrize("players", [2, 3])
def test_replay_frames_are_our_servers_frames(players: int) -> None:
    """Every frame of a recorded game is byte for byte the model path's message for the
    same position (the server's ``seq`` aside, which the relay fixes at 1)."""
    replay = relay.record(players, seed=5)
    rng = random.Random(5)  # the relay's own random takes, replayed here
    deal: list[Event] = []
    _, game = Record.deal(Options(players=players, seed=5), deal)
    assert replay.events[0] == encode(events_message(deal, 0), seq=1)
    for version in range(replay.last + 1):
        if version:
            took: list[Event] = []
            game.apply(rng.choice(game.legal_actions()), events=took)
            assert replay.events[version] == encode(events_message(took, version), seq=1)
        events = replay.events[version]
        assert len(replay.views[version]) == players
        for seat in range(players):
            expected = encode(view_message(view(game, seat), version), seq=1)
            assert replay.views[version][seat] == expected
            msg = decode_server(replay.views[version][seat])
            assert msg.type == "view" and msg.view.seat == seat
            update = decode_server(replay.updates[version][seat])  # protocol 1.1, combined
            assert update.type == "update" and update.state_version == version
            assert (update.view, update.events) == (msg.view, decode_server(events).events)
    assert game.over
    assert decode_server(replay.views[replay.last][0]).view.game_over


def test_relay_takes_recorded_games_in_turn() -> None:
    r = relay.Relay()
    seen = {id(r.replay_for(2)) for _ in range(relay.GAMES)}
    assert len(seen) == relay.GAMES
    assert all(len(g.views[0]) == 3 for g in r.replays[3])


@pytest.mark.e2e
@pytest.mark.parametrize("combined", [False, True])
@pytest.mark.long
def test_load_bench_runs(combined: bool) -> None:
    """A tiny flat-out run against the relay and our server: both play whole games
    with no error, and the bench prints its figures (protocol 1.0, and 1.1 with
    combined updates)."""
    out = run_bench(
        "load.py",
        "--only=throughput",
        "--targets=relay,memory",
        "--tables=3",
        "--procs=1",
        "--seconds=3",  # a whole game in it even on a busy machine
        "--warmup=0.5",
        "--repeat=1",
        "--clients=" + ("1.1" if combined else "1.0"),
        timeout=120,
    )
    found = re.finditer(r"^\s*(relay|memory):.*$", out, re.M)
    lines = {m.group(1): m.group(0) for m in found}
    assert set(lines) == {"relay", "memory"}, out
    for line in lines.values():
        assert "errors" not in line, line
        rate = float(re.search(r"(\d+) intents/s", line).group(1))  # type: ignore[union-attr]
        assert rate > 0, line
        games = int(re.search(r"games (\d+)", line).group(1))  # type: ignore[union-attr]
        assert games > 0, line
    assert re.search(r"ours \(memory\) / relay: \d\.\d\d", out), out
