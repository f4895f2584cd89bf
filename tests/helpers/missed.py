"""Protocol 1.4's missed steps as a test reads them: what a connection got live, state
by state, and what ``catch_up`` answers, both from the raw frames (msgpack, not our
models), so that the two compare field for field."""

from __future__ import annotations

from typing import Any

import msgpack  # type: ignore[import-untyped]

from tests.server.wsclient import WsClient

__all__ = ["live_steps", "missed"]


def live_steps(client: WsClient) -> dict[int, dict[str, Any]]:
    """State version -> the events (and mark) ``client`` got live, from its raw frames."""
    out = {}
    for raw in client.raw:
        obj = msgpack.unpackb(raw)
        if obj["type"] in ("events", "update") and obj.get("events"):
            out[obj["state_version"]] = {
                "events": obj["events"],
                "by_computer": obj.get("by_computer", False),
            }
    return out


async def missed(client: WsClient, since: int) -> tuple[dict[str, Any], dict[int, Any]]:
    """``catch_up`` from ``since``: the raw ``missed`` and its steps by state version."""
    answer = await client.request("catch_up", since=since)
    assert answer.type == "missed", answer
    raw = next(
        obj
        for obj in map(msgpack.unpackb, reversed(client.raw))
        if obj["type"] == "missed" and obj["re"] == answer.re
    )
    steps = {
        s["state_version"]: {
            "events": s.get("events", []),
            "by_computer": s.get("by_computer", False),
        }
        for s in raw.get("steps", [])
    }
    return raw, steps
