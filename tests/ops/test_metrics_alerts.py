"""Metrics an operator can alert on: every family present from the first scrape with its
known series at zero, errors sent by code, refused handshakes by reason, the build's
version, and what the bot workers cost in CPU and memory; the docs' alert rules pass
``promtool check rules`` (where promtool is installed)."""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
from pathlib import Path

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from protocol import messages as m
from server.app import Server, ServerConfig
from server.figures import HANDSHAKE_REFUSALS
from server.version import version
from shared.cards import CARD_IDS
from tests.helpers.metrics import game_against_a_bot, scrape
from tests.helpers.servers import MakeServer
from tests.server.wsclient import WsClient

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "docs" / "prometheus" / "kupferkessel-alerts.yml"
PROMTOOL = shutil.which("promtool") or os.environ.get("KK_PROMTOOL")


async def test_every_family_is_there_at_zero_from_the_start() -> None:
    """A fresh server that keeps nothing (``--no-persist``): every family has its series,
    connections of each version and encoding, errors of each code, refusals of each
    reason and the store's counts at zero (an alert on a rate needs the series)."""
    server = Server(ServerConfig(port=0, metrics=True, ping_interval=None, bot_workers=0))
    await server.start()
    try:
        first = await scrape(server.port)
    finally:
        await server.stop()
    for name, family in first.families.items():
        if name.startswith("kupferkessel_"):
            assert family.samples, name
    for minor in ("none", "1.0", "1.1", "1.2"):
        for encoding in ("msgpack", "json"):
            assert first.value("kupferkessel_connections", protocol=minor, encoding=encoding) == 0
    for code in m.ErrorCode:
        assert first.value("kupferkessel_errors_total", code=code.value) == 0
    for reason in HANDSHAKE_REFUSALS:
        assert first.value("kupferkessel_handshakes_refused_total", reason=reason) == 0
    assert first.value("kupferkessel_store_commits_total") == 0
    assert first.value("kupferkessel_store_failed_writes_total") == 0
    assert first.value("kupferkessel_bot_cpu_seconds_total") >= 0  # the pool is the process's
    build = {"version": version(), "python": platform.python_version()}
    assert first.value("kupferkessel_build_info", **build) == 1


async def test_errors_are_counted_by_code(make_server: MakeServer) -> None:
    server = await make_server()
    client = await WsClient.open(server.port, "e", protocol=(1, 1))
    await client.send("no_such_message")
    await client.wait_for(lambda x: x is not None and x.type == "error")
    refused = await client.request("take", card=CARD_IDS[0], state_version=1)
    assert refused.type == "error" and refused.code == "not_seated"
    old = await WsClient.open(server.port, None)
    await old.send("hello", protocol=[9, 0], client="future")
    await old.wait_closed()
    figures = await scrape(server.port)
    assert figures.value("kupferkessel_errors_total", code="unknown_type") == 1
    assert figures.value("kupferkessel_errors_total", code="not_seated") == 1
    assert figures.value("kupferkessel_errors_total", code="version_unsupported") == 1
    assert figures.value("kupferkessel_errors_total", code="internal") == 0
    await client.close()


async def test_refused_handshakes_are_counted_by_reason(make_server: MakeServer) -> None:
    server = await make_server(max_connections=1)
    with pytest.raises(InvalidStatus):
        async with connect(
            f"ws://127.0.0.1:{server.port}/",
            subprotocols=[m.SUBPROTOCOL],  # type: ignore[list-item]
            origin="https://elsewhere.example",  # type: ignore[arg-type]
            open_timeout=10,
        ):
            pass
    first = await WsClient.open(server.port, "first")
    second = await WsClient.open(server.port, None)  # no room: bye server_full
    await second.wait_closed()
    figures = await scrape(server.port)
    assert figures.value("kupferkessel_handshakes_refused_total", reason="origin") == 1
    assert figures.value("kupferkessel_handshakes_refused_total", reason="server_full") == 1
    assert figures.value("kupferkessel_handshakes_refused_total", reason="banned") == 0
    await first.close()


@pytest.mark.e2e
async def test_the_bot_workers_cpu_and_memory_are_shown(make_server: MakeServer) -> None:
    """Bots think in worker processes (``--bot-workers``): what they cost there is
    counted, though the server's own process does none of it."""
    server = await make_server(bot_workers=1)
    human = await game_against_a_bot(server.port, "medium", 5)
    figures = await scrape(server.port)
    assert figures.value("kupferkessel_bot_workers") == 1
    assert figures.value("kupferkessel_bot_moves_total") > 0
    assert figures.value("kupferkessel_bot_cpu_seconds_total") > 0
    # a worker holds the interpreter and the engine: megabytes, not bytes
    assert figures.value("kupferkessel_bot_workers_resident_memory_bytes") > 5_000_000
    await human.close()


@pytest.mark.skipif(PROMTOOL is None, reason="promtool is not installed (Debian: prometheus)")
def test_the_alert_rules_pass_promtool() -> None:
    assert PROMTOOL is not None
    done = subprocess.run(
        [PROMTOOL, "check", "rules", str(RULES)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "SUCCESS" in done.stdout
