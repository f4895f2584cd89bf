"""Your devices in the terminal (protocol 1.3), against a real server: from your own
profile, ``l`` lists them (this one marked) at 60x20, 80x24 and 120x40 with nothing
cut, ``r`` on another one revokes it, and the one you are on is not revoked."""

from __future__ import annotations

import pytest
from prompt_toolkit.input import create_pipe_input

from client.lib import Client
from client.ui.app import KupferApp
from protocol import messages as m
from tests.helpers import until
from tests.helpers.screens import SIZES, SizedOutput, draw, whole


@pytest.mark.parametrize(("width", "height"), SIZES)
async def test_your_devices_are_listed_and_one_is_revoked(
    url: str, width: int, height: int
) -> None:
    ada = Client(url, name="Ada", persist_tokens=False, protocol=m.PROTOCOL_VERSION)
    phone = Client(url, name="Ada", persist_tokens=False, protocol=m.PROTOCOL_VERSION)
    await ada.connect()
    await phone.connect()
    try:
        await ada.register("Ada")
        await phone.redeem_code((await ada.new_device_code()).code)
        with create_pipe_input() as inp:
            kapp = KupferApp(name="Ada", client=ada, input=inp, output=SizedOutput())
            screen = kapp.players
            screen.show("me")
            await until(lambda: screen.player is not None)
            whole("l: your devices", draw(kapp, width, height))
            screen.key("l")
            await until(lambda: screen.devices.total == 2)
            shown = draw(kapp, width, height)
            for text in (
                "2 devices (at most 10)",
                "this device: added",
                "a device added with a code",
            ):
                whole(text, shown)
            screen.key("r")  # the one you are on: refused here, not sent
            assert "revoke it from another one" in kapp.status
            screen.key("down")
            screen.key("r")
            await until(lambda: screen.devices.total == 1)
            shown = draw(kapp, width, height)
            whole("1 device (at most 10)", shown)
            whole("revoked a device added with a code: it signs in no more", shown)
    finally:
        await ada.close()
        await phone.close()
