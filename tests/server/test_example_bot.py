"""``docs/examples/random_bot.py``, the bot written from docs/PROTOCOL.md alone (only
``websockets`` and ``msgpack``), plays whole games on a real server: it creates tables
with computer opponents, joins a table a person made, and every take it sends is one of
its view's ``takes``, so the server refuses none of them."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from server.app import Server
from tests.helpers.servers import MakeServer

from .wsclient import WsClient, create

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "random_bot.py"


def load_example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("random_bot", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_example_uses_nothing_of_this_project() -> None:
    """Its imports are the standard library's, ``websockets``' and ``msgpack``'s."""
    code = (
        "import runpy, sys; runpy.run_path(sys.argv[1]); "
        "ours = {'shared', 'protocol', 'server', 'client'}; "
        "print(sorted(n for n in sys.modules if n.split('.')[0] in ours))"
    )
    out = subprocess.run(
        [sys.executable, "-I", "-c", code, str(EXAMPLE)],
        capture_output=True,
        text=True,
        check=True,
        cwd="/",
    )
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize(("players", "as_json"), [(2, False), (3, False), (2, True)])
async def test_it_plays_a_whole_game_against_the_computer(
    server: Server, players: int, as_json: bool
) -> None:
    bot = load_example()
    final = await bot.run(
        f"ws://127.0.0.1:{server.port}/",
        players=players,
        level="easy",
        seed=players,
        as_json=as_json,
    )
    assert final["game_over"] and final["seat"] == 0 and final["ply"] > 20
    assert [s["seat"] for s in final["scores"]] == list(range(players))
    assert final["result"]["ending"] == "played_out"
    assert final["winners"] == final["result"]["winners"]


async def test_it_joins_a_table_someone_else_made(make_server: MakeServer) -> None:
    server = await make_server()
    host = await WsClient.open(server.port, "host", (1, 2))
    table, _, _ = await create(
        host, player=None, private=True, bots=[{"seat": 0, "level": "beginner"}]
    )
    invite = host.of_type("table_created")[-1].invite
    bot = load_example()
    final = await bot.run(
        f"ws://127.0.0.1:{server.port}/", name="Joiner", table=table, invite=invite, seed=7
    )
    assert final["game_over"] and final["seat"] == 1 and final["ply"] > 20
    assert final["result"]["ending"] == "played_out"
    await host.close()


async def test_a_refusal_is_said_not_swallowed(server: Server) -> None:
    bot = load_example()
    with pytest.raises(bot.Refused, match=r"^no_such_table: "):
        await bot.run(f"ws://127.0.0.1:{server.port}/", table="nope")
