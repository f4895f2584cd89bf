"""``kupferkessel join [ws://HOST:PORT]``: browse the LAN for servers, or connect to one
directly, then pick a table in the lobby (``--table ID`` sits down at once)."""

from __future__ import annotations

import argparse

from .common import add_table_arguments, run_client_app

__all__ = ["add_arguments", "run"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_table_arguments(p)


def run(args: argparse.Namespace) -> int:
    return run_client_app("join", args, watch=False)
