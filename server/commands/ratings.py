"""``kupferkessel ratings``: recompute every player's rating from the stored games.

Why: ratings are a function of the stored rated games alone, applied in the order they
were first applied; recomputing them (after a change of the rating code, or to check a
store) replays every rated game through the same code the server uses. The server must
be stopped: the store is opened as the server opens it, one process at a time.
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from ..extras import MissingExtra, database_errors, require
from ..players.service import Players
from ..store import BadDatabase, StoreInUse, StoreUnavailable, open_store
from .configfile import ConfigError
from .flags import add_served_arguments, served_store

__all__ = ["add_arguments", "recompute", "run"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("action", choices=("recompute", "show"), help="recompute, or show the board")
    add_served_arguments(p)
    p.add_argument("--top", type=int, default=20, metavar="N", help="show: the best N (20)")


async def recompute(url: str) -> tuple[int, list[str]]:
    """Recompute the ratings in the store at ``url``: (games counted, the leaderboard's
    lines)."""
    store = open_store(url)
    await store.start()
    try:
        players = Players(store)
        counted = await players.recompute()
        return counted, _lines(players)
    finally:
        await store.close()


def _lines(players: Players, top: int | None = None) -> list[str]:
    board = (
        players.leaderboard() if top is None else list(players.leaderboard_page(None, top).entries)
    )
    return [
        f"{e.rank}\t{e.rating:.3f}\t{e.mu:.3f}\t{e.sigma:.3f}\t{e.rated_games}"
        f"{'?' if e.provisional else ''}\t{e.name}"
        for e in board
    ]


def run(args: argparse.Namespace) -> int:
    try:  # the store as serve finds it: --store, --db, else the config file's, else the default
        url = served_store(args)
        if url.startswith(("postgresql://", "postgres://")):
            require("psycopg", "a PostgreSQL store")
    except (ConfigError, MissingExtra) as e:
        print(f"ratings: {e}", file=sys.stderr)
        return 2
    try:
        if args.action == "recompute":
            counted, lines = asyncio.run(recompute(url))
            print(f"ratings: {counted} rated games counted, {len(lines)} rated players")
            return 0
        store = open_store(url, readonly=True)
        try:
            lines = _lines(Players(store), args.top)
        finally:
            store.close_reader()
    except StoreInUse as e:
        print(f"ratings: {e} (stop the server first)", file=sys.stderr)
        return 1
    except BadDatabase as e:  # a newer schema (a rollback), not a database: no use retrying
        print(f"ratings: {e}", file=sys.stderr)
        return 2
    except database_errors(FileNotFoundError, OSError, StoreUnavailable) as e:
        print(f"ratings: {str(e).strip()}", file=sys.stderr)
        return 1
    print("rank\trating\tmu\tsigma\tgames\tname")
    print("\n".join(lines))
    return 0
