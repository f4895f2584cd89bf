"""docs/PROTOCOL.md, "The order of messages": the frames shown there are the frames a
real server sends, in that order, on the JSON subprotocol.

Each ``<`` line's ``type`` (and its ``seq``, ``re``, ``state_version`` and a
``presence``'s ``state`` where the line shows them) must be the next frame the
connection reads; each ``>`` line is sent as shown, with the real table id and a legal
take of the view in place of the document's."""

from __future__ import annotations

import asyncio
import json
import random
import re
from pathlib import Path
from typing import Any

import websockets

from server.app import Server, ServerConfig
from server.lobby import NO_QUOTAS
from server.store import MemoryStore

DOC = Path(__file__).resolve().parents[2] / "docs" / "PROTOCOL.md"
SUBPROTOCOL = "kupferkessel.v1+json"


def _blocks() -> list[list[str]]:
    text = DOC.read_text(encoding="utf-8")
    section = text.split("### The order of messages\n", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```\n(.*?)```", section, re.S)
    assert len(blocks) == 3, "Ada's frames, Grace's, and the take that ends the game"
    return [[ln for ln in b.splitlines() if ln[:2] in ("> ", "< ")] for b in blocks]


def _top(line: str, name: str) -> str | None:
    """A field of the message's own map (the fields shown before any nested one)."""
    head = line.split("{", 2)
    outer = "{" + head[1] if len(head) > 1 else line
    found = re.search(rf'"{name}":("?)([\w-]+)\1', outer)
    return found.group(2) if found else None


def _expect(line: str, got: dict[str, Any], who: str) -> None:
    kind = re.match(r'< \{"type":"(\w+)"', line)
    assert kind, line
    assert got["type"] == kind.group(1), f"{who}: expected {line!r}, got {got}"
    for name in ("seq", "re", "state_version"):
        shown = _top(line, name)
        if shown is not None:
            assert str(got.get(name)) == shown, f"{who}: {name} of {got} vs {line!r}"
    if got["type"] == "presence" and _top(line, "state") is not None:
        assert got["state"] == _top(line, "state"), f"{who}: {got} vs {line!r}"


class Conn:
    def __init__(self, ws: Any, who: str) -> None:
        self.ws, self.who = ws, who
        self.frames: list[dict[str, Any]] = []
        self.view: dict[str, Any] | None = None
        self.version = 0
        self.table = ""
        self.sent_take: int | None = None

    async def recv(self) -> dict[str, Any]:
        raw = await asyncio.wait_for(self.ws.recv(), 30)
        assert isinstance(raw, str), "text frames on the JSON subprotocol"
        msg: dict[str, Any] = json.loads(raw)
        self.frames.append(msg)
        if msg["type"] in ("events", "view"):
            assert "re" not in msg, f"{self.who}: events and views answer nothing: {msg}"
        if msg["type"] == "view":
            self.view, self.version = msg["view"], msg["state_version"]
        if msg["type"] == "joined":
            self.table = msg["table"]
        return msg

    async def send_as_shown(self, line: str, table: str) -> None:
        msg = json.loads(line[2:])
        if "table" in msg:
            msg["table"] = table
        if msg["type"] == "take":
            assert self.view is not None and self.view.get("takes")
            msg = {"type": "take", "id": msg["id"], "state_version": self.version}
            msg.update(self.view["takes"][0])
            self.sent_take = msg["id"]
        await self.ws.send(json.dumps(msg, separators=(",", ":")))

    async def run(
        self,
        lines: list[str],
        table: asyncio.Future[str],
        after: asyncio.Event | None = None,
        mark: str | None = None,
        marked: asyncio.Event | None = None,
    ) -> None:
        for line in lines:
            if line.startswith("> "):
                if after is not None and '"type":"join"' in line:
                    await after.wait()
                await self.send_as_shown(line, await table if '"table"' in line else "")
            else:
                got = await self.recv()
                _expect(line, got, self.who)
                if got["type"] == "joined" and not table.done():
                    table.set_result(got["table"])
                if mark is not None and marked is not None and line == mark:
                    marked.set()


async def _play_out(c: Conn, rng: random.Random) -> None:
    """Random legal takes from ``view.takes`` until the table is finished."""
    next_id = 100
    pending: int | None = None
    finished = False
    while True:
        view = c.view
        if pending is None and view and not view["game_over"] and view.get("takes"):
            next_id += 1
            take = {"type": "take", "id": next_id, "state_version": c.version}
            take.update(rng.choice(view["takes"]))
            await c.ws.send(json.dumps(take, separators=(",", ":")))
            pending = c.sent_take = next_id
        if finished and pending is None:
            return
        msg = await c.recv()
        if msg["type"] == "ack" and msg.get("re") == pending:
            pending = None
        if msg["type"] == "presence" and msg["state"] == "finished":
            finished = True


async def test_the_documented_order_of_messages() -> None:
    ada_lines, grace_lines, ending = _blocks()
    server = Server(ServerConfig(port=0, host="127.0.0.1", quotas=NO_QUOTAS), MemoryStore())
    await server.start()
    try:
        url = f"ws://127.0.0.1:{server.port}/"
        async with (
            websockets.connect(url, subprotocols=[SUBPROTOCOL]) as wa,
            websockets.connect(url, subprotocols=[SUBPROTOCOL]) as wg,
        ):
            assert wa.subprotocol == wg.subprotocol == SUBPROTOCOL
            ada, grace = Conn(wa, "Ada"), Conn(wg, "Grace")
            table: asyncio.Future[str] = asyncio.get_running_loop().create_future()
            ready_seen = asyncio.Event()  # Grace joins once Ada's ready is shown
            ready_line = next(ln for ln in ada_lines if '"ready":true' in ln)
            await asyncio.gather(
                ada.run(ada_lines, table, mark=ready_line, marked=ready_seen),
                grace.run(grace_lines, table, after=ready_seen),
            )
            rng = random.Random(7)
            await asyncio.gather(_play_out(ada, rng), _play_out(grace, rng))
        shown = [ln for ln in ending if ln.startswith("< ")]
        by_take = ada if ada.frames[-1]["type"] == "ack" else grace
        other = grace if by_take is ada else ada
        assert by_take.frames[-1]["re"] == by_take.sent_take
        for line, got in zip(shown, by_take.frames[-len(shown) :], strict=True):
            _expect(re.sub(r'"(seq|re|state_version)":\d+,?', "", line), got, by_take.who)
        assert [m["type"] for m in other.frames[-3:]] == ["events", "view", "presence"]
        assert other.frames[-1]["state"] == "finished"
        final = by_take.frames[-3]
        assert final["view"]["game_over"] and final["view"]["result"]["ending"] == "played_out"
        assert by_take.frames[-4]["events"][-1]["kind"] == "game_over"
    finally:
        await server.stop()
