"""``kupferkessel play``: a game against the computer in one command.

Starts a server on loopback (a free port, games kept in memory), creates a table with
computer players in the other seats (``FIRST_GAME_LEVEL`` by default: a level a new
player beats sometimes) and opens the table screen. Nothing is reachable from the
network.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses

from protocol.convert import options_from_shared
from server.embedded import EmbeddedServer
from shared.bots import LEVELS
from shared.cards import THIRD_COLOURS
from shared.options import MEMORY_MODES, START_CARD_MODES, Options

from ..i18n import _
from ..lib import Client, ClientError
from ..settings import Settings
from ..ui.app import TERMINAL_PROTOCOL, KupferApp
from ..ui.forms import FIRST_GAME_LEVEL
from .common import add_name_argument, fail, quiet_logging

__all__ = ["add_arguments", "run"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--players", type=int, choices=(2, 3), default=2, help="2 (default) or 3")
    p.add_argument(
        "--level",
        choices=list(LEVELS),
        default=FIRST_GAME_LEVEL,
        help=f"computer level (default {FIRST_GAME_LEVEL}: one a new player beats sometimes)",
    )
    p.add_argument("--recipes", action="store_true", help="play with recipe cards (variant)")
    p.add_argument(
        "--memory",
        choices=MEMORY_MODES,
        default=MEMORY_MODES[0],
        help="casual: you may look into your own kettle",
    )
    p.add_argument("--start-card", choices=START_CARD_MODES, default=START_CARD_MODES[0])
    p.add_argument("--third-colour", choices=THIRD_COLOURS, default=THIRD_COLOURS[0])
    p.add_argument("--seed", type=int, help="a fixed deal")
    add_name_argument(p)


async def play(args: argparse.Namespace) -> int:
    server = await EmbeddedServer.start("local game")  # loopback, any free port, in memory
    client = Client(
        f"ws://127.0.0.1:{server.port}",
        name=args.name,
        persist_tokens=False,
        protocol=TERMINAL_PROTOCOL,
    )
    try:
        await client.connect()
        options = options_from_shared(Options.from_args(args), seed=True)
        bots = [(seat, args.level) for seat in range(1, args.players)]
        await client.create_table(
            _("against the computer"), options, bots=bots, player=args.name, seat=0
        )
        await client.ready()
        # the computer's turns come right back: no bell, no title for them
        settings = dataclasses.replace(Settings.load(), bell=False, title=False)
        app = KupferApp(name=args.name, client=client, allow_lobby=False, settings=settings)
        app.local = True  # its server and seat token end with the program: quitting says so
        return await app.run()
    finally:
        await client.close()
        await server.stop()


def run(args: argparse.Namespace) -> int:
    quiet_logging(args)
    try:
        return asyncio.run(play(args))
    except (ClientError, OSError) as e:
        return fail("play", str(e))
    except KeyboardInterrupt:
        return 130
