"""Protocol 1.3's requests of ``Client``: the signed-in player's devices, listed and
revoked.

Apart from the connection's machinery and from 1.2's players (``players.py``, whose
``PlayerRequests`` is a ``DeviceRequests`` and answers its ``_ask``): a server that
speaks 1.2 or older has none of this, ``speaks_devices`` is false there and these
requests raise ``ClientError`` before anything is sent.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from protocol import messages as m

from .errors import ClientError

__all__ = ["DEVICES_VERSION", "DeviceRequests"]

DEVICES_VERSION = (1, 3)
"""The protocol version that lists and revokes a player's devices."""


class DeviceRequests:
    """The 1.3 part of ``Client`` (a base class of ``PlayerRequests``, so of it)."""

    welcome: m.WelcomeMsg | None

    async def _ask(self, cls: type[BaseModel], **fields: Any) -> m.ServerMessage:
        raise NotImplementedError  # the players' part's

    @property
    def speaks_devices(self) -> bool:
        """Whether this connection speaks 1.3 (the server's welcome said so)."""
        return self.welcome is not None and tuple(self.welcome.protocol) >= DEVICES_VERSION

    async def _devices(self, cls: type[BaseModel], **fields: Any) -> m.DevicesMsg:
        if not self.speaks_devices:
            raise ClientError("this server lists no devices (protocol 1.2 or older)")
        reply = await self._ask(cls, **fields)
        assert isinstance(reply, m.DevicesMsg)
        return reply

    async def devices(self) -> m.DevicesMsg:
        """The signed-in player's devices (``current``: this one), and the most the
        server keeps (``limit``)."""
        return await self._devices(m.ListDevicesMsg)

    async def revoke_device(self, device: str) -> m.DevicesMsg:
        """Revoke ``device`` (an id from ``devices``): its secret signs in no more. The
        devices left; ``NoSuchDevice`` for an id that is none of them."""
        return await self._devices(m.RevokeDeviceMsg, device=device)
