"""A table's writes, fenced: each carries the epoch this node held the table under
when the intent causing it was accepted, and one the store refuses for it means
another node serves the table now (docs/ARCHITECTURE.md, "Fencing").

``Fence`` is that, as a plain object a ``Table`` holds: handed the store, the table's
id and what to do once the table is lost (the table tells its host), it reads the
epoch held (``epoch_held``) and awaits each write against it (``durable``).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from ..store import StaleOwner, Store
from .errors import TableError

__all__ = ["Fence"]

log = logging.getLogger("kupferkessel.table")


class Fence:
    """The writes of table ``table_id`` to ``store``; ``lost`` is called once one is
    refused by its fence."""

    def __init__(self, store: Store, table_id: str, lost: Callable[[], None]) -> None:
        self.store = store
        self.table_id = table_id
        self.lost = lost

    def epoch_held(self) -> int | None:
        """The epoch this node holds the table under now. An intent captures it when it
        is accepted and its writes carry it, so a write can never outlive the claim its
        intent was accepted under (``Store.held``)."""
        return self.store.held(self.table_id)

    async def durable(self, write: Awaitable[None]) -> None:
        """Await a write of this table. One refused by its fence means another node
        serves the table now: the intent is answered ``stale_state`` (its session gets a
        fresh view from the new owner) and the host stops serving it here (``lost``)."""
        try:
            await write
        except StaleOwner as e:
            log.warning(
                "write refused: another node serves the table", extra={"table": self.table_id}
            )
            self.lost()
            raise TableError(
                "stale_state",
                "another node serves this table now: decide again on its fresh view",
            ) from e
