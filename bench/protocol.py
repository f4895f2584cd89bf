"""Protocol figures: bytes of the messages a game sends, and the time to encode one and
to decode-and-validate one.

Prints figures only, never fails. Sizes are medians (and maxima) over many random games:
mid-game means the position after half of the game's takes. Times are the median of many
single-message runs. Usage: ``python bench/protocol.py [--games 40] [--runs 2000]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from protocol import (
    DEFAULT_LIMITS,
    PROTOCOL_VERSION,
    TakeMsg,
    WelcomeMsg,
    catalogue,
    decode_client,
    decode_server,
    encode,
    events_message,
    view_message,
)
from protocol.messages import MAX_MISSED_STEPS, MissedMsg
from protocol.wire import encode_as, encode_view
from shared.events import Event
from shared.game import Game
from shared.options import Options
from shared.view import view, views


def game_positions(players: int, seed: int, **opts: Any) -> tuple[Game, Game, list[Event]]:
    """The deal of ``seed`` played at random: (mid-game, game over, one take's events)."""
    rng = random.Random(seed)
    game = Game.deal(Options(players=players, seed=seed, **opts))
    plies: list[Game] = [game.copy()]
    events: list[Event] = []
    while not game.over:
        events = []
        game.apply(rng.choice(game.legal_actions()), events=events)
        plies.append(game.copy())
    return plies[len(plies) // 2], game, events


def game_steps(players: int, seed: int) -> list[list[Event]]:
    """Each take's events of the deal of ``seed`` played at random, in order."""
    rng = random.Random(seed)
    game = Game.deal(Options(players=players, seed=seed))
    steps: list[list[Event]] = []
    while not game.over:
        steps.append([])
        game.apply(rng.choice(game.legal_actions()), events=steps[-1])
    return steps


def missed_size(steps: list[list[Event]]) -> int:
    """Bytes of the ``missed`` answering ``catch_up`` from state 0 after ``steps``."""
    shown = steps[-MAX_MISSED_STEPS:]
    first = len(steps) - len(shown) + 1
    source = {
        "since": 0,
        "state_version": len(steps),
        "omitted": first - 1,
        "steps": [
            {"state_version": first + i, "by_computer": i % 5 == 0, "events": tuple(e)}
            for i, e in enumerate(shown)
        ],
    }
    return len(encode_as(MissedMsg, source, seq=1234, re=99))


def size(game: Game, seat: int | None) -> int:
    return len(encode(view_message(view(game, seat), 99), seq=1234))


def median_us(fn: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter_ns()
        fn()
        times.append(time.perf_counter_ns() - t)
    return statistics.median(times) / 1000


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--runs", type=int, default=2000)
    args = ap.parse_args()

    print(f"view message bytes over {args.games} random games (median / max)")
    samples: dict[int, tuple[Game, Game]] = {}
    for players in (2, 3):
        for label, opts in (
            ("strict", {}),
            ("casual+recipes", {"memory": "casual", "recipes": True}),
        ):
            mid_sizes, end_sizes, spectator = [], [], []
            for seed in range(args.games):
                mid, over, _ = game_positions(players, seed, **opts)
                samples.setdefault(players, (mid, over))
                mid_sizes += [size(mid, s) for s in range(players)]
                spectator.append(size(mid, None))
                end_sizes.append(size(over, 0))
            print(
                f"  {players}p {label:15} mid-game seat {statistics.median(mid_sizes):6.0f}"
                f" / {max(mid_sizes):4d}   spectator {statistics.median(spectator):6.0f}"
                f" / {max(spectator):4d}   game over {statistics.median(end_sizes):6.0f}"
                f" / {max(end_sizes):4d}"
            )

    print(f"\n1.4 missed (catch_up since 0 at the end) over {args.games} random games")
    for players in (2, 3):
        takes, sizes = [], []
        for seed in range(args.games):
            steps = game_steps(players, seed)
            takes.append(len(steps))
            sizes.append(missed_size(steps))
        print(
            f"  {players}p takes a game {statistics.median(takes):4.0f} / {max(takes):3d}"
            f"   missed bytes (the newest {MAX_MISSED_STEPS} steps)"
            f" {statistics.median(sizes):6.0f} / {max(sizes):5d}"
        )

    _, _, events = game_positions(2, 1)
    welcome = WelcomeMsg(
        protocol=PROTOCOL_VERSION,
        server="kupferkessel",
        server_version="0.1.0",
        limits=DEFAULT_LIMITS,
        catalogue=catalogue(),
    )
    take = TakeMsg(id=42, state_version=17, card="toad-2", targets=(1,))
    print(
        f"  welcome {len(encode(welcome, seq=1))}, take {len(encode(take))},"
        f" last events of a game {len(encode(events_message(events, 60), seq=99))}"
    )

    print(f"\ntimes, median of {args.runs} runs (microseconds)")
    for players, (mid, over) in sorted(samples.items()):
        for label, game in (("mid-game", mid), ("game over", over)):
            v = view(game, 0)
            msg = view_message(v, 99)
            data = encode(msg, seq=1)
            build = median_us(lambda v=v: view_message(v, 99), args.runs)
            enc = median_us(lambda msg=msg: encode(msg, seq=1), args.runs)
            dec = median_us(lambda data=data: decode_server(data), args.runs)
            seats = tuple(range(players))
            fast = median_us(lambda g=game, s=seats: _server_take(g, s), args.runs)
            print(
                f"  {players}p view {label:9}  build {build:6.1f}  encode {enc:6.1f}"
                f"  decode+validate {dec:6.1f}  ({len(data)} bytes)"
                f"  server, every seat's view made and framed {fast:6.1f}"
            )
    tdata = encode(take)
    print(
        f"  take        encode {median_us(lambda: encode(take), args.runs):6.1f}"
        f"  decode+validate {median_us(lambda: decode_client(tdata), args.runs):6.1f}"
    )
    return 0


def _server_take(game: Game, seats: tuple[int, ...]) -> None:
    """What the server does for the views of one take: ``views`` for every seat (new
    objects each time, so nothing of an earlier call's packing is reused), then each
    seat's frame through ``protocol.wire``."""
    for seq, v in enumerate(views(game, seats), 1):
        encode_view(v, 99, seq)


if __name__ == "__main__":
    sys.exit(main())
