"""Registered players over the protocol, on real SQLite and PostgreSQL stores: a name
kept by a secret, sign-in from any later connection, rejoining a seat without its
token, and moving to another device with a one-time code."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from server.players.credentials import DeviceCodes, code_hash
from server.players.hashing import Hasher, SignInBounds
from server.players.names import name_key
from server.store import MemoryStore, Store, open_store
from server.store.players import StoredPlayer
from tests.helpers.cluster import KEEP_LEASE, cluster
from tests.server.wsclient import WsClient, create

from .helpers import new_secret, signed_in, stored_server


async def test_register_and_sign_in(store_url: str) -> None:
    secret = new_secret()
    async with stored_server(store_url) as server:
        ada = await signed_in(server.port, "Ada", secret, register=True)
        assert ada.msgs[-1].player.name == "Ada" and ada.msgs[-1].secret is None
        await ada.close()
    async with stored_server(store_url) as server:  # kept across a restart
        again = await signed_in(server.port, "ADA", secret)
        assert again.msgs[-1].player.name == "Ada"
        other = await WsClient.open(server.port, "x", (1, 2))
        for name, sec in (("Ada", new_secret()), ("Nobody", secret)):
            err = await other.request("sign_in", name=name, secret=sec)
            assert err.type == "error" and err.code == "bad_secret", err
        err = await again.request("sign_in", name="Ada", secret=secret)
        assert err.code == "not_allowed"  # signed in already
        for c in (again, other):
            await c.close()


@pytest.mark.parametrize("name", ["ada", "ＡＤＡ", "Аda", "A da".replace(" ", "")])
async def test_confusable_names_are_taken(store_url: str, name: str) -> None:
    async with stored_server(store_url) as server:
        ada = await signed_in(server.port, "Ada", new_secret(), register=True)
        other = await WsClient.open(server.port, "x", (1, 2))
        err = await other.request("register", name=name, secret=new_secret())
        assert err.type == "error" and err.code == "name_taken", (name, err)
        ok = await other.request("register", name="Grace", secret=new_secret())
        assert ok.type == "signed_in"
        for c in (ada, other):
            await c.close()


def test_name_keys() -> None:
    assert name_key("Ada") == name_key("ada") == name_key("ＡＤＡ") == name_key("Аda")
    assert name_key("Il") == name_key("lI")  # capital I and small l look alike
    assert name_key("Ada  Lovelace") == name_key("ada lovelace")
    assert name_key("Bob") != name_key("Rob") and name_key("Zoë") != name_key("Zoe")


async def test_a_registered_player_rejoins_from_a_second_connection(store_url: str) -> None:
    secret = new_secret()
    async with stored_server(store_url) as server:
        ada = await signed_in(server.port, "Ada", secret, register=True)
        table, _, _token = await create(ada, player="whatever", options={"players": 2})
        assert ada.of_type("joined")[0].seat == 0
        grace = await WsClient.open(server.port, "g", (1, 1))
        await grace.request("join", table=table, player="Grace")
        for c in (ada, grace):
            await c.send("ready")
        await ada.wait_type("view")
        names = [s.name for s in server.lobby.get(table).public_seats()]
        assert names == ["Ada", "Grace"]  # seated under the registered name
        ada.abort()
        # a thief knowing the name but not the secret gets nothing
        thief = await WsClient.open(server.port, "t", (1, 2))
        err = await thief.request("rejoin", table=table)
        assert err.type == "error" and err.code == "not_signed_in"
        err = await thief.request("sign_in", name="Ada", secret=new_secret())
        assert err.code == "bad_secret"
        err = await thief.request("rejoin", table=table)
        assert err.code == "not_signed_in"
        # the player, on a new connection
        back = await signed_in(server.port, "Ada", secret)
        assert [(s.table, s.seat) for s in back.msgs[-1].seats] == [(table, 0)]
        resumed = await back.request("rejoin", table=table)
        assert resumed.type == "resumed" and resumed.seat == 0
        view = await back.wait_type("view")
        assert view.view.seat == 0
        err = await back.request("rejoin", table="nothere")
        assert err.code == "already_seated"  # seated: the state table's answer
        await back.request("leave")
        err = await back.request("rejoin", table="nothere")
        assert err.code == "no_such_table"  # no seat of hers there
        for c in (back, grace, thief):
            await c.close()


async def test_a_device_code_works_once(store_url: str) -> None:
    async with stored_server(store_url) as server:
        ada = await signed_in(server.port, "Ada", new_secret(), register=True)
        code = await ada.request("new_device_code")
        assert code.type == "device_code" and code.expires_in == 300
        phone = await WsClient.open(server.port, "phone", (1, 2))
        typed = code.code.lower().replace("-", "")
        answer = await phone.request("redeem_code", code=typed)
        assert answer.type == "signed_in" and answer.player.name == "Ada"
        assert answer.secret is not None and len(answer.secret) >= 32
        again = await WsClient.open(server.port, "again", (1, 2))
        err = await again.request("redeem_code", code=code.code)
        assert err.type == "error" and err.code == "bad_code"
        await signed_in(server.port, "Ada", answer.secret)  # the new device's own secret
        for c in (ada, phone, again):
            await c.close()


async def _store_with_ada(url: str | None) -> tuple[Store, str]:
    """A started store (``url`` None: the memory store) holding the player Ada."""
    store: Store = MemoryStore() if url is None else open_store(url)
    await store.start()
    ada = StoredPlayer("p-ada", "ada", "Ada", 1000.0)
    assert await store.add_player(ada, "scrypt$x")
    return store, ada.id


async def _codes_expire_and_replace(url: str | None) -> None:
    store, ada = await _store_with_ada(url)
    now = [1000.0]
    codes = DeviceCodes(store, ttl=300, now=lambda: now[0])
    try:
        first = await codes.issue(ada)
        second = await codes.issue(ada)  # replaces the first
        assert await codes.redeem(first) is None
        now[0] += 299.0
        assert await codes.redeem(second.lower().replace("-", "")) == ada  # as typed
        assert await codes.redeem(second) is None  # once
        third = await codes.issue(ada)
        now[0] += 300.0
        assert await codes.redeem(third) is None  # expired
        assert await codes.redeem("ZZZZ-ZZZZ") is None
    finally:
        await store.close()


async def test_device_codes_expire_and_replace(store_url: str) -> None:
    await _codes_expire_and_replace(store_url)


async def test_device_codes_expire_and_replace_in_memory() -> None:
    await _codes_expire_and_replace(None)


async def test_a_device_code_outlives_a_restart(tmp_path: Path) -> None:
    url = str(tmp_path / "kk.db")
    store, ada = await _store_with_ada(url)
    try:
        code = await DeviceCodes(store).issue(ada)
    finally:
        await store.close()
    data = b"".join(p.read_bytes() for p in tmp_path.glob("kk.db*"))
    assert code.encode() not in data and code.replace("-", "").encode() not in data
    assert code_hash(code).encode() in data  # kept hashed only
    again = open_store(url)
    await again.start()
    try:
        assert await DeviceCodes(again).redeem(code) == ada
        assert await DeviceCodes(again).redeem(code) is None
    finally:
        await again.close()


async def test_a_code_shown_by_one_node_is_redeemed_at_another_once(pg_url: str) -> None:
    """Nodes of a cluster share the store: a code issued at one is redeemed at the
    other; of many redeeming it at once from both, exactly one gets the player."""
    a, ada = await _store_with_ada(pg_url)
    b = open_store(pg_url, exclusive=False)
    await b.start()
    try:
        on_a, on_b = DeviceCodes(a, hasher=Hasher(SignInBounds(slots=8))), DeviceCodes(b)
        code = await on_a.issue(ada)
        assert await on_b.redeem(code) == ada
        assert await on_a.redeem(code) is None and await on_b.redeem(code) is None
        code = await on_b.issue(ada)
        hashed = code_hash(code)
        got = await asyncio.gather(
            *(s.redeem_device_code(hashed, time.time()) for s in (a, b) for _ in range(8))
        )
        assert got.count(ada) == 1 and got.count(None) == 15
    finally:
        await b.close()
        await a.close()


async def test_sign_in_attempts_are_limited(store_url: str) -> None:
    async with stored_server(store_url) as server:
        c = await WsClient.open(server.port, "x", (1, 2))
        for _ in range(5):
            err = await c.request("sign_in", name="Nobody", secret=new_secret())
            assert err.code == "bad_secret"
        err = await c.request("sign_in", name="Nobody", secret=new_secret())
        assert err.code == "rate_limited"
        await c.close()


async def test_device_codes_take_from_the_same_bucket(store_url: str) -> None:
    """A device code is hashed as slowly as a secret: asking for codes flat out must not
    keep the server's hashing from everyone else's sign-ins."""
    async with stored_server(store_url) as server:
        ada = await signed_in(server.port, "Ada", new_secret(), register=True)  # 1 of 5
        for _ in range(4):
            assert (await ada.request("new_device_code")).type == "device_code"
        err = await ada.request("new_device_code")
        assert err.type == "error" and err.code == "rate_limited", err
        await ada.close()


async def test_a_code_shown_at_one_node_signs_in_at_another(pg_url: str, redis_url: str) -> None:
    async with cluster(pg_url, redis_url, n=2, lease=KEEP_LEASE) as (a, b):
        ada = await signed_in(a.port, "Ada", new_secret(), register=True)
        code = await ada.request("new_device_code")
        phone = await WsClient.open(b.port, "phone", (1, 2))
        answer = await phone.request("redeem_code", code=code.code)
        assert answer.type == "signed_in" and answer.player.name == "Ada", answer
        again = await WsClient.open(a.port, "again", (1, 2))
        err = await again.request("redeem_code", code=code.code)
        assert err.type == "error" and err.code == "bad_code"
        await signed_in(a.port, "Ada", answer.secret)  # the phone's secret, at the other node
        for c in (ada, phone, again):
            await c.close()
