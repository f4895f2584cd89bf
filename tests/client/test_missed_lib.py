"""The client library back after a dropped connection (protocol 1.4): before the fresh
view its update stream yields what was missed (``Missed``, then each state's events as
the server sent them live, the computer's takes for our seat marked), so a screen shows
them as if watched before it asks for a decision."""

from __future__ import annotations

import asyncio
from typing import Any

from client.lib import Client, Missed, Status
from protocol import messages as m
from server.app import Server

from ..helpers import until


async def test_the_takes_missed_come_before_the_fresh_view(url: str, server: Server) -> None:
    ann = Client(url, name="Ann", backoff=(2.5, 2.5), protocol=m.PROTOCOL_VERSION)
    eve = Client(url, name="eve", persist_tokens=False, protocol=m.PROTOCOL_VERSION)
    await ann.connect()
    await eve.connect()
    seen: list[Any] = []
    live: dict[int, m.EventsMsg] = {}

    async def read(client: Client, into: Any) -> None:
        async for u in client.updates():
            into(u)

    tasks = [
        asyncio.create_task(read(ann, seen.append)),
        asyncio.create_task(
            read(eve, lambda u: isinstance(u, m.EventsMsg) and live.setdefault(u.state_version, u))
        ),
    ]
    try:
        created = await ann.create_table(
            "t", bots=[(1, "easy")], player="Ann", timing=m.Timing(grace=1)
        )
        await eve.watch(created.table.id)
        await ann.ready()
        for _ in range(2):  # two takes of Ann's own
            await until(lambda: ann.view is not None and ann.view.to_move == 0)
            assert ann.view is not None
            await ann.take(ann.view.choices[0].card, special=False)
        since = ann.state_version
        for session in list(server.sessions):  # the server side of Ann's connection
            if session.name == "Ann":
                session.ws.transport.abort()
        await until(lambda: any(isinstance(u, Missed) for u in seen), timeout=30)
        await until(lambda: any(isinstance(u, m.ViewMsg) for u in seen[_after_missed(seen) :]))
    finally:
        await ann.close()
        await eve.close()
        for t in tasks:
            t.cancel()
    start = _after_missed(seen)
    missed = seen[start - 1]
    # from the last state the client had (the computer may have moved once more before
    # the cut): nothing skipped, nothing twice
    assert isinstance(missed, Missed) and missed.since >= since and missed.steps >= 1
    before = [u.state_version for u in seen[: start - 1] if isinstance(u, m.EventsMsg)]
    assert before[-1] == missed.since
    since = missed.since
    assert any(isinstance(u, Status) and u.state == "resumed" for u in seen[: start - 1])
    steps = seen[start : start + missed.steps]
    assert all(isinstance(u, m.EventsMsg) for u in steps)
    assert [u.state_version for u in steps] == list(range(since + 1, since + missed.steps + 1))
    for u in steps:  # exactly what a spectator got live, the computer's marks too
        assert u == live[u.state_version].model_copy(update={"seq": u.seq}), u.state_version
    fresh = seen[start + missed.steps]
    assert isinstance(fresh, m.ViewMsg) and fresh.state_version == steps[-1].state_version
    ours = [u for u in steps if u.by_computer]
    assert missed.by_computer == len(ours) >= 1  # the stand-in played Ann's seat
    assert not any(isinstance(u, m.EventsMsg) and u.by_computer for u in seen[:start])


def _after_missed(seen: list[Any]) -> int:
    """The index just after the ``Missed`` in ``seen`` (len(seen) + 1 without one)."""
    return next((i + 1 for i, u in enumerate(seen) if isinstance(u, Missed)), len(seen) + 1)
