"""``kupferkessel admin``'s endpoint on a running server (issue 26): every action asked
through the real unix socket of an in-process server on a SQLite store; what it
changes is stored (a closed table's result, the sanctions across a restart), logged,
and felt by the players (typed errors ``banned``, ``muted``; ``bye`` ``banned``)."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import stat
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import InvalidStatus

from server.app import Server
from server.store import Sanction, open_store
from tests.helpers.admin import ask, say
from tests.helpers.clock import FakeClock
from tests.helpers.servers import MakeServer
from tests.server.wsclient import WsClient, create, human_table, join, serving


@pytest.fixture
async def admin_server(make_server: MakeServer, tmp_path: Path) -> Server:
    return await make_server(admin_socket=str(tmp_path / "admin.sock"))


def admin_lines(caplog: pytest.LogCaptureFixture) -> list[dict[str, Any]]:
    return [
        {k: v for k, v in vars(r).items() if k in ("action", "table", "target", "value", "ending")}
        for r in caplog.records
        if r.name == "kupferkessel.admin" and r.getMessage() == "admin"
    ]


async def test_the_socket_is_the_servers_users_only(admin_server: Server) -> None:
    assert admin_server.admin is not None
    mode = os.stat(admin_server.admin.path).st_mode
    assert stat.S_ISSOCK(mode) and stat.S_IMODE(mode) == 0o600


async def test_tables_and_players(admin_server: Server) -> None:
    table, clients, tokens = await human_table(admin_server.port, 2, minors=(1, 0))
    watcher = await WsClient.open(admin_server.port, "wanda")
    await watcher.request("watch", table=table)
    lobby = await WsClient.open(admin_server.port, "loiterer")
    listed = await ask(admin_server, "tables")
    assert listed["ok"]
    (t,) = listed["tables"]
    assert (t["id"], t["state"], t["players"], t["spectators"]) == (table, "playing", 2, 1)
    assert [(s["seat"], s["name"], s["connected"]) for s in t["seats"]] == [
        (0, "p0", True),
        (1, "p1", True),
    ]
    players = {p["name"]: p for p in (await ask(admin_server, "players"))["players"]}
    assert set(players) == {"p0", "p1", "wanda", "loiterer"}
    assert (players["p0"]["table"], players["p0"]["seat"], players["p0"]["protocol"]) == (
        table,
        0,
        "1.1",
    )
    assert (players["wanda"]["table"], players["wanda"]["seat"]) == (table, None)
    assert (players["loiterer"]["table"], players["loiterer"]["state"]) == (None, "lobby")
    assert players["p1"]["address"] == "127.0.0.1" and players["p1"]["protocol"] == "1.0"
    answers = json.dumps([listed, await ask(admin_server, "players")])
    for token in tokens:  # the operator sees names and addresses, never a seat's token
        assert token not in answers
    for c in [*clients, watcher, lobby]:
        await c.close()


async def test_close_a_table_as_abandoned(
    admin_server: Server, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, "kupferkessel.admin")
    table, clients, _ = await human_table(admin_server.port, 2, minors=(1, 1))
    closed = await ask(admin_server, "close", table=table)
    assert closed == {"ok": True, "table": table, "ending": "abandoned", "winners": []}
    for c in clients:
        final = await c.wait_for(lambda x: x.type == "view" and x.view.game_over)
        assert final.view.winners == ()
    (game,) = admin_server.store.list_games()
    assert game.table_id == table and game.result is not None
    assert game.result["ending"] == "abandoned"
    again = await ask(admin_server, "close", table=table)
    assert (again["ok"], again["error"]) == (False, "game_over")
    assert admin_lines(caplog) == [{"action": "close", "table": table, "ending": "abandoned"}]
    for c in clients:
        await c.close()


async def test_close_a_table_with_a_seat_resigning(admin_server: Server) -> None:
    table, clients, _ = await human_table(admin_server.port, 3, minors=(1, 1, 1))
    closed = await ask(admin_server, "close", table=table, resign=1)
    assert (closed["ending"], closed["winners"]) == ("resigned", [0, 2])
    final = await clients[0].wait_for(lambda x: x.type == "view" and x.view.game_over)
    assert final.view.winners == (0, 2)
    (game,) = admin_server.store.list_games()
    assert game.result is not None and game.result["resigned"] == [1]
    maker = await WsClient.open(admin_server.port, "maker")
    lobby_table, _, _ = await create(maker, player=None)  # never started
    assert (await ask(admin_server, "close", table=lobby_table))["ending"] == "abandoned"
    await maker.close()
    refused = await ask(admin_server, "close", table="nosuchtable")
    assert (refused["ok"], refused["error"]) == (False, "no_such_table")
    for c in clients:
        await c.close()


async def test_mute_refuses_chat_until_it_ends_or_is_lifted(
    make_server: MakeServer, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, "kupferkessel.admin")
    clock = FakeClock()
    server = await make_server(admin_socket=str(tmp_path / "a.sock"), now=clock)
    _, (p0, p1), _ = await human_table(server.port, 2)
    muted = await ask(server, "mute", name="P1", seconds=600, reason="spam")  # any case
    assert muted["ok"] and muted["sanction"]["value"] == "p1" and muted["closed"] == 0
    start = len(p1.msgs)
    assert await say(p1, "buy cheap gold") == "muted"
    refused = await p1.wait_type("error", start=start)
    assert "muted" in refused.message and "until" in refused.message
    assert await say(p0, "hello") == "said"  # others chat on
    await p1.ping()  # the muted player still plays
    clock.t += 601  # the mute ends by itself
    assert await say(p1, "sorry") == "said"
    again = await ask(server, "mute", address="127.0.0.1")  # until lifted
    assert await say(p0, "hm") == "muted"
    listed = await ask(server, "sanctions")
    assert [s["id"] for s in listed["sanctions"]] == [again["sanction"]["id"]]
    lifted = await ask(server, "lift", id=again["sanction"]["id"])
    assert lifted["ok"] and await say(p0, "hm!") == "said"
    assert (await ask(server, "lift", id=again["sanction"]["id"]))["error"] == "no_such_sanction"
    assert [x["action"] for x in admin_lines(caplog)] == ["mute", "mute", "lift"]
    for c in (p0, p1):
        await c.close()


async def test_a_banned_name_is_refused_at_every_seat(admin_server: Server) -> None:
    _, (p0, p1), tokens = await human_table(admin_server.port, 2)
    banned = await ask(admin_server, "ban", name="ＰＯ".replace("Ｏ", "0"), seconds=3600)
    assert banned["ok"] and banned["sanction"]["value"] == "p0"
    assert banned["closed"] == 1  # p0's connection, not p1's
    bye = await p0.wait_type("bye")
    assert bye.reason == "banned"
    assert (await p0.wait_closed())[0] == 1008
    await p1.ping()
    back = await WsClient.open(admin_server.port, "back")
    resumed = await back.request("resume", token=tokens[0])
    assert (resumed.type, resumed.code) == ("error", "banned")
    other = await WsClient.open(admin_server.port, "x")
    refused = await other.request("create_table", name="t", player="P0")
    assert (refused.type, refused.code) == ("error", "banned")
    table2, _, _ = await create(other, player="someone")
    joined = await back.request("join", table=table2, player="p0")
    assert (joined.type, joined.code) == ("error", "banned")
    assert (await join(back, table2, "p9"))[0] == 1  # another name sits down
    for c in (p1, back, other):
        await c.close()


async def test_a_banned_address_is_refused_at_the_handshake(
    make_server: MakeServer, tmp_path: Path
) -> None:
    """Behind a proxy on this machine the address is the forwarded one: a ban of it
    closes its connections and refuses its handshakes (403); other addresses connect."""
    server = await make_server(admin_socket=str(tmp_path / "a.sock"), trust_forwarded=True)
    bad = {"additional_headers": {"X-Forwarded-For": "203.0.113.9"}}
    good = {"additional_headers": {"X-Forwarded-For": "198.51.100.1"}}
    spammer = await WsClient.open(server.port, "s", **bad)
    friend = await WsClient.open(server.port, "f", **good)
    banned = await ask(server, "ban", address="203.0.113.9", seconds=60, reason="flood")
    assert banned["closed"] == 1
    assert (await spammer.wait_type("bye")).reason == "banned"
    with pytest.raises(InvalidStatus) as e:
        await WsClient.open(server.port, "s2", **bad)
    assert e.value.response.status_code == 403
    assert b"banned" in e.value.response.body
    await friend.ping()
    again = await WsClient.open(server.port, "f2", **good)
    for c in (friend, again):
        await c.close()


async def test_sanctions_are_stored_and_outlive_a_restart(tmp_path: Path) -> None:
    db, sock = tmp_path / "kk.db", str(tmp_path / "admin.sock")
    async with serving(db, admin_socket=sock) as server:
        ban = await ask(server, "ban", name="Mallory", reason="cheating")
        mute = await ask(server, "mute", name="trent", seconds=3600)
        await ask(server, "lift", id=mute["sanction"]["id"])
    async with serving(db, admin_socket=sock) as server:  # the socket file is reused
        listed = await ask(server, "sanctions")
        assert [s["id"] for s in listed["sanctions"]] == [ban["sanction"]["id"]]
        c = await WsClient.open(server.port, "m")
        refused = await c.request("create_table", name="t", player="mallory")
        assert refused.code == "banned"
        await c.close()
    store = open_store(db)  # both stored, the lifted one as lifted
    store.open_sync()
    rows = store._read(lambda con: con.execute("SELECT value, lifted FROM sanctions").fetchall())
    assert sorted((v, lifted is not None) for v, lifted in rows) == [
        ("mallory", False),
        ("trent", True),
    ]
    store.close_reader()


@pytest.mark.parametrize(
    ("line", "code"),
    [
        (b"not json\n", "malformed"),
        (b"[1, 2]\n", "malformed"),
        (b'{"action": "reboot"}\n', "unknown_action"),
        (b'{"action": "close"}\n', "invalid_field"),
        (b'{"action": "ban", "name": "a", "address": "b"}\n', "invalid_field"),
        (b'{"action": "mute", "name": "a", "seconds": -5}\n', "invalid_field"),
        (b'{"action": "close", "table": "x", "resign": "one"}\n', "invalid_field"),
        (b"{" + b" " * 70_000 + b"}\n", "too_large"),
    ],
)
async def test_bad_requests_get_typed_errors(admin_server: Server, line: bytes, code: str) -> None:
    assert admin_server.admin is not None
    reader, writer = await asyncio.open_unix_connection(admin_server.admin.path)
    writer.write(line)
    await writer.drain()
    answer = json.loads(await asyncio.wait_for(reader.readline(), 10))
    writer.close()
    assert (answer["ok"], answer["error"]) == (False, code)
    assert (await ask(admin_server, "tables"))["ok"]  # the server carries on


async def test_a_second_server_cannot_take_a_live_socket(
    admin_server: Server, make_server: MakeServer
) -> None:
    assert admin_server.admin is not None
    with pytest.raises(OSError, match="another server answers"):
        await make_server(admin_socket=str(admin_server.admin.path))
    assert (await ask(admin_server, "tables"))["ok"]


async def test_no_socket_unless_configured(make_server: MakeServer) -> None:
    server = await make_server()
    assert server.admin is None


async def test_a_ban_takes_no_frame_from_others(admin_server: Server) -> None:
    """A banned player's refusals are their own: nobody else hears of the ban."""
    _, (p0, p1), _ = await human_table(admin_server.port, 2)
    before = len(p1.raw)
    await ask(admin_server, "mute", name="p0")
    assert await say(p0, "x") == "muted"
    await p1.ping()
    assert [x.type for x in p1.msgs[before:] if x is not None] == ["pong"]
    for c in (p0, p1):
        await c.close()


async def test_a_ban_stored_by_another_node_reaches_this_one(make_server: MakeServer) -> None:
    """A node reads the sanctions the others stored at each sweep (here every second):
    a new ban refuses seats and closes the connections it concerns there too."""
    server = await make_server(finished_ttl=4)  # a sweep a second
    _, (zed, amy), _ = await human_table(server.port, 2)
    now = server.config.now()
    await server.store.add_sanction(Sanction("n0de2b4n", "ban", "name", "p0", now, None, ""))
    assert (await zed.wait_type("bye", timeout=15)).reason == "banned"
    await amy.ping()
    other = await WsClient.open(server.port, "o")
    assert (await other.request("create_table", name="t", player="P0")).code == "banned"
    for c in (amy, other):
        await c.close()
