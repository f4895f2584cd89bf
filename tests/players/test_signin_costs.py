"""What sign-in costs the server, against real servers on real stores: one slow hash a
sign-in whatever the player holds, a cap on devices (listed and revoked in 1.3), a
budget of hashes and of registrations per client address, a bounded queue whose
refusal says when to come back, and no hash for a connection that has closed.

Hashes are counted by the server's own figures (``Hasher.figures``), never timed."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import threading
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from websockets.protocol import State

from server.app import Server
from server.players.credentials import hash_secret
from server.players.hashing import Hasher, SignInBounds
from server.store import open_store
from server.store.migrations import SQLITE_MIGRATIONS
from server.store.players import StoredPlayer
from tests.helpers import until
from tests.server.wsclient import WsClient

from .helpers import new_secret, signed_in, stored_server

V13 = (1, 3)


async def _from(port: int, address: str, protocol: tuple[int, int] = V13) -> WsClient:
    """A connection from the loopback ``address`` (127.x.y.z): another client address."""
    return await WsClient.open(port, f"c-{address}", protocol, local_addr=(address, 0))


@contextlib.asynccontextmanager
async def _held(hasher: Hasher) -> AsyncIterator[None]:
    """The hasher's one thread held, while inside, by a hash that waits."""
    go = threading.Event()
    before = hasher.figures.hashed
    held = asyncio.ensure_future(hasher.run(lambda: go.wait(30), None))
    await until(lambda: hasher.figures.hashed == before + 1, what="the thread is held")
    try:
        yield
    finally:
        go.set()
        await held


def _hashed(server: Server) -> int:
    return server.players.hasher.figures.hashed


async def _add_device(port: int, name: str, secret: str) -> Any:
    """A device added by a code (two fresh connections): the answer to ``redeem_code``."""
    owner = await signed_in(port, name, secret)
    code = await owner.request("new_device_code")
    await owner.close()
    if code.type != "device_code":
        return code
    phone = await WsClient.open(port, "phone", V13)
    answer = await phone.request("redeem_code", code=code.code)
    await phone.close()
    return answer


async def test_a_sign_in_hashes_once_whatever_devices_the_player_has(store_url: str) -> None:
    secret = new_secret()
    async with stored_server(store_url) as server:
        await (await signed_in(server.port, "Ada", secret, register=True)).close()
        phones = [(await _add_device(server.port, "Ada", secret)).secret for _ in range(8)]
        for attempt, answered in (
            (new_secret(), "error"),
            (secret, "signed_in"),
            (phones[0], "signed_in"),
            (phones[-1], "signed_in"),
        ):
            c = await WsClient.open(server.port, "x", (1, 2))
            before = _hashed(server)
            answer = await c.request("sign_in", name="Ada", secret=attempt)
            assert answer.type == answered and _hashed(server) - before == 1, answer
            await c.close()
        c = await WsClient.open(server.port, "x", (1, 2))
        before = _hashed(server)
        err = await c.request("sign_in", name="Nobody", secret=secret)  # as costly
        assert err.code == "bad_secret" and _hashed(server) - before == 1
        await c.close()


async def test_devices_are_capped_listed_and_revoked(store_url: str) -> None:
    secret = new_secret()
    bounds = SignInBounds(per_minute=1e9, burst=10**9, registrations_per_hour=1e9, devices=4)
    async with stored_server(store_url, signin=bounds) as server:
        await (await signed_in(server.port, "Ada", secret, register=True)).close()
        phones = [(await _add_device(server.port, "Ada", secret)).secret for _ in range(3)]
        refused = await _add_device(server.port, "Ada", secret)  # a fifth: no code given
        assert (refused.code, refused.detail) == ("not_allowed", "devices"), refused
        ada = await WsClient.open(server.port, "ada", V13)
        assert (await ada.request("sign_in", name="Ada", secret=phones[1])).type == "signed_in"
        listed = await ada.request("list_devices")
        assert listed.type == "devices" and listed.limit == 4
        assert [d.label for d in listed.devices] == ["registered", "code", "code", "code"]
        assert [d.current for d in listed.devices] == [False, False, True, False]
        assert all(d.last_used is not None and d.last_used >= d.added for d in listed.devices)
        for text in map(str, ada.raw):  # no secret and no hash ever shown
            assert secret not in text and "scrypt" not in text
            assert not any(p in text for p in phones)
        gone = listed.devices[3].device
        after = await ada.request("revoke_device", device=gone)
        assert [d.device for d in after.devices] == [d.device for d in listed.devices[:3]]
        again = await ada.request("revoke_device", device=gone)
        assert again.type == "error" and again.code == "no_such_device"
        other = await WsClient.open(server.port, "x", V13)
        lost = await other.request("sign_in", name="Ada", secret=phones[2])
        assert lost.type == "error" and lost.code == "bad_secret"  # revoked: signs in no more
        assert (await _add_device(server.port, "Ada", secret)).type == "signed_in"  # room again
        old = await signed_in(server.port, "Ada", secret)  # a 1.2 connection knows none of it
        err = await old.request("list_devices")
        assert err.type == "error" and err.code == "unknown_type"
        for c in (ada, other, old):
            await c.close()


