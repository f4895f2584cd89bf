"""Protocol 1.3: a player's devices, listed and revoked.

Why: every device a player signs in from holds a secret of its own (the first one made
at ``register``, the others by ``redeem_code``), and a server keeps at most a few per
player. The player sees them here, one entry a device with no secret or hash in it, and
revokes one that is lost or no longer used: its secret signs in no more.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from .base import Model
from .envelope import ClientMsg as _ClientMsg
from .envelope import ServerMsg as _ServerMsg

__all__ = ["DeviceId", "DeviceInfo", "DevicesMsg", "ListDevicesMsg", "RevokeDeviceMsg"]

DeviceId = Annotated[str, Field(min_length=1, max_length=32, pattern=r"^[A-Za-z0-9_-]+$")]
"""A device's id as ``devices`` lists it."""


class ListDevicesMsg(_ClientMsg):
    """1.3, signed in: the devices that sign in as your player (answered by
    ``devices``)."""

    type: Literal["list_devices"] = "list_devices"


class RevokeDeviceMsg(_ClientMsg):
    """1.3, signed in: ``device``'s secret signs in no more (answered by ``devices``,
    the list without it); ``no_such_device`` if your player has no device of that id.
    A connection already signed in with it stays signed in until it closes."""

    type: Literal["revoke_device"] = "revoke_device"
    device: DeviceId


class DeviceInfo(Model):
    """One device of a player: never its secret or its secret's hash."""

    device: str
    """Its id, for ``revoke_device``."""
    label: str
    """How it was added: ``registered`` (the secret of ``register``), ``code`` (by
    ``redeem_code``) or ``earlier`` (added before the server spoke 1.3)."""
    added: int
    """When it was added (Unix time, seconds)."""
    last_used: int | None = None
    """When it last signed in (Unix time, seconds); absent: not since the server spoke
    1.3."""
    current: bool = False
    """The device this connection signed in with."""


class DevicesMsg(_ServerMsg):
    """1.3: the answer to ``list_devices`` and ``revoke_device``: every device of your
    player, oldest first (at most ``limit`` of them)."""

    type: Literal["devices"] = "devices"
    devices: tuple[DeviceInfo, ...]
    limit: int
    """The most devices this server keeps for one player: ``redeem_code`` (and
    ``new_device_code``) past it is refused with ``not_allowed``, ``detail``
    ``devices``."""
