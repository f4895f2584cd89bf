"""The client library's 1.2 part against a real server: a name registered once and its
secret kept on disk, every later ``Client`` signed in by itself (and again after the
connection drops), a seat taken back as the player without its token, a device code
redeemed with a secret of its own, and a kept secret the server refuses said in the
updates, never raised or printed."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from client.accounts import Account, AccountStore
from client.lib import BadCode, Client, NameTaken, NotSignedIn, Status
from client.ui.seating import sit_down
from protocol import messages as m
from server.app import Server


def new_client(url: str, name: str = "Ada", data: Path | None = None) -> Client:
    from client.tokens import TokenStore

    tokens = TokenStore(data) if data is not None else None
    return Client(url, name=name, protocol=m.PROTOCOL_VERSION, tokens=tokens)


async def test_register_once_then_every_connection_signs_in(url: str, data_dir: Path) -> None:
    first = new_client(url)
    await first.connect()
    assert first.player is None  # nothing kept yet: anonymous
    with pytest.raises(NotSignedIn):
        await first.new_device_code()
    player = await first.register("Ada")
    assert player.name == "Ada" and first.player == player
    kept = json.loads((data_dir / "players.json").read_text())
    assert kept[first.url]["name"] == "Ada"
    secret = kept[first.url]["secret"]
    assert secret not in repr(first) and secret not in repr(first.account)
    await first.close()

    again = new_client(url)
    await again.connect()
    try:
        assert again.player is not None and again.player.name == "Ada"  # by itself
        other = new_client(url, "Eve", data_dir / "eve")
        await other.connect()
        with pytest.raises(NameTaken):
            await other.register("ADA")  # the same name, as people read it
        assert AccountStore(data_dir / "eve").get(other.url) is None  # not kept
        await other.close()
    finally:
        await again.close()


async def test_a_dropped_connection_signs_in_again_and_takes_the_seat_back(
    url: str, server: Server, data_dir: Path
) -> None:
    ada = new_client(url)
    await ada.connect()
    await ada.register("Ada")
    created = await ada.create_table("t", m.TableOptions(), bots=[(1, "easy")], player="Ada")
    await ada.ready()
    table = created.table.id
    async with asyncio.timeout(20):
        while ada.view is None:
            await asyncio.sleep(0.02)
    seen: list[Status] = []

    async def watch() -> None:
        async for u in ada.updates():
            if isinstance(u, Status):
                seen.append(u)

    task = asyncio.create_task(watch())
    for session in list(server.sessions):
        session.ws.transport.abort()
    async with asyncio.timeout(20):
        while not any(s.state == "resumed" for s in seen):
            await asyncio.sleep(0.02)
    assert ada.player is not None and ada.player.name == "Ada" and ada.table == table
    await ada.close()
    task.cancel()

    # another terminal of Ada's without the seat token: the player takes the seat back
    elsewhere = data_dir / "elsewhere"
    kept = AccountStore(data_dir).get(ada.url)
    assert kept is not None
    AccountStore(elsewhere).save(ada.url, kept)
    other = new_client(url, data=elsewhere)
    await other.connect()
    try:
        assert other.held_seat(table) == 0 and not other.saved_table(table)
        await sit_down(other, table, "Ada")
        assert (other.table, other.seat) == (table, 0)
    finally:
        await other.close()


async def test_a_device_code_moves_the_player_with_a_secret_of_its_own(
    url: str, data_dir: Path
) -> None:
    ada = new_client(url)
    await ada.connect()
    await ada.register("Ada")
    code = await ada.new_device_code()
    phone = new_client(url, "Phone", data_dir / "phone")
    await phone.connect()
    try:
        with pytest.raises(BadCode):
            await phone.redeem_code("AAAA-AAAA" if code.code != "AAAA-AAAA" else "BBBB-BBBB")
        player = await phone.redeem_code(code.code.lower().replace("-", ""))
        assert player.name == "Ada"
        mine = AccountStore(data_dir).get(ada.url)
        theirs = AccountStore(data_dir / "phone").get(phone.url)
        assert mine is not None and theirs is not None and mine.secret != theirs.secret
        again = new_client(url, "Tablet", data_dir / "tablet")
        await again.connect()
        with pytest.raises(BadCode):
            await again.redeem_code(code.code)  # once only
        await again.close()
    finally:
        await ada.close()
        await phone.close()


async def test_a_refused_secret_is_said_in_the_updates(url: str, data_dir: Path) -> None:
    store = AccountStore(data_dir)
    client = new_client(url)
    store.save(client.url, Account("Nobody", "x" * 43))  # a name this server never saw
    await client.connect()
    try:
        assert client.player is None
        async with asyncio.timeout(5):
            async for u in client.updates():
                if isinstance(u, m.ErrorMsg):
                    assert u.code == "bad_secret" and "x" * 43 not in u.message
                    break
    finally:
        await client.close()
