"""A bare relay server on the same ``websockets`` library: the transport's limit.

No rules and no validation: a ``join`` names a table and a seat; once every seat of a
table has joined, each ``take`` frame is relayed as the traffic our server sends for a
take (an ``events`` frame and a ``view`` frame to every seat, an ``ack`` to the sender),
padded to the sizes our server's frames have (measured from a real game at start-up),
with the same msgpack fields the load clients read (``state_version``, ``view.to_move``,
``view.choices``, ``view.game_over``). A game ends after ``TAKES`` takes.

Run: ``python bench/relay.py --port 8790`` (``bench/load.py`` starts it itself).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import signal
import sys
from pathlib import Path
from typing import Any

import msgpack  # type: ignore[import-untyped]
from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

TAKES = 42  # takes per game, as in a real two-player game (bench/engine.py)


def frame_sizes() -> tuple[int, int]:
    """Median sizes of our server's ``view`` and ``events`` frames in a random game."""
    from protocol.codec import encode
    from protocol.convert import events_message, view_message
    from shared.events import Event
    from shared.game import Game
    from shared.options import Options
    from shared.view import view

    game, rng = Game.deal(Options(seed=1)), random.Random(1)
    views, events = [], []
    while not game.over:
        evs: list[Event] = []
        game.apply(rng.choice(game.legal_actions()), events=evs)
        views.append(len(encode(view_message(view(game, 0), game.ply), seq=9)))
        events.append(len(encode(events_message(evs, game.ply), seq=9)))
    return sorted(views)[len(views) // 2], sorted(events)[len(events) // 2]


class Relay:
    def __init__(self) -> None:
        self.view_size, self.events_size = frame_sizes()
        self.tables: dict[str, dict[int, ServerConnection]] = {}
        self.players: dict[str, int] = {}
        self.versions: dict[str, int] = {}
        self.seq = 0

    def _frame(self, data: dict[str, Any], size: int) -> bytes:
        self.seq += 1
        data["seq"] = self.seq
        base = len(msgpack.packb(data))
        data["pad"] = b"x" * max(0, size - base - 3)
        out: bytes = msgpack.packb(data)
        return out

    def _view(self, table: str, version: int) -> bytes:
        players = self.players[table]
        over = version >= TAKES
        view: dict[str, Any] = {"to_move": version % players, "game_over": over}
        view["choices"] = [] if over else [{"card": f"card-{version % 4 + 1}"}]
        return self._frame({"type": "view", "state_version": version, "view": view}, self.view_size)

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
                    self.players[table] = msg["players"]
                    await ws.send(msgpack.packb({"type": "joined", "re": msg["id"]}))
                    if len(seats) == msg["players"]:
                        self.versions[table] = 0
                        frame = self._view(table, 0)
                        for other in seats.values():
                            await other.send(frame)
                elif kind == "take":
                    version = self.versions[table] + 1
                    self.versions[table] = version
                    events = self._frame(
                        {"type": "events", "state_version": version}, self.events_size
                    )
                    view = self._view(table, version)
                    for other in list(self.tables[table].values()):
                        await other.send(events)
                        await other.send(view)
                    await ws.send(
                        msgpack.packb({"type": "ack", "re": msg["id"], "state_version": version})
                    )
                    if version >= TAKES:
                        self._drop(table)
                elif kind == "ping":
                    await ws.send(msgpack.packb({"type": "pong", "re": msg["id"]}))
        except ConnectionClosed:
            pass
        finally:
            if table in self.tables:
                self.tables[table].pop(seat, None)

    def _drop(self, table: str) -> None:
        self.tables.pop(table, None)
        self.players.pop(table, None)
        self.versions.pop(table, None)


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
    asyncio.run(main(parser.parse_args().port))
