"""The session's state table (``server.net.states``: ``ACCEPTS`` and ``MOVES``) is the
one in docs/PROTOCOL.md, "Session states", covers every client message, and is how a
session moves."""

from __future__ import annotations

import re
from pathlib import Path

from protocol.messages import CLIENT_MESSAGES
from server.app import Server
from server.net.states import ACCEPTS, MOVES, OK, Phase
from tests.helpers.waiting import until

from .wsclient import WsClient, create, human_table

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


def doc_states() -> tuple[dict[str, set[str]], set[tuple[str, str, str, str]]]:
    """The doc's table of states: state -> the answers that move a connection there,
    and every move it shows, as (from, client message, its answer, to)."""
    text = DOC.read_text()
    start = text.index("| state | how you get there | how you leave it |")
    arrive: dict[str, set[str]] = {}
    moves: set[tuple[str, str, str, str]] = set()
    for line in text[start:].splitlines()[2:]:
        if not line.startswith("|"):
            break
        state, there, leave = (c.strip() for c in line.strip("|").split("|"))
        name = state.strip("*")
        arrive[name] = set(re.findall(r"`(\w+)`", there))
        for part in leave.split(";"):
            asked, answer = part.split("→")
            found = re.fullmatch(r"\s*`(\w+)`: \*\*(\w+)\*\*\s*", answer)
            assert found is not None, part
            reply, to = found.groups()
            for kind in re.findall(r"`(\w+)`", asked):
                if kind in ACCEPTS:  # not a field (``create_table`` with a ``player``)
                    moves.add((name, kind, reply, to))
    return arrive, moves


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


def test_the_moves_are_the_documented_ones() -> None:
    arrive, moves = doc_states()
    assert set(arrive) == {p.value for p in Phase}
    assert moves == {(a.value, kind, reply, b.value) for a, kind, reply, b in MOVES}
    for phase in Phase:
        assert arrive[phase.value] == {reply for *_, reply, b in MOVES if b is phase}, phase
    for a, kind, _, _ in MOVES:  # a move starts where its message is accepted
        assert ACCEPTS[kind][a] == OK, (a, kind)


async def test_a_session_moves_as_the_table_says(server: Server) -> None:
    """Every move of ``MOVES`` made by a real connection (but 1.2's ``rejoin``: the
    players' tests make it): the answer it gets, and the session's phase after it."""
    table, players, tokens = await human_table(server.port, 2, minors=(1, 1, 1))
    await players[0].request("leave")  # during the game: the seat stays, for its token
    host = await WsClient.open(server.port, "host", (1, 1))
    open_table, _, _ = await create(host, None, options={"players": 2})
    known = set(server.sessions)
    c = await WsClient.open(server.port, None, (1, 1))
    await until(lambda: len(server.sessions - known) == 1)
    (session,) = server.sessions - known
    made: set[tuple[Phase, str, str, Phase]] = set()

    async def move(kind: str, **fields: object) -> None:
        (mv,) = [mv for mv in MOVES if mv[0] is session.phase and mv[1] == kind]
        msg_id = await c.send(kind, **fields)
        got = await c.wait_for(lambda x: x.re == msg_id and x.type in (mv[2], "error"))
        assert got.type == mv[2], got
        assert session.phase is mv[3], (kind, session.phase)
        made.add(mv)

    assert session.phase is Phase.CONNECTED
    await move("hello", protocol=[1, 1], client="walker")
    await move("create_table", name="t", player="w", options={"players": 2})
    await move("leave")
    await move("join", table=open_table, player="w")
    await move("leave")
    await move("watch", table=table)
    await move("leave")
    await move("resume", token=tokens[0])
    await move("leave")
    for client in [c, host, *players]:
        await client.close()
    assert made == {mv for mv in MOVES if mv[1] != "rejoin"}


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
