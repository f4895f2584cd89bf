"""The devices' part of the memory store: each player's secrets in a list.

Why: a server without a database (``--no-persist``, the tests) signs players in by the
same rules as the SQL stores (``DeviceStore``).
"""

from __future__ import annotations

from dataclasses import dataclass

from .devices import DeviceStore, NewSecret, StoredDevice, StoredSecret, untagged_device

__all__ = ["MemoryDevices"]


@dataclass
class _Row:
    secret: NewSecret
    tag: int | None
    last_used: float | None = None


class MemoryDevices(DeviceStore):
    """``DeviceStore`` in a dict: player id -> its secrets, oldest first."""

    def __init__(self) -> None:
        self._secrets: dict[str, list[_Row]] = {}

    def _first_secret(self, player_id: str, secret: NewSecret | str, created: float) -> None:
        if isinstance(secret, str):
            secret = NewSecret(secret, None, untagged_device(secret), "earlier", created)
        self._secrets[player_id] = [_Row(secret, secret.tag, secret.last_used)]

    async def add_secret(self, player_id: str, secret: NewSecret, limit: int) -> bool:
        rows = self._secrets.setdefault(player_id, [])
        if len(rows) >= limit or any(r.tag == secret.tag for r in rows):
            return False
        rows.append(_Row(secret, secret.tag, secret.last_used))
        return True

    def secret_by_tag(self, player_id: str, tag: int) -> StoredSecret | None:
        found = [r for r in self._secrets.get(player_id, ()) if r.tag == tag]
        return StoredSecret(found[0].secret.device, found[0].secret.hash) if found else None

    def untagged(self, player_id: str, limit: int) -> list[StoredSecret]:
        rows = [r for r in self._secrets.get(player_id, ()) if r.tag is None]
        return [StoredSecret(r.secret.device, r.secret.hash) for r in rows[:limit]]

    async def tag_secret(self, player_id: str, device: str, tag: int) -> None:
        rows = self._secrets.get(player_id, [])
        if any(r.tag == tag for r in rows):
            return
        for r in rows:
            if r.secret.device == device and r.tag is None:
                r.tag = tag

    async def device_used(self, player_id: str, device: str, when: float) -> None:
        for r in self._secrets.get(player_id, ()):
            if r.secret.device == device:
                r.last_used = when

    def devices(self, player_id: str) -> list[StoredDevice]:
        return [
            StoredDevice(r.secret.device, r.secret.label, r.secret.added, r.last_used)
            for r in self._secrets.get(player_id, ())
        ]

    async def revoke_device(self, player_id: str, device: str) -> bool:
        rows = self._secrets.get(player_id, [])
        kept = [r for r in rows if r.secret.device != device]
        self._secrets[player_id] = kept
        return len(kept) < len(rows)
