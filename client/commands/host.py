"""``kupferkessel host``: serve on the LAN, announce it with zeroconf, and open the client.

The server listens on every interface (``0.0.0.0``) and keeps its games in SQLite (the
``serve`` command's default database) so they survive a restart; friends find it with
``kupferkessel join`` (LAN browsing) or connect to the address shown.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import socket
from pathlib import Path

from server.embedded import EmbeddedServer, StoreInUse, default_db_path

from ..discovery import Announcer, announce_server
from ..i18n import _
from ..lib import DEFAULT_PORT, Client, ClientError
from ..settings import Settings
from ..ui.app import TERMINAL_PROTOCOL, KupferApp
from ..ui.browser import web_urls
from .common import add_name_argument, default_name, fail, quiet_logging

__all__ = ["DEFAULT_PORT", "add_arguments", "run"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--port",
        type=int,
        default=None,
        help=f"port (default {DEFAULT_PORT}, or any free one if that is taken; 0: any free)",
    )
    p.add_argument(
        "--bind",
        default="0.0.0.0",
        help="the address to listen on (default 0.0.0.0: every interface; 127.0.0.1: "
        "this machine only)",
    )
    p.add_argument("--server-name", help="the name friends see on the LAN")
    p.add_argument("--db", help=f"SQLite database (default {default_db_path()})")
    p.add_argument("--no-persist", action="store_true", help="keep games in memory only")
    p.add_argument("--no-announce", action="store_true", help="do not announce on the LAN")
    p.add_argument("--no-web", action="store_true", help="serve no browser client on GET /")
    add_name_argument(p)


async def host(args: argparse.Namespace) -> int:
    db = None if args.no_persist else args.db or default_db_path()
    named = args.name or default_name()
    server_name = args.server_name or _("{name}'s games").format(name=named)
    server = await _start(db, server_name, args.port, args.bind, web=not args.no_web)
    lan = args.bind in ("0.0.0.0", "::")
    announcer = Announcer(
        server_name,
        server.port,
        server.version,
        addresses=None if lan else [args.bind],
        web=not args.no_web,
    )
    address = f"ws://{announcer.addresses[0]}:{server.port}"
    status = _("hosting at {address}").format(address=address)
    urls = web_urls(announcer.addresses, server.port) if not args.no_web else []
    announcing: asyncio.Task[None] | None = None
    if not args.no_announce:
        announcing = asyncio.create_task(announce_server(announcer, server.open_tables))
        status += " " + _("(announced on the LAN)")
    client = Client(f"ws://127.0.0.1:{server.port}", name=args.name, protocol=TERMINAL_PROTOCOL)
    try:
        await client.connect()
        app = KupferApp(name=args.name, client=client, address=address, settings=Settings.load())
        app.hosting = True  # quitting stops the server: the app says so before it does
        app.web_urls = urls
        browsers = "   " + _("B: browsers at {url}").format(url=urls[0]) if urls else ""
        app.status = status + "   " + _("n: new table") + browsers
        return await app.run()
    finally:
        if announcing is not None:
            announcing.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await announcing
        await client.close()
        await server.stop()


async def _start(
    db: str | Path | None, name: str, port: int | None, bind: str = "0.0.0.0", web: bool = True
) -> EmbeddedServer:
    """Start serving on ``port``; with no port asked for, on the usual one, or on any
    free one when something else (a ``serve``, another host) holds it: the LAN
    announcement carries the port, so friends find it all the same. (The port is tried
    before the server starts, which restores games and their bots from the store.)"""
    if port is None:
        port = DEFAULT_PORT if _can_bind(DEFAULT_PORT, bind) else 0
    return await EmbeddedServer.start(name, host=bind, port=port, db=db, web=web)


def _can_bind(port: int, bind: str = "0.0.0.0") -> bool:
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as asyncio's server does
        try:
            s.bind((bind, port))
        except OSError:
            return False
    return True


def run(args: argparse.Namespace) -> int:
    quiet_logging(args)
    try:
        return asyncio.run(host(args))
    except ClientError as e:
        return fail("host", str(e))
    except StoreInUse as e:
        return fail("host", f"{e}; or host with --no-persist")
    except OSError as e:
        port = DEFAULT_PORT if args.port is None else args.port
        return fail("host", f"cannot serve on port {port}: {e.strerror or e}")
    except KeyboardInterrupt:
        return 130
