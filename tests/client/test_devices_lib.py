"""The client library's 1.3 part against a real server: the signed-in player's devices
listed (this one marked), one revoked (its kept secret then refused), an unknown id
refused by type, and a 1.2 connection that has none of it."""

from __future__ import annotations

from pathlib import Path

import pytest

from client.accounts import AccountStore
from client.lib import BadSecret, Client, ClientError, NoSuchDevice
from client.tokens import TokenStore
from protocol import messages as m


def new_client(url: str, data: Path, protocol: tuple[int, int] = m.PROTOCOL_VERSION) -> Client:
    return Client(url, name="Ada", protocol=protocol, tokens=TokenStore(data))


async def test_devices_are_listed_and_one_is_revoked(url: str, data_dir: Path) -> None:
    ada = new_client(url, data_dir)
    phone = new_client(url, data_dir / "phone")
    await ada.connect()
    await phone.connect()
    try:
        await ada.register("Ada")
        await phone.redeem_code((await ada.new_device_code()).code)
        listed = await ada.devices()
        assert [(d.label, d.current) for d in listed.devices] == [
            ("registered", True),
            ("code", False),
        ]
        assert listed.limit == 10
        left = await ada.revoke_device(listed.devices[1].device)
        assert [d.device for d in left.devices] == [listed.devices[0].device]
        with pytest.raises(NoSuchDevice):
            await ada.revoke_device(listed.devices[1].device)
        kept = AccountStore(data_dir / "phone").get(phone.url)
        assert kept is not None
        later = new_client(url, data_dir / "later")
        await later.connect()
        with pytest.raises(BadSecret):  # the revoked device's secret signs in no more
            await later.sign_in(kept)
        await later.close()
    finally:
        await ada.close()
        await phone.close()


async def test_a_1_2_connection_lists_no_devices(url: str, data_dir: Path) -> None:
    old = new_client(url, data_dir, (1, 2))
    await old.connect()
    try:
        await old.register("Ada")
        assert old.speaks_players and not old.speaks_devices
        with pytest.raises(ClientError):
            await old.devices()
    finally:
        await old.close()
