"""Golden frames: what a scripted session's clients receive, recorded once to a file
under ``golden/`` and held to it on every later run, frame by frame, field order
included. Only what is random or a clock by design is replaced by placeholders
(``Masker``). ``KK_GOLDEN_WRITE=1`` records the files again, which is only ever right on
a server whose behaviour for those versions is known to be good."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

from .wsclient import WsClient

GOLDEN = Path(__file__).parent / "golden"
_TABLE_ID = re.compile(r"[0-9a-f]{8}")
RECORDED_VERSION = "0.1.0"
"""``welcome.server_version`` as the frames were recorded: a free string (PROTOCOL.md)
naming the build, which no client reads for meaning, so any build's version reads as it."""


class Masker:
    """Replaces random ids and tokens (and, with ``clock``, the wall-clock times of
    protocol 1.2's players, profiles and game lists, the time left on a rated table's
    clock, and 1.3's devices) with stable placeholders: first seen, first named."""

    def __init__(self, clock: bool = False) -> None:
        self.tables: dict[str, str] = {}
        self.times = ("since", "finished", "added", "last_used") if clock else ()

    def __call__(self, value: Any, key: str | None = None) -> Any:
        if isinstance(value, dict):
            if value.get("type") == "missed":  # 1.4: its ``since`` is a state version
                return {k: v if k == "since" else self(v, k) for k, v in value.items()}
            return {k: self(v, k) for k, v in value.items()}
        if isinstance(value, list):
            return [self(v, key) for v in value]
        if key in ("token", "invite", "device"):  # 1.3: a device's id is random too
            return f"<{key}>"
        if key == "bot_levels":  # the server's own list of computer players
            return "<bot_levels>"
        if key == "server_version" and isinstance(value, str) and value:
            return RECORDED_VERSION  # the build's own (server.version), whatever it is
        if key in self.times and isinstance(value, int):
            return "<time>"
        if key == "left_ms" and self.times:  # a running clock's time left (1.2: rated)
            return "<left_ms>"
        if key in ("table", "id") and isinstance(value, str) and _TABLE_ID.fullmatch(value):
            return self.tables.setdefault(value, f"<table{len(self.tables)}>")
        return value


async def settle(*clients: WsClient) -> None:
    """Every frame caused so far has reached every client (a ping round trip each)."""
    for c in clients:
        await c.ping()


def hold_to(name: str, lines: list[str], *, write: bool = True) -> None:
    """``lines`` (one JSON text a frame) are exactly the file ``golden/<name>``; with
    ``KK_GOLDEN_WRITE`` set (and ``write``) they are recorded as it first."""
    path = GOLDEN / name
    if os.environ.get("KK_GOLDEN_WRITE") and write:
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    golden = path.read_text(encoding="utf-8").splitlines()
    for i, (got, want) in enumerate(zip(lines, golden, strict=False)):
        assert got == want, f"{name}: frame {i} differs:\n got  {got}\nwant {want}"
    assert len(lines) == len(golden), f"{name}: {len(lines)} frames, {len(golden)} recorded"


def frame_lines(frames: dict[str, list[Any]]) -> list[str]:
    """Each client's decoded frames as the file's lines: ``{"client": ..., "frame": ...}``."""
    return [json.dumps({"client": k, "frame": f}) for k, fs in frames.items() for f in fs]
