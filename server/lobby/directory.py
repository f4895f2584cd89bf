"""Where tables are served: this process alone, or any node of a cluster.

The lobby keeps the tables it serves itself; for everything beyond them it asks its
``Directory``. One process has nothing beyond (``LocalDirectory``); a node of a cluster
(``server.cluster.Cluster``) finds the tables other nodes serve, lists their public
ones, takes a new table's lease before it is made and hears of every change. So the
lobby never asks whether it runs in a cluster: the composition root hands it one.
"""

from __future__ import annotations

from typing import Protocol

from ..core.handle import TableFacts, TableHandle
from ..core.table import Table

__all__ = ["Directory", "LocalDirectory"]


class Directory(Protocol):
    """The tables beyond the lobby's own, and what the lobby tells about its own."""

    def listing(self) -> list[TableFacts]:
        """The public tables served elsewhere (as of their servers' last report)."""
        ...

    async def locate(self, table_id: str, current: TableHandle | None) -> TableHandle | None:
        """A table served elsewhere, as a handle its session can use (None: there is no
        such table anywhere). ``current``: the session's own table, if it has one."""
        ...

    def entered(self, table: TableHandle, invite: str | None) -> None:
        """A session entered ``table`` (served elsewhere) with the invite code ``invite``."""
        ...

    async def locate_seat(
        self, token: str, current: TableHandle | None
    ) -> tuple[TableHandle, int] | None:
        """The table and seat of a seat token served elsewhere (None: unknown)."""
        ...

    async def reserve_id(self, table_id: str) -> bool:
        """Take ``table_id`` for a table about to be made here (False: it is taken)."""
        ...

    async def created(self, table: Table) -> None:
        """A table was made here and is served here from now on."""
        ...

    def changed(self, table: Table) -> None:
        """What a listing shows of one of our tables may have changed."""
        ...

    def lost(self, table: Table) -> None:
        """The store refused a write of one of our tables: another server took it."""
        ...


class LocalDirectory:
    """One process: every table is the lobby's own; nothing is served elsewhere."""

    def listing(self) -> list[TableFacts]:
        return []

    async def locate(self, table_id: str, current: TableHandle | None) -> TableHandle | None:
        return None

    def entered(self, table: TableHandle, invite: str | None) -> None:
        pass

    async def locate_seat(
        self, token: str, current: TableHandle | None
    ) -> tuple[TableHandle, int] | None:
        return None

    async def reserve_id(self, table_id: str) -> bool:
        return True

    async def created(self, table: Table) -> None:
        pass

    def changed(self, table: Table) -> None:
        pass

    def lost(self, table: Table) -> None:
        pass
