"""What the terminal commands share: the player's name, quiet logging (a full-screen
application must not be scribbled over by log lines), and running the application."""

from __future__ import annotations

import argparse
import getpass
import logging
import sys

from ..lib import normalize_url
from ..tokens import data_dir

__all__ = ["add_name_argument", "default_name", "quiet_logging", "url_argument"]


def default_name() -> str:
    try:
        user = getpass.getuser()
    except Exception:
        user = ""
    name = "".join(ch for ch in user if ch.isprintable())[:32]
    return name.capitalize() if name else "Player"


def add_name_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument("--name", default=default_name(), help="your name at the table")


def url_argument(value: str) -> str:
    return normalize_url(value)


def quiet_logging() -> None:
    """Send log records to a file in the data directory instead of the screen."""
    root = logging.getLogger()
    for h in list(root.handlers):
        root.removeHandler(h)
    try:
        directory = data_dir()
        directory.mkdir(parents=True, exist_ok=True, mode=0o700)
        handler: logging.Handler = logging.FileHandler(directory / "client.log")
        handler.setFormatter(logging.Formatter("%(asctime)s %(name)s %(levelname)s %(message)s"))
    except OSError:
        handler = logging.NullHandler()
    root.addHandler(handler)
    root.setLevel(logging.WARNING)


def fail(command: str, message: str) -> int:
    print(f"kupferkessel {command}: {message}", file=sys.stderr)
    return 1
