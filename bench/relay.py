"""A bare relay server on the same ``websockets`` library: the transport's limit.

No rules and no validation: a ``join`` names a table and a seat; once every seat of a
table has joined, each ``take`` frame is answered with the traffic our server sends for
a take: an ``events`` frame and a ``view`` frame to every seat, an ``ack`` to the sender
(or, for clients that join with ``combined``, protocol 1.1's one ``update`` per seat).
Those frames are real: at start-up the relay plays a few games at random with the engine
and encodes, exactly as our server does, each position's events and every seat's view
(``Replay``). A table replays one of those games whatever its clients take; its game
ends where the recorded game ended.

So the load clients get the very frames they get from our server, with the same sizes
and the same msgpack structure: they spend the same CPU decoding them (an earlier relay
padded small frames with opaque bytes to the same sizes, which the clients decoded for
~60 us less per intent, so that relay measured the clients' savings as well as the
transport). The relay's own work per take stays what a relay does: it reads one frame
and writes frames it already has.

Run: ``python bench/relay.py --port 8790`` (``bench/load.py`` starts it itself).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import signal
import sys
from dataclasses import dataclass
from pathlib import Path

import msgpack  # type: ignore[import-untyped]
from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from protocol.wire import encode_events, encode_update, encode_view
from shared.events import Event
from shared.options import Options
from shared.record import Record
from shared.view import views

GAMES = 8  # recorded games per player count; tables take them in turn


@dataclass(frozen=True)
class Replay:
    """One recorded game as our server's frames: ``events[v]`` is the ``events``
    message that leads to state ``v`` (``v`` = 0 is the deal) and ``views[v][seat]``
    that seat's ``view`` message of state ``v``."""

    events: tuple[bytes, ...]
    views: tuple[tuple[bytes, ...], ...]
    updates: tuple[tuple[bytes, ...], ...]  # protocol 1.1's ``update``, per state and seat

    @property
    def last(self) -> int:
        """The state version at which the game is over."""
        return len(self.views) - 1


def record(players: int, seed: int) -> Replay:
    """Play a game at random and encode its frames as our server would (``seq`` is
    fixed: the clients do not read it)."""
    rng = random.Random(seed)
    deal: list[Event] = []
    _, game = Record.deal(Options(players=players, seed=seed), deal)
    seats = list(range(players))
    events = [encode_events(deal, 0, 1)]
    frames = [tuple(encode_view(v, 0, 1) for v in views(game, seats))]
    updates = [tuple(encode_update(deal, v, 0, 1) for v in views(game, seats))]
    while not game.over:
        took: list[Event] = []
        game.apply(rng.choice(game.legal_actions()), events=took)
        version = len(frames)
        made = views(game, seats)
        events.append(encode_events(took, version, 1))
        frames.append(tuple(encode_view(v, version, 1) for v in made))
        updates.append(tuple(encode_update(took, v, version, 1) for v in made))
    return Replay(tuple(events), tuple(frames), tuple(updates))


class Relay:
    def __init__(self) -> None:
        self.replays = {n: [record(n, seed) for seed in range(1, GAMES + 1)] for n in (2, 3)}
        self.tables: dict[str, dict[int, ServerConnection]] = {}
        self.games: dict[str, Replay] = {}
        self.combined: dict[str, bool] = {}  # tables whose clients asked for ``update``
        self.versions: dict[str, int] = {}
        self.started = 0

    def replay_for(self, players: int) -> Replay:
        """The next recorded game for a table of ``players``."""
        self.started += 1
        return self.replays[players][self.started % GAMES]

    async def handle(self, ws: ServerConnection) -> None:
        table, seat = "", -1
        try:
            async for raw in ws:
                msg = msgpack.unpackb(raw)
                kind = msg.get("type")
                if kind == "join":
                    table, seat = msg["table"], msg["seat"]
                    seats = self.tables.setdefault(table, {})
                    seats[seat] = ws
                    await ws.send(msgpack.packb({"type": "joined", "re": msg["id"]}))
                    if len(seats) == msg["players"]:
                        replay = self.games[table] = self.replay_for(msg["players"])
                        self.versions[table] = 0
                        self.combined[table] = bool(msg.get("combined"))
                        for index, other in list(seats.items()):
                            await self._send_state(table, other, index, 0)
                elif kind == "take":
                    replay = self.games[table]
                    version = self.versions[table] + 1
                    self.versions[table] = version
                    for index, other in list(self.tables[table].items()):
                        await self._send_state(table, other, index, version)
                    if not self.combined[table]:  # combined: the update answers the take
                        ack = {"type": "ack", "re": msg["id"], "state_version": version}
                        await ws.send(msgpack.packb(ack))
                    if version >= replay.last:
                        self._drop(table)
                elif kind == "ping":
                    await ws.send(msgpack.packb({"type": "pong", "re": msg["id"]}))
        except ConnectionClosed:
            pass
        finally:
            if table in self.tables:
                self.tables[table].pop(seat, None)

    async def _send_state(self, table: str, ws: ServerConnection, seat: int, version: int) -> None:
        """State ``version`` as ``seat`` receives it: the ``events`` and ``view``
        frames, or one ``update`` (protocol 1.1, combined)."""
        replay = self.games[table]
        if self.combined[table]:
            await ws.send(replay.updates[version][seat])
        else:
            await ws.send(replay.events[version])
            await ws.send(replay.views[version][seat])

    def _drop(self, table: str) -> None:
        self.tables.pop(table, None)
        self.games.pop(table, None)
        self.versions.pop(table, None)
        self.combined.pop(table, None)


async def main(port: int) -> None:
    relay = Relay()
    async with serve(relay.handle, "127.0.0.1", port, compression=None, max_queue=16):
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
        print(f"relay listening on {port}", flush=True)
        await stop.wait()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8790)
    parser.add_argument("--sample", help="sample by CPU time (bench/_cpusample.py) into this file")
    args = parser.parse_args()
    if args.sample:
        from bench._cpusample import install

        install(args.sample)
    asyncio.run(main(args.port))
