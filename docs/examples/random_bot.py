#!/usr/bin/env python3
"""A whole Kupferkessel Co. bot in one file, written from docs/PROTOCOL.md alone.

It uses nothing of this project, only two packages from PyPI (``pip install websockets
msgpack``), so it is where to start a client of your own, in any language. It

1. connects with the subprotocol ``kupferkessel.v1`` (msgpack frames; with ``--json``,
   ``kupferkessel.v1+json``: the same messages as JSON text) and says ``hello`` in
   protocol 1.2;
2. creates a table with a computer opponent and sits down (or, with ``--table``, joins
   a table someone else made), and says ``ready``;
3. on every ``view`` that lists ``takes`` (it is this seat's turn), sends one of them at
   random, with the view's ``state_version``;
4. at the end prints the scores and leaves.

Everything else the server sends (``events``, ``presence``, ``chat``, ``ack``) it reads
and lets go: a client that only reads ``view`` is a correct client.

    python docs/examples/random_bot.py ws://127.0.0.1:8765
    python docs/examples/random_bot.py ws://127.0.0.1:8765 --level hard --players 3
    python docs/examples/random_bot.py ws://127.0.0.1:8765 --table t7Kq2 [--invite CODE]
    python docs/examples/random_bot.py ws://127.0.0.1:8765 --json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
from typing import Any

import msgpack  # type: ignore[import-untyped]
from websockets.asyncio.client import ClientConnection, connect
from websockets.typing import Subprotocol

SUBPROTOCOL = Subprotocol("kupferkessel.v1")  # one msgpack map per binary frame
JSON_SUBPROTOCOL = Subprotocol("kupferkessel.v1+json")  # one JSON object per text frame
PROTOCOL = [1, 2]


class Refused(Exception):
    """The server refused one of our messages (an ``error`` with our ``re``) or said
    ``bye``."""


def refusal(error: dict[str, Any]) -> str:
    """An ``error`` message as one line: its code, its message and any detail."""
    detail = f" ({error['detail']})" if error.get("detail") else ""
    return f"{error['code']}: {error['message']}{detail}"


class Bot:
    """One connection: numbered requests, and the messages that answer them."""

    def __init__(self, ws: ClientConnection, rng: random.Random, as_json: bool) -> None:
        self.ws = ws
        self.rng = rng
        self.as_json = as_json
        self.last_id = 0

    async def send(self, kind: str, **fields: Any) -> int:
        """Send one message of type ``kind``; returns its ``id``."""
        self.last_id += 1
        msg = {"type": kind, "id": self.last_id, **fields}
        await self.ws.send(json.dumps(msg) if self.as_json else msgpack.packb(msg))
        return self.last_id

    async def receive(self) -> dict[str, Any]:
        """The next message: one frame, one map."""
        frame = await self.ws.recv()
        msg: dict[str, Any] = json.loads(frame) if self.as_json else msgpack.unpackb(frame)
        if msg["type"] == "bye":
            raise Refused(f"the server closed: {msg['reason']} {msg.get('message', '')}")
        return msg

    async def answer(self, request: int, kind: str) -> dict[str, Any]:
        """Read on until the message of type ``kind`` that answers ``request``; an
        ``error`` answering it raises ``Refused``."""
        while True:
            msg = await self.receive()
            if msg.get("re") == request:
                if msg["type"] == "error":
                    raise Refused(refusal(msg))
                if msg["type"] == kind:
                    return msg

    async def play(self, seat: int) -> dict[str, Any]:
        """Take at random whenever a view offers takes; returns the final view."""
        while True:
            msg = await self.receive()
            if msg["type"] == "presence" and msg.get("state") == "finished":
                continue  # the final view came before it (or comes with resume)
            if msg["type"] == "error" and msg.get("code") == "stale_state":
                continue  # the game moved on (a clock ran out): a new view follows
            if msg["type"] == "error":
                raise Refused(refusal(msg))
            if msg["type"] != "view":
                continue
            view = msg["view"]
            if view["game_over"]:
                return dict(view)
            takes = view.get("takes")  # only the seat to move gets them
            if takes and view.get("to_move") == seat:
                take = self.rng.choice(takes)
                await self.send("take", state_version=msg["state_version"], **take)


async def run(
    url: str,
    name: str = "RandomBot",
    table: str | None = None,
    invite: str | None = None,
    players: int = 2,
    level: str = "easy",
    seed: int | None = None,
    as_json: bool = False,
) -> dict[str, Any]:
    """Play one game at ``url``; returns the final view (``scores``, ``winners``)."""
    subprotocol = JSON_SUBPROTOCOL if as_json else SUBPROTOCOL
    async with connect(url, subprotocols=[subprotocol]) as ws:
        if ws.subprotocol != subprotocol:
            raise Refused(f"the server does not speak {subprotocol}")
        bot = Bot(ws, random.Random(seed), as_json)
        hello = await bot.send("hello", protocol=PROTOCOL, client="random-bot")
        welcome = await bot.answer(hello, "welcome")
        if level not in welcome["bot_levels"]:
            raise Refused(f"no computer level {level!r} here: {welcome['bot_levels']}")
        if table is None:  # a table of our own, the other seats computers
            bots = [{"seat": s, "level": level} for s in range(1, players)]
            request = await bot.send(
                "create_table",
                name=f"{name} vs {level}",
                options={"players": players},
                bots=bots,
                player=name,
                seat=0,
            )
        else:
            request = await bot.send("join", table=table, player=name, invite=invite)
        joined = await bot.answer(request, "joined")
        await bot.send("ready")
        final = await bot.play(joined["seat"])
        await bot.send("leave")
        return final


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("url", help="the server, e.g. ws://127.0.0.1:8765")
    p.add_argument("--name", default="RandomBot")
    p.add_argument("--table", help="join this table instead of creating one")
    p.add_argument("--invite", help="the invite code of a private table")
    p.add_argument("--players", type=int, choices=(2, 3), default=2)
    p.add_argument("--level", default="easy", help="the computer opponents' level")
    p.add_argument("--seed", type=int, help="the bot's own random choices")
    p.add_argument("--json", action="store_true", help="speak JSON text frames, not msgpack")
    args = p.parse_args()
    try:
        final = asyncio.run(
            run(
                args.url,
                args.name,
                args.table,
                args.invite,
                args.players,
                args.level,
                args.seed,
                args.json,
            )
        )
    except (Refused, OSError) as e:
        sys.exit(f"random_bot: {e}")
    for score in final["scores"]:
        won = " (won)" if score["seat"] in final["winners"] else ""
        print(f"seat {score['seat']} ({score['colour']}): {score['total']}{won}")


if __name__ == "__main__":
    main()
