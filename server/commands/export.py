"""``kupferkessel export``: write a stored game's record as JSON, or list stored games.

A finished game is written as its whole record (RULES.md section 11, readable by
``kupferkessel replay``). A running game still has secrets (the deck order, the seed, the
recipe cards), so by default only its public record is written (``public_record``); the
operator asks for the full record with ``--full``. The store (``--store``: a SQLite file
or a PostgreSQL URL, as for ``serve``) is opened read-only, so exporting is safe while
servers are running on it.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from shared.events import Event
from shared.record import Record, action_to_dict
from shared.view import view

from ..extras import database_errors
from ..store import SqlStore, StoredGame, StoreUnavailable, open_store
from .flags import add_served_arguments, served_store

__all__ = ["PUBLIC_FORMAT", "add_arguments", "export_game", "public_record", "run"]

PUBLIC_FORMAT = "kupferkessel-public-record/1"
"""The format of a running game's public record: not a replayable record (no deal)."""


def public_record(record: Record) -> dict[str, Any]:
    """What everyone at the table (spectators included) has seen of a game so far:
    the public options, the spectator's view at the start and now, every take, and the
    public event log. Built only from ``shared.view.view`` (for a spectator) and the
    engine's public events, like every message the server sends: no deck order, no
    seed, no recipe card, no kettle card below the top (except as the take log shows
    it). It cannot be replayed: the deal is not in it."""
    events: list[Event] = []
    start = record.start(events)
    game = record.replay(events=events)
    return {
        "format": PUBLIC_FORMAT,
        "public": True,
        "note": "public record of a running game: no deal, deck order, seed or recipes",
        "options": record.options.to_dict(public=True),
        "start": view(start, None).to_dict(),
        "actions": [action_to_dict(a) for a in record.actions],
        "events": [e.to_dict() for e in events],
        "position": view(game, None).to_dict(),
    }


def export_game(store: SqlStore, game_id: str, *, full: bool = False) -> dict[str, Any]:
    """The JSON document ``export`` writes for ``game_id``: the whole record of a finished
    game (or with ``full``), else the public record. ``KeyError`` if there is no such game."""
    found = store.load_record(game_id)
    if found is None:
        raise KeyError(game_id)
    record, finished = found
    if full or finished or record.replay().over:
        return record.to_dict()
    return public_record(record)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", nargs="?", metavar="GAME_ID", help="the table id of the game")
    add_served_arguments(p)
    p.add_argument(
        "--full",
        action="store_true",
        help="a running game's whole record, secrets included (deck order, recipes)",
    )
    p.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of stdout")
    p.add_argument("--list", action="store_true", help="list the stored games and exit")


def _when(t: float | None) -> str:
    return "-" if t is None else time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))


def _listing(games: list[StoredGame]) -> str:
    lines = ["id\tstate\tactions\tstarted\tfinished\tname"]
    for g in games:
        state = "finished" if g.finished is not None else "running"
        lines.append(
            f"{g.table_id}\t{state}\t{g.actions}\t{_when(g.started)}\t{_when(g.finished)}\t{g.name}"
        )
    return "\n".join(lines) + "\n"


def run(args: argparse.Namespace) -> int:
    if not args.list and not args.game:
        print("export: give a GAME_ID, or --list", file=sys.stderr)
        return 2
    try:  # the store as serve finds it: --store, --db, else the config file's, else the default
        store = open_store(served_store(args), readonly=True)
    except ValueError as e:  # a bad config file, a missing driver (server.extras)
        print(f"export: {e}", file=sys.stderr)
        return 2
    try:
        if args.list:
            text = _listing(store.list_games())
        else:
            text = json.dumps(export_game(store, args.game, full=args.full), indent=1) + "\n"
    except database_errors(FileNotFoundError, StoreUnavailable) as e:
        print(f"export: {str(e).strip()}", file=sys.stderr)
        return 1
    except KeyError:
        print(f"export: no game {args.game!r} in {store.url}", file=sys.stderr)
        return 1
    finally:
        store.close_reader()
    if args.output:
        try:
            Path(args.output).write_text(text, encoding="utf-8")
        except OSError as e:
            print(f"export: cannot write {args.output}: {e.strerror or e}", file=sys.stderr)
            return 2
    else:
        sys.stdout.write(text)
    return 0
