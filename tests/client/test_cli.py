"""The ``kupferkessel`` command: one entry point that imports only the command asked
for (``join`` on a phone-sized machine must not wait for the whole server to load)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from client.cli import COMMANDS, build_parser

PROBE = """
import json, sys
from client.cli import main
try:
    main(sys.argv[1:])
except SystemExit as e:
    code = e.code
server = sorted(m for m in sys.modules if m.startswith("server"))
print(json.dumps({"code": code, "server": server}))
"""


def probe(*argv: str) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *argv], capture_output=True, text=True, timeout=60, check=True
    )
    out: dict[str, object] = json.loads(done.stdout.splitlines()[-1])
    return out


@pytest.mark.parametrize("command", ["join", "watch", "replay"])
def test_a_client_command_loads_no_server_code(command: str) -> None:
    seen = probe(command, "--help")
    assert seen == {"code": 0, "server": []}, seen


def test_serve_loads_the_server_and_the_listing_loads_nothing() -> None:
    loaded = probe("serve", "--help")["server"]
    assert isinstance(loaded, list) and "server.app" in loaded  # imported when asked for
    # a server of one process does not load a node's code (nor redis with it)
    assert not [name for name in loaded if name.startswith("server.cluster")], loaded
    assert probe("--help") == {"code": 0, "server": []}


def test_every_command_is_listed_and_parses_its_own_arguments() -> None:
    parser = build_parser()
    text = parser.format_help()
    assert all(name in text for name in COMMANDS)
    args = build_parser("replay").parse_args(["replay", "game.json"])
    assert args.command == "replay" and callable(args._run)
