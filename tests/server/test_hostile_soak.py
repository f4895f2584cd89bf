"""The hostile-client soak: every attack of ``bench/_attacks.py`` at once, each as fast
as the server allows, against a server with its default limits, while a normal
two-player game is played and ``/healthz`` asked. Short by default (4 s); ``KK_SOAK=1``
runs it for a minute. Afterwards every connection of the attackers is gone, the
per-address quotas held, and the server still serves."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest

from server.core.table import LOBBY, PLAYING
from server.lobby import Quotas
from tests.helpers.servers import MakeServer

from .wsclient import WsClient, http_get

sys.path.insert(1, str(Path(__file__).resolve().parents[2] / "bench"))
import _attacks

SECONDS = 60.0 if os.environ.get("KK_SOAK") == "1" else 4.0


@pytest.mark.slow
async def test_hostile_clients_all_at_once(make_server: MakeServer) -> None:
    server = await make_server(quotas=Quotas(), bot_think=0.05)  # the defaults, quotas on
    stop = asyncio.Event()
    probe = _attacks.Probe(server.port)
    attacks = {name: attack for name, attack in _attacks.ATTACKS.items()}
    attacks["1,100 silent handshakes"] = lambda port, stop: _attacks.slow_handshakes(
        port, stop, n=300
    )
    running = [asyncio.create_task(probe.run(stop))]
    running += [asyncio.create_task(attack(server.port, stop)) for attack in attacks.values()]
    await asyncio.sleep(SECONDS)
    stop.set()
    results = await asyncio.wait_for(asyncio.gather(*running), 60)
    counters = dict(zip(attacks, results[1:], strict=True))
    assert probe.acks, (probe.errors, counters)  # the game went on
    assert probe.errors == 0, counters
    assert any(h is not None for h in probe.health)
    # the quotas held: one address, at most its lobby tables and bot games
    q = server.lobby.quotas
    tables = list(server.lobby.tables.values())
    assert sum(t.state == LOBBY and not t.seating.attended for t in tables) <= q.lobby_tables + 1
    assert sum(t.state == PLAYING and t.seating.bots_only for t in tables) <= q.bot_games
    assert counters["ping flood, never reading"]["bytes_sent"] > 0
    # every attacker is gone; the server serves
    async with asyncio.timeout(20):
        while server.tcp_open or server.sessions:
            await asyncio.sleep(0.1)
    status, _, _ = await http_get(server.port)
    assert status == 200
    client = await WsClient.open(server.port)
    await client.ping()
    await client.close()
