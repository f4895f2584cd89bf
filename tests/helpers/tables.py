"""A table of connected people, ready and playing, and time passed on a table's clock
(the server tests of endings, clocks and take-overs)."""

from __future__ import annotations

from typing import Any

from server.app import Server
from tests.helpers import FakeClock
from tests.server.wsclient import WsClient, human_table


async def table_of(
    server: Server, players: int = 2, minors: tuple[int, ...] = (1, 1, 1), **create_fields: Any
) -> tuple[str, list[WsClient], list[str]]:
    """``players`` connected people (protocol 1.minor each), all ready: the game runs."""
    return await human_table(server.port, players, minors=minors, create_fields=create_fields)


# ---------------------------------------------------------------------------- clocks
async def expire(server: Server, clock: FakeClock, client: WsClient, seconds: float) -> Any:
    """Let ``seconds`` pass and the server notice; returns the update that followed."""
    version = client.latest_view().state_version
    clock.t += seconds
    await server.lobby.tick()
    await client.wait_until(lambda: client.latest_view().state_version > version)
    events = [m for m in client.msgs if m is not None and m.type == "events"]
    return events[-1] if events and events[-1].state_version == version + 1 else None
