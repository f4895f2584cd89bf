"""A player's devices: the secrets that sign it in, checked with one slow hash each.

Why: every device a player uses holds a secret of its own, and a sign-in must cost the
server one slow hash whatever the player has (an attacker who made a player many
devices made every wrong sign-in of it cost one hash per device). The secret's tag
(``credentials.secret_tag``) finds the one kept hash it can be; a name nobody
registered, or a secret whose tag finds nothing, is checked against a hash of nothing,
so every answer costs the same. Hashes kept before tags existed (protocol 1.2) are
tried as before, at most ``UNTAGGED_TRIES`` of them, each paid from the address's
budget; the one that matches gets its tag, so each device pays this once.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable

from protocol import messages as m

from ..core.errors import TableError
from ..store.devices import NewSecret
from ..store.players import PlayerStore, StoredPlayer
from .credentials import NO_SECRET, hash_secret, new_secret, secret_tag, verify_secret
from .hashing import Hasher, Requester

__all__ = ["UNTAGGED_TRIES", "Devices"]

UNTAGGED_TRIES = 10
"""Secrets kept before protocol 1.3 tried at most by one sign-in (the oldest first)."""


def _device_id() -> str:
    return secrets.token_urlsafe(9)


class Devices:
    """The devices of the players in ``store``: at most ``hasher.bounds.devices`` each."""

    def __init__(self, store: PlayerStore, hasher: Hasher, now: Callable[[], float]) -> None:
        self.store = store
        self.hasher = hasher
        self.limit = hasher.bounds.devices
        self._now = now

    async def first(self, secret: str, when: float, who: Requester | None) -> NewSecret:
        """The first device of a player registering with ``secret``."""
        hashed = await self.hasher.run(lambda: hash_secret(secret), who)
        return NewSecret(hashed, secret_tag(secret), _device_id(), "registered", when, when)

    async def check(self, player: StoredPlayer | None, secret: str, who: Requester | None) -> str:
        """The device of ``player`` that ``secret`` signs in (noted as used now);
        ``bad_secret`` if none (``player`` None: a name nobody registered), after the
        same work."""
        tag = secret_tag(secret)
        found = self.store.secret_by_tag(player.id, tag) if player is not None else None
        old = self.store.untagged(player.id, UNTAGGED_TRIES) if player and not found else []
        device: str | None = None
        if found is not None:
            hashed = found.hash
            if await self.hasher.run(lambda: verify_secret(secret, hashed), who):
                device = found.device
        elif old:
            device = await self.hasher.run(
                lambda: next((s.device for s in old if verify_secret(secret, s.hash)), None),
                who,
                cost=len(old),
            )
            if device is not None and player is not None:
                await self.store.tag_secret(player.id, device, tag)
        else:  # the same work either way: nothing tells a name is unregistered
            await self.hasher.run(lambda: verify_secret(secret, NO_SECRET), who)
        if player is None or device is None:
            raise TableError("bad_secret", "no player of that name with that secret")
        await self.store.device_used(player.id, device, self._now())
        return device

    def room(self, player_id: str) -> None:
        """``not_allowed`` (``detail`` ``devices``) if the player has all its devices."""
        if len(self.store.devices(player_id)) >= self.limit:
            raise TableError(
                "not_allowed",
                f"your player has {self.limit} devices, the most this server keeps:"
                " revoke one first",
                "devices",
            )

    async def add(self, player_id: str, who: Requester | None) -> tuple[str, str]:
        """A new device of the player: its secret (made here) and its id."""
        self.room(player_id)
        secret = new_secret()
        while self.store.secret_by_tag(player_id, secret_tag(secret)) is not None:
            secret = new_secret()  # a tag is one of 256: few tries find a free one
        hashed = await self.hasher.run(lambda: hash_secret(secret), who)
        now = self._now()  # the device signs in as it is added
        kept = NewSecret(hashed, secret_tag(secret), _device_id(), "code", now, now)
        if not await self.store.add_secret(player_id, kept, self.limit):
            self.room(player_id)  # another device came first (at another node)
            raise TableError("internal", "another device was added at the same time: retry")
        return secret, kept.device

    def listing(self, player_id: str, current: str | None) -> m.DevicesMsg:
        """``devices``: the player's devices, ``current`` marked."""
        return m.DevicesMsg(
            devices=tuple(
                m.DeviceInfo(
                    device=d.id,
                    label=d.label,
                    added=int(d.added),
                    last_used=None if d.last_used is None else int(d.last_used),
                    current=d.id == current,
                )
                for d in self.store.devices(player_id)
            ),
            limit=self.limit,
        )

    async def revoke(self, player_id: str, device: str) -> None:
        """The device signs in no more; ``no_such_device`` if the player has none such."""
        if not await self.store.revoke_device(player_id, device):
            raise TableError("no_such_device", "your player has no device of that id")
