"""The session's state table (``server.net.session.ACCEPTS``) is the one in
docs/PROTOCOL.md, "Connection states", and covers every client message."""

from __future__ import annotations

import re
from pathlib import Path

from protocol.messages import CLIENT_MESSAGES
from server.app import Server
from server.net.states import ACCEPTS, OK, Phase

from .wsclient import WsClient, human_table

DOC = Path(__file__).resolve().parents[2] / "docs" / "PROTOCOL.md"
SESSION_CODES = {"hello_required", "not_allowed", "already_seated", "not_seated"}
"""Refusals the session decides; the others (``not_in_lobby``, ...) are the table's."""


def doc_table() -> dict[str, list[str]]:
    """Message type -> its row of the doc's table: connected, lobby, seated (table in
    its lobby, playing, finished), watching."""
    text = DOC.read_text()
    start = text.index("| message | connected | lobby |")
    rows: dict[str, list[str]] = {}
    for line in text[start:].splitlines()[2:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        for kind in re.findall(r"`(\w+)`", cells[0]):
            rows[kind] = cells[1:]
    return rows


def verdict(cell: str) -> str:
    """A doc cell as the session sees it: OK, or the session's own refusal code."""
    codes = re.findall(r"`(\w+)`", cell)
    if cell.startswith("✓") or not codes or codes[0] not in SESSION_CODES:
        return OK  # accepted (the table may still refuse it)
    return codes[0]


def test_every_client_message_has_a_row() -> None:
    assert set(ACCEPTS) == set(CLIENT_MESSAGES)
    assert all(set(row) == set(Phase) for row in ACCEPTS.values())


def test_the_state_table_is_the_documented_one() -> None:
    doc = doc_table()
    assert set(doc) == set(ACCEPTS)
    for kind, cells in doc.items():
        connected, lobby, *seated, watching = (verdict(c) for c in cells)
        assert len(set(seated)) == 1, (kind, cells)
        documented = {
            Phase.CONNECTED: connected,
            Phase.LOBBY: lobby,
            Phase.SEATED: seated[0],
            Phase.WATCHING: watching,
        }
        assert ACCEPTS[kind] == documented, kind


async def test_a_spectator_cannot_resume_a_seat(server: Server) -> None:
    """Watching, ``resume`` is refused even for a seat of the watched table (leave
    first), as the table says; the seat's player keeps it."""
    table, clients, tokens = await human_table(server.port, 2)
    watcher = await WsClient.open(server.port, "w")
    await watcher.request("watch", table=table)
    err = await watcher.request("resume", token=tokens[0])
    assert err.type == "error" and err.code == "already_seated"
    assert server.lobby.get(table).seats[0].occupant is not None
    await clients[0].ping()
    for c in [*clients, watcher]:
        await c.close()
