"""The devices' part of the SQL stores (``DeviceStore`` in SQLite and PostgreSQL).

Why: the players' module holds players, seats and ratings; this one holds what signs
them in, on the same writer and reader (``player_secrets``, migration 13 gave each
row its device id, tag, label and last use).
"""

from __future__ import annotations

import asyncio
from abc import abstractmethod
from collections.abc import Callable
from typing import Any

from .devices import DeviceStore, NewSecret, StoredDevice, StoredSecret, untagged_device
from .writer import Op

__all__ = ["SqlDevices"]


class SqlDevices(DeviceStore):
    """``DeviceStore`` on the SQL store's writer and reader."""

    @abstractmethod
    async def _write(
        self, table_id: str, *ops: Op, epoch: int | None = None, new: bool = False
    ) -> None: ...

    @abstractmethod
    def _read(self, fn: Callable[[Any], Any]) -> Any: ...

    @abstractmethod
    def _write_returning(self, sql: str, params: tuple[Any, ...]) -> tuple[Any, ...] | None: ...

    @staticmethod
    def _first_secret(player_id: str, secret: NewSecret | str, created: float) -> Op:
        """The op keeping a new player's first secret (after the player's own)."""
        if isinstance(secret, str):
            secret = NewSecret(secret, None, untagged_device(secret), "earlier", created)
        s = secret
        return (
            "INSERT INTO player_secrets (player_id, secret_hash, created, device, tag, label,"
            " last_used) SELECT id, ?, ?, ?, ?, ?, ? FROM players WHERE id = ?",
            (s.hash, s.added, s.device, s.tag, s.label, s.last_used, player_id),
        )

    async def add_secret(self, player_id: str, secret: NewSecret, limit: int) -> bool:
        s = secret
        row = await asyncio.to_thread(
            self._write_returning,
            "INSERT INTO player_secrets (player_id, secret_hash, created, device, tag, label,"
            " last_used) SELECT id, ?, ?, ?, ?, ?, ? FROM players WHERE id = ?"
            " AND (SELECT COUNT(*) FROM player_secrets WHERE player_id = ?) < ?"
            " ON CONFLICT DO NOTHING RETURNING device",
            (s.hash, s.added, s.device, s.tag, s.label, s.last_used, player_id, player_id, limit),
        )
        return row is not None

    def secret_by_tag(self, player_id: str, tag: int) -> StoredSecret | None:
        row = self._read(
            lambda con: con.execute(
                "SELECT device, secret_hash FROM player_secrets WHERE player_id = ? AND tag = ?",
                (player_id, tag),
            ).fetchone()
        )
        return None if row is None else StoredSecret(row[0], row[1])

    def untagged(self, player_id: str, limit: int) -> list[StoredSecret]:
        rows = self._read(
            lambda con: con.execute(
                "SELECT device, secret_hash FROM player_secrets"
                " WHERE player_id = ? AND tag IS NULL ORDER BY created, device LIMIT ?",
                (player_id, limit),
            ).fetchall()
        )
        return [StoredSecret(d, h) for d, h in rows]

    async def tag_secret(self, player_id: str, device: str, tag: int) -> None:
        await self._write(
            "",
            (
                "UPDATE player_secrets SET tag = ? WHERE player_id = ? AND device = ?"
                " AND tag IS NULL AND NOT EXISTS (SELECT 1 FROM player_secrets"
                " WHERE player_id = ? AND tag = ?)",
                (tag, player_id, device, player_id, tag),
            ),
        )

    async def device_used(self, player_id: str, device: str, when: float) -> None:
        await self._write(
            "",
            (
                "UPDATE player_secrets SET last_used = ? WHERE player_id = ? AND device = ?",
                (when, player_id, device),
            ),
        )

    def devices(self, player_id: str) -> list[StoredDevice]:
        rows = self._read(
            lambda con: con.execute(
                "SELECT device, label, created, last_used FROM player_secrets"
                " WHERE player_id = ? ORDER BY created, device",
                (player_id,),
            ).fetchall()
        )
        return [StoredDevice(d, label, added, used) for d, label, added, used in rows]

    async def revoke_device(self, player_id: str, device: str) -> bool:
        row = await asyncio.to_thread(
            self._write_returning,
            "DELETE FROM player_secrets WHERE player_id = ? AND device = ? RETURNING device",
            (player_id, device),
        )
        return row is not None
