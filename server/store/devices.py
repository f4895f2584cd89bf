"""What the store keeps of a player's devices: each one's secret, as a slow hash.

Why: a player signs in from several devices, each with a secret of its own (protocol
1.2, 1.3). A sign-in must hash at most once, so each hash is kept beside a short
``tag`` derived from its secret (``server.players.credentials.secret_tag``) that finds
the one hash a secret can belong to; tags are unique per player. Hashes kept before tags
existed have none: ``untagged`` finds them, and a sign-in that matches one gives it its
tag (``tag_secret``). The store never sees a secret.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass

__all__ = ["DeviceStore", "NewSecret", "StoredDevice", "StoredSecret", "untagged_device"]


@dataclass(frozen=True)
class NewSecret:
    """A device's secret to keep: its hash, its tag (None: kept untagged, as before
    migration 10), the device's id and label, when it was added and last signed in."""

    hash: str
    tag: int | None
    device: str
    label: str
    added: float
    last_used: float | None = None


@dataclass(frozen=True)
class StoredSecret:
    """A kept secret's hash and the device it signs in."""

    device: str
    hash: str


@dataclass(frozen=True)
class StoredDevice:
    """A player's device as listed (``list_devices``): never its hash."""

    id: str
    label: str
    added: float
    last_used: float | None


def untagged_device(secret_hash: str) -> str:
    """The device id of a hash kept without a tag: as migration 13 names the rows it
    found (``e`` and 15 characters of the hash's random salt: no secret in it)."""
    return "e" + secret_hash[17:32]


class DeviceStore(ABC):
    """The devices' part of the store (``PlayerStore`` includes it)."""

    @abstractmethod
    async def add_secret(self, player_id: str, secret: NewSecret, limit: int) -> bool:
        """Keep another device's secret for the player; False (nothing kept) if the
        player has ``limit`` devices already, or one whose secret has that tag."""

    @abstractmethod
    def secret_by_tag(self, player_id: str, tag: int) -> StoredSecret | None:
        """The player's secret of that tag (there is at most one)."""

    @abstractmethod
    def untagged(self, player_id: str, limit: int) -> list[StoredSecret]:
        """At most ``limit`` of the player's secrets kept without a tag, oldest first."""

    @abstractmethod
    async def tag_secret(self, player_id: str, device: str, tag: int) -> None:
        """Give an untagged secret its tag (nothing if another secret of the player has
        it: that one stays untagged)."""

    @abstractmethod
    async def device_used(self, player_id: str, device: str, when: float) -> None:
        """The device signed in at ``when``."""

    @abstractmethod
    def devices(self, player_id: str) -> list[StoredDevice]:
        """The player's devices, oldest first."""

    @abstractmethod
    async def revoke_device(self, player_id: str, device: str) -> bool:
        """Forget the player's device and its secret; False if it had none of that id."""
