"""The order of ``presence`` and the view without ``takes`` when a computer player takes
a person's seat over (time-outs), when a person resigns on their turn (three players)
and when a person takes the seat back with ``back``: as PROTOCOL.md says, frame by
frame, for the person whose seat it is (an injected clock: no sleeping)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.helpers.servers import MakeServer
from tests.helpers.tables import expire, table_of

from ..helpers import FakeClock
from .wsclient import WsClient

PROTOCOL = Path(__file__).resolve().parents[2] / "docs" / "PROTOCOL.md"


def _shape(c: WsClient, start: int) -> list[str]:
    """The frames ``c`` got from ``start`` on: ``view`` with or without ``takes``."""
    out = []
    for x in c.msgs[start:]:
        if x is not None and x.type != "pong":
            out.append(f"view{'+takes' if x.view.takes else ''}" if x.type == "view" else x.type)
    return out


async def _past(c: WsClient, version: int) -> None:
    """Wait until ``c``'s newest view is past ``version``."""
    await c.wait_until(lambda: c.latest_view().state_version > version)


async def _frames_until(c: WsClient, start: int, pred: Any) -> list[str]:
    await c.wait_for(pred, start=start)
    return _shape(c, start)


async def test_take_over_back_and_resignation_in_the_documented_order(
    make_server: MakeServer,
) -> None:
    clock = FakeClock()
    server = await make_server(now=clock, bot_think=5)  # the stand-in thinks slowly
    _, (a, b), _ = await table_of(server, timing={"move": 10, "absent_after": 1})
    mover = a.latest_view().view.to_move
    sleeper, other = (a, b)[mover], (a, b)[1 - mover]
    start = len(sleeper.msgs)
    await expire(server, clock, a, 11)  # timed out: the computer moves and takes over
    got = await _frames_until(
        sleeper, start, lambda x: x.type == "presence" and x.seats[mover].computer
    )
    # after a wand the seat is still to move: one more view, of the same version
    assert got in (["events", "view", "presence"], ["events", "view", "view", "presence"]), got
    views = [x for x in sleeper.msgs[start:] if x is not None and x.type == "view"]
    assert len({v.state_version for v in views}) == 1
    while other.latest_view().view.to_move != mover:  # the other plays (wands: again)
        version = other.latest_view().state_version
        take = other.latest_view().view.takes[0].model_dump(exclude_defaults=True)
        start = len(sleeper.msgs)
        await other.request("take", state_version=version, **take)
        got = await _frames_until(sleeper, start, lambda x: x.type == "view")
        assert got == ["events", "view"], got  # the seat's turn, the computer's: no takes
        await _past(other, version)
    start = len(sleeper.msgs)  # the seat's turn, the computer's move: back
    await sleeper.send("back")
    got = await _frames_until(sleeper, start, lambda x: x.type == "ack")
    # the computer may have made its move just before (its events and view come
    # first, and the fresh view then has no takes: the turn has passed)
    assert got[-3:] in (["view+takes", "presence", "ack"], ["view", "presence", "ack"]), got
    assert got[:-3] == ["events", "view"] * (len(got[:-3]) // 2), got
    fresh = [x for x in sleeper.msgs[start:] if x is not None and x.type == "view"][-1]
    assert (got[-3] == "view+takes") == (fresh.view.to_move == mover), got

    _, clients, _ = await table_of(server, players=3)
    mover = clients[0].latest_view().view.to_move
    resigner = clients[mover]
    start = len(resigner.msgs)
    await resigner.send("resign")
    got = await _frames_until(resigner, start, lambda x: x.type == "ack")
    assert got == ["view", "presence", "ack"], got

    text = " ".join(PROTOCOL.read_text().split())
    for said in (
        "the `events` of the time-out and of the computer's take, a `view` without"
        " `takes` (two of the same `state_version` if your seat is still to move,"
        " after a wand), then `presence` showing your seat `absent` and `computer`",
        "`back` is answered by a fresh `view` (with `takes` if your seat is to move),"
        " then `presence` showing the seat yours again, then `ack`",
        "`resign` on your turn with three players is answered by a `view` without"
        " `takes` (the same `state_version`), then `presence` showing you `resigned`"
        " and `computer`, then `ack`",
    ):
        assert said in text, said
