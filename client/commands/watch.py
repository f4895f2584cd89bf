"""``kupferkessel watch [ws://HOST:PORT] [--table ID]``: watch a table as a spectator
(without ``--table``, pick one in the lobby and press ``w``)."""

from __future__ import annotations

import argparse

from .common import add_table_arguments, run_client_app

__all__ = ["add_arguments", "run"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_table_arguments(p)


def run(args: argparse.Namespace) -> int:
    return run_client_app("watch", args, watch=True)
