"""The real ``kupferkessel admin`` command against a ``kupferkessel serve --config``
process (issue 26): it finds the server's socket from the same config file, and every
action it asks is felt by the players and logged by the server as a JSON line."""

from __future__ import annotations

import asyncio
import json
import os
import signal
from pathlib import Path

import pytest

from tests.helpers.processes import KUPFERKESSEL
from tests.server.wsclient import WsClient, create, join

pytestmark = pytest.mark.e2e


async def kk(*args: str) -> tuple[int, str, str]:
    proc = await asyncio.create_subprocess_exec(
        str(KUPFERKESSEL),
        *args,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env={k: v for k, v in os.environ.items() if not k.startswith("KK_")},
    )
    out, err = await asyncio.wait_for(proc.communicate(), 60)
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()


@pytest.mark.long
async def test_the_admin_command_on_a_running_server(tmp_path: Path) -> None:
    config = tmp_path / "kk.toml"
    config.write_text(
        'port = 0\nhost = "127.0.0.1"\nstore = "games.db"\nadmin-socket = "admin.sock"\n'
        "peer-lobby-tables = 0\nbot-workers = 0\n"
    )
    serve = await asyncio.create_subprocess_exec(
        str(KUPFERKESSEL),
        "serve",
        "--config",
        str(config),
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
        env={k: v for k, v in os.environ.items() if not k.startswith("KK_")},
    )
    lines: list[dict[str, object]] = []
    try:
        assert serve.stderr is not None
        port = None
        while port is None:
            raw = await asyncio.wait_for(serve.stderr.readline(), 30)
            assert raw, "the server ended before listening"
            line = json.loads(raw)
            lines.append(line)
            if line["msg"] == "listening":
                port = int(str(line["port"]))

        async def read_log() -> None:
            assert serve.stderr is not None
            async for raw in serve.stderr:
                lines.append(json.loads(raw))

        reader = asyncio.create_task(read_log())
        eve = await WsClient.open(port, "eve", (1, 1))
        table, _, _ = await create(eve, "Eve")
        bob = await WsClient.open(port, "bob", (1, 1))
        await join(bob, table, "Bob")
        for c in (eve, bob):
            await c.send("ready")
        await eve.wait_type("view")

        code, out, _ = await kk("admin", "--config", str(config), "tables")
        assert code == 0 and table in out and "0:Eve*" in out and "1:Bob*" in out
        code, out, _ = await kk("admin", "--config", str(config), "--json", "players")
        players = {p["name"]: p for p in json.loads(out)["players"]}
        assert code == 0 and players["Eve"]["table"] == table and players["Bob"]["seat"] == 1

        code, out, _ = await kk(
            "admin", "--config", str(config), "mute", "EVE", "--for", "10m", "--reason", "spam"
        )
        assert code == 0 and "mute name 'eve'" in out
        sent = await eve.send("chat", text="spam spam")
        refused = await eve.wait_for(lambda x: x.type == "error" and x.re == sent)
        assert refused.code == "muted"

        code, out, _ = await kk("admin", "--config", str(config), "ban", "bob", "--for", "1h")
        assert code == 0 and "connections closed: 1" in out
        assert (await bob.wait_type("bye")).reason == "banned"

        code, out, _ = await kk("admin", "--config", str(config), "--json", "sanctions")
        sanctions = json.loads(out)["sanctions"]
        assert [(s["kind"], s["value"]) for s in sanctions] == [("mute", "eve"), ("ban", "bob")]
        code, out, _ = await kk("admin", "--config", str(config), "lift", sanctions[0]["id"])
        assert code == 0 and out.startswith("lifted ")

        code, out, _ = await kk("admin", "--config", str(config), "close", table, "--resign", "1")
        assert code == 0 and "resigned, winners [0]" in out
        final = await eve.wait_for(lambda x: x.type == "view" and x.view.game_over)
        assert final.view.winners == (0,)
        code, _, err = await kk("admin", "--config", str(config), "close", table)
        assert code == 1 and "game_over" in err
        code, _, err = await kk("admin", "--config", str(config), "mute")
        assert code == 2 and "NAME or an --address" in err
        await eve.close()
        serve.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(serve.wait(), 30) == 0
        await reader
    finally:
        if serve.returncode is None:
            serve.kill()
            await serve.wait()
    actions = [line["action"] for line in lines if line["msg"] == "admin"]
    assert actions == ["mute", "ban", "lift", "close"]
    assert not (tmp_path / "admin.sock").exists()  # removed at the stop
    code, _, err = await kk("admin", "--config", str(config), "tables")
    assert code == 2 and "cannot reach the server" in err