async def test_one_address_flooding_sign_ins_is_refused_while_another_signs_in(
    tmp_path: Path,
) -> None:
    """An attacker's address (127.0.0.2), many connections of wrong sign-ins: refused
    with ``rate_limited`` and a ``retry_after`` once its budget is spent, while a player
    at another address signs in; the attacker's hashes stay within its budget."""
    secret = new_secret()
    bounds = SignInBounds(per_minute=6, burst=4)
    async with stored_server(str(tmp_path / "kk.db"), signin=bounds) as server:
        await (await signed_in(server.port, "Ada", secret, register=True)).close()
        start = _hashed(server)
        answers = []
        for i in range(12):
            bot = await _from(server.port, "127.0.0.2", V13 if i % 2 else (1, 2))
            answers.append(await bot.request("sign_in", name="Ada", secret=new_secret()))
            await bot.close()
        codes = [a.code for a in answers]
        assert codes.count("rate_limited") >= 7, codes
        for i, a in enumerate(answers):  # the seconds to wait: for 1.3 clients only
            if a.code == "rate_limited":
                assert (a.retry_after is not None and a.retry_after >= 1) == bool(i % 2), a
        assert _hashed(server) - start <= 5, codes  # its burst (and a token refilled)
        ada = await _from(server.port, "127.0.0.3", (1, 2))
        assert (await ada.request("sign_in", name="Ada", secret=secret)).type == "signed_in"
        await ada.close()


async def test_the_queued_work_of_a_closed_connection_is_never_hashed(tmp_path: Path) -> None:
    """One hashing thread, held by a hash that waits: sign-ins queue behind it, their
    connections close; once it is let go, none of them is hashed."""
    bounds = SignInBounds(slots=1, queue=50, per_minute=1e9, burst=10**9)
    async with stored_server(str(tmp_path / "kk.db"), signin=bounds) as server:
        hasher = server.players.hasher
        async with _held(hasher):
            gone = []
            for i in range(6):
                c = await _from(server.port, f"127.0.1.{i + 1}")
                await c.send("sign_in", name="Ada", secret=new_secret())
                gone.append(c)
            await until(lambda: hasher.waiting == 6, what="six sign-ins wait")
            for c in gone:
                await c.ws.close()
            await until(
                lambda: all(s.ws.state is State.CLOSED for s in server.sessions),
                what="the server saw them close",
            )
        await until(lambda: hasher.figures.dropped == 6, what="their work was dropped")
        assert hasher.figures.hashed == 1 and hasher.waiting == 0


async def test_a_full_queue_refuses_with_a_retry_time(tmp_path: Path) -> None:
    bounds = SignInBounds(slots=1, queue=2, per_minute=1e9, burst=10**9)
    async with stored_server(str(tmp_path / "kk.db"), signin=bounds) as server:
        hasher = server.players.hasher
        async with _held(hasher):
            waiting = [await _from(server.port, f"127.0.2.{i + 1}") for i in range(2)]
            for c in waiting:
                await c.send("sign_in", name="Ada", secret=new_secret())
            await until(lambda: hasher.waiting == 2, what="the queue is full")
            late = await _from(server.port, "127.0.2.9")
            err = await late.request("sign_in", name="Ada", secret=new_secret())
            assert err.code == "rate_limited" and err.retry_after >= 1, err
        for c in waiting:  # the queued ones are answered in turn
            answer = await c.wait_for(lambda x: x.type == "error")
            assert answer.code == "bad_secret"
        answer = await late.request("sign_in", name="Ada", secret=new_secret())
        assert answer.code == "bad_secret"  # room again
        for c in (*waiting, late):
            await c.close()


