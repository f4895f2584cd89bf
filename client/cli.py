"""The ``kupferkessel`` console command: one entry point, one subcommand per job.

Each subcommand lives in its own module, which provides ``add_arguments(parser)`` and
``run(args) -> int``; this file only lists them, so adding a command touches one line.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import Any

from .packages import foreign

# name -> (module, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "play": ("client.commands.play", "play against the computer on an embedded local server"),
    "host": ("client.commands.host", "serve on the LAN, advertise it, and open the client"),
    "join": ("client.commands.join", "browse the LAN for games or connect to ws://HOST:PORT"),
    "watch": ("client.commands.watch", "watch a table as a spectator"),
    "serve": ("server.commands.serve", "run a dedicated server"),
    "export": ("server.commands.export", "write a stored game's record as JSON"),
    "admin": (
        "server.commands.admin",
        "act on a running server: tables, players, close, mute, ban",
    ),
    "ratings": ("server.commands.ratings", "recompute the players' ratings from the stored games"),
    "bot": ("client.bot_runner", "connect a computer player to a server"),
    "replay": ("client.commands.replay", "replay a game record and print the position"),
}


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser, with the arguments of ``command`` only (every command is listed):
    importing a command's module is what costs at start-up (``serve`` alone pulls in
    the whole server), so ``join`` does not wait for the others'."""
    parser = argparse.ArgumentParser(
        prog="kupferkessel", description="Kupferkessel Co. over the network."
    )
    parser.add_argument("--version", action=_Version, help="show the build's version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, (module_name, help_text) in COMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        if name == command:
            module = importlib.import_module(module_name)
            module.add_arguments(p)
            p.set_defaults(_run=module.run)
    return parser


class _Version(argparse.Action):
    """``--version``: the build's version (``server.version``: the installed metadata's,
    from git), looked up only when asked, so that ``join`` loads no server code."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, *args: Any) -> None:
        from server.version import version

        print(f"{parser.prog} {version()}")
        parser.exit()


def main(argv: Sequence[str] | None = None) -> int:
    replaced = foreign()  # before importing any of them: say which is not ours
    if replaced is not None:
        print(replaced, file=sys.stderr)
        return 2
    words = sys.argv[1:] if argv is None else list(argv)
    command = next((w for w in words if not w.startswith("-")), None)
    args = build_parser(command).parse_args(words)
    code: int = args._run(args)
    return code


if __name__ == "__main__":
    sys.exit(main())
