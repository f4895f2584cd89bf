"""Bans and mutes of addresses that hold, and an audit that names who acted: an address
sanction is parsed as an address (one, or a CIDR range, IPv4 or IPv6; anything else
refused), every admin action's log line and stored sanction name the admin socket's
peer, and a refused handshake is logged with its address. A real server on SQLite,
its real admin socket; clients "come from" other addresses through a trusted proxy's
``X-Forwarded-For``."""

from __future__ import annotations

import logging
import os
import pwd
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import InvalidStatus

from server.app import Server
from server.store import Sanction, open_store
from tests.helpers.admin import ask, say
from tests.helpers.servers import MakeServer
from tests.server.wsclient import WsClient, human_table, serving


def coming_from(address: str) -> dict[str, Any]:
    return {"additional_headers": {"X-Forwarded-For": address}}


@pytest.fixture
async def proxied(make_server: MakeServer, tmp_path: Path) -> Server:
    return await make_server(admin_socket=str(tmp_path / "a.sock"), trust_forwarded=True)


async def refused_at_handshake(server: Server, address: str) -> bool:
    try:
        client = await WsClient.open(server.port, "x", **coming_from(address))
    except InvalidStatus as e:
        assert e.response.status_code == 403 and b"banned" in e.response.body
        return True
    await client.close()
    return False


async def test_a_ban_of_a_range_covers_every_address_in_it(proxied: Server) -> None:
    inside = await WsClient.open(proxied.port, "in", **coming_from("127.0.5.7"))
    outside = await WsClient.open(proxied.port, "out", **coming_from("127.0.6.7"))
    banned = await ask(proxied, "ban", address=" 127.0.5.0/24 ", reason="flood")
    assert banned["ok"] and banned["sanction"]["value"] == "127.0.5.0/24"
    assert banned["closed"] == 1
    assert (await inside.wait_type("bye")).reason == "banned"
    await outside.ping()
    assert await refused_at_handshake(proxied, "127.0.5.200")
    assert await refused_at_handshake(proxied, "::ffff:127.0.5.9")  # IPv4 seen through IPv6
    assert not await refused_at_handshake(proxied, "127.0.4.255")
    six = await ask(proxied, "ban", address="2001:DB8:0:0::/48")
    assert six["sanction"]["value"] == "2001:db8::/48"  # the compressed form
    assert await refused_at_handshake(proxied, "2001:db8:0:ffff::1")
    assert not await refused_at_handshake(proxied, "2001:db9::1")
    one = await ask(proxied, "ban", address="2001:db9:0::7/128")  # a range of one: an address
    assert one["sanction"]["value"] == "2001:db9::7"
    assert await refused_at_handshake(proxied, "2001:db9::7")
    mapped = await ask(proxied, "ban", address="::ffff:198.51.100.3")  # IPv4 in IPv6 form
    assert mapped["sanction"]["value"] == "198.51.100.3"
    assert await refused_at_handshake(proxied, "198.51.100.3")
    await outside.close()


async def test_a_mute_of_a_range_covers_every_address_in_it(proxied: Server) -> None:
    _, (p0, p1), _ = await human_table(proxied.port, 2)  # both from 127.0.0.1
    muted = await ask(proxied, "mute", address="127.0.0.0/8")
    assert muted["ok"] and await say(p0, "hello") == "muted"
    await ask(proxied, "lift", id=muted["sanction"]["id"])
    assert await say(p1, "hello") == "said"
    for c in (p0, p1):
        await c.close()


@pytest.mark.parametrize(
    "address",
    [
        "not-an-ip",
        "127.000.004.001",  # leading zeros: octal to some parsers, decimal to others
        "127.0.5.7/24",  # bits set past the prefix: which range was meant?
        "127.0.5.0/33",
        "2001:db8::/129",
        "127.1",
        "localhost",
        "1.2.3.4 5.6.7.8",
    ],
)
async def test_what_is_not_an_address_is_refused(proxied: Server, address: str) -> None:
    for kind in ("ban", "mute"):
        refused = await ask(proxied, kind, address=address)
        assert (refused["ok"], refused["error"]) == (False, "invalid_field")
        assert "address" in refused["message"] or "range" in refused["message"]
    assert (await ask(proxied, "sanctions"))["sanctions"] == []  # nothing stored


async def test_sanctions_stored_before_addresses_were_parsed_still_load(tmp_path: Path) -> None:
    """Read leniently: a stored address sanction that is no address (made before they
    were parsed) covers its exact text only and breaks nothing; a valid one covers as
    an address now."""
    db = tmp_path / "kk.db"
    store = open_store(str(db))
    await store.start()
    for sid, value in (("0ld0ne01", "not-an-ip"), ("0ld0ne02", "203.0.113.0/24")):
        await store.add_sanction(Sanction(sid, "ban", "address", value, 1.0, None, ""))
    await store.close()
    async with serving(db, admin_socket=str(tmp_path / "a.sock"), trust_forwarded=True) as server:
        listed = await ask(server, "sanctions")
        assert {s["value"] for s in listed["sanctions"]} == {"not-an-ip", "203.0.113.0/24"}
        assert all(s["by"] is None for s in listed["sanctions"])
        assert await refused_at_handshake(server, "203.0.113.77")
        assert not await refused_at_handshake(server, "198.51.100.1")


def me() -> str:
    return pwd.getpwuid(os.geteuid()).pw_name


async def test_every_admin_action_names_who_did_it(
    proxied: Server, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    who = f"{me()} (uid {os.geteuid()}, pid {os.getpid()})"  # the asker is this process
    banned = await ask(proxied, "ban", address="203.0.113.9", reason="flood")
    assert banned["sanction"]["by"] == who
    muted = await ask(proxied, "mute", name="Troll")
    await ask(proxied, "lift", id=muted["sanction"]["id"])
    await ask(proxied, "close", table="nosuchtable")  # refused: nothing done, no line
    lines = [r for r in caplog.records if r.name == "kupferkessel.admin" and r.msg == "admin"]
    assert [(r.action, r.by) for r in lines] == [("ban", who), ("mute", who), ("lift", who)]
    stored = proxied.store.load_sanctions(proxied.config.now())  # read from the database
    assert [(s.id, s.actor) for s in stored] == [(banned["sanction"]["id"], who)]

    assert await refused_at_handshake(proxied, "203.0.113.9")
    (refusal,) = [r for r in caplog.records if r.msg == "handshake refused: banned"]
    assert (refusal.address, refusal.sanction) == ("203.0.113.9", banned["sanction"]["id"])
    troll = await WsClient.open(proxied.port, "t", **coming_from("198.51.100.7"))
    name_ban = await ask(proxied, "ban", name="Troll")
    refused = await troll.request("create_table", name="t", player="Troll")
    assert refused.code == "banned"
    (seat,) = [r for r in caplog.records if r.msg == "refused: banned"]
    assert (seat.address, seat.sanction) == ("198.51.100.7", name_ban["sanction"]["id"])
    await troll.close()