async def test_registrations_are_limited_per_address(tmp_path: Path) -> None:
    bounds = SignInBounds(registrations_per_hour=1, registration_burst=3)
    async with stored_server(str(tmp_path / "kk.db"), signin=bounds) as server:
        answers = []
        for i in range(6):
            c = await _from(server.port, "127.0.3.1")
            answers.append(await c.request("register", name=f"Name {i}", secret=new_secret()))
            await c.close()
        assert [a.type for a in answers] == ["signed_in"] * 3 + ["error"] * 3, answers
        assert all(a.code == "rate_limited" and a.retry_after >= 1 for a in answers[3:])
        other = await _from(server.port, "127.0.3.2")
        taken = await other.request("register", name="Name 5", secret=new_secret())
        assert taken.type == "signed_in"  # another address, its own budget
        await other.close()


async def test_secrets_kept_before_1_3_still_sign_in_and_get_their_tag(tmp_path: Path) -> None:
    """A database of schema 9 (protocol 1.2) with a player of three devices: after the
    migration each secret still signs in, the first time by trying the old hashes, from
    then on with one hash; the devices are listed."""
    db = tmp_path / "kk.db"
    secrets_ = [new_secret() for _ in range(3)]
    con = sqlite3.connect(db)
    for script in SQLITE_MIGRATIONS[:9]:
        con.executescript(script)
    con.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
    con.execute("INSERT INTO schema_version VALUES (9)")
    con.execute("INSERT INTO players (id, name_key, name, created) VALUES ('p1', 'ada', 'Ada', 1)")
    for s in secrets_:
        con.execute(
            "INSERT INTO player_secrets (player_id, secret_hash, created) VALUES ('p1', ?, 1)",
            (hash_secret(s),),
        )
    con.commit()
    con.close()
    async with stored_server(str(db)) as server:
        for s, first in ((secrets_[2], 3), (secrets_[2], 1), (secrets_[0], 2), (secrets_[0], 1)):
            before = _hashed(server)
            c = await WsClient.open(server.port, "x", V13)
            assert (await c.request("sign_in", name="Ada", secret=s)).type == "signed_in"
            assert _hashed(server) - before == first
            listed = await c.request("list_devices")
            assert [d.label for d in listed.devices] == ["earlier"] * 3
            await c.close()
        c = await WsClient.open(server.port, "x", V13)
        before = _hashed(server)
        assert (await c.request("sign_in", name="Ada", secret=new_secret())).code == "bad_secret"
        assert _hashed(server) - before == 1  # the one untagged hash left, and nothing else
        await c.close()


async def test_a_bare_hash_is_kept_untagged(tmp_path: Path) -> None:
    store = open_store(str(tmp_path / "kk.db"))
    await store.start()
    try:
        secret = new_secret()
        assert await store.add_player(StoredPlayer("p1", "ada", "Ada", 1.0), hash_secret(secret))
        [kept] = store.untagged("p1", 10)
        assert kept.device.startswith("e") and [d.id for d in store.devices("p1")] == [kept.device]
    finally:
        await store.close()


async def test_a_full_line_makes_room_for_an_address_served_less_lately(tmp_path: Path) -> None:
    """One address has had its turn and fills the line; a newcomer from another address
    takes the place of its last request, which is refused with a retry time."""
    bounds = SignInBounds(slots=1, queue=2, per_minute=1e9, burst=10**9)
    async with stored_server(str(tmp_path / "kk.db"), signin=bounds) as server:
        hasher = server.players.hasher
        flood = [await _from(server.port, "127.0.5.1") for _ in range(3)]
        assert (await flood[2].request("sign_in", name="A", secret=new_secret())).code
        async with _held(hasher):
            for c in flood[:2]:
                await c.send("sign_in", name="A", secret=new_secret())
            await until(lambda: hasher.waiting == 2, what="the line is full")
            other = await _from(server.port, "127.0.5.2")
            await other.send("sign_in", name="A", secret=new_secret())
            err = await flood[1].wait_for(lambda x: x.type == "error")
            assert err.code == "rate_limited" and err.retry_after >= 1, err
        for c in (flood[0], other):
            assert (await c.wait_for(lambda x: x.type == "error")).code == "bad_secret"
        for c in (*flood, other):
            await c.close()
