"""A table's durable writes: each of them bound to the table and fenced, carrying the
epoch this node held the table under when the intent causing it was accepted; one the
store refuses for it means another node serves the table now (docs/ARCHITECTURE.md,
"Fencing").

``Writes`` is that, as a plain object a ``Table`` holds: handed the store, the table's
id and what to do once the table is lost (the table tells its host), it reads the
epoch held (``epoch_held``), writes what the table writes (a seat, the start, a take,
the game's life, the end) and awaits each against the fence (``durable``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from shared.game import Take
from shared.record import Record

from ..store import StaleOwner, Store
from .errors import TableError

__all__ = ["Writes"]

log = logging.getLogger("kupferkessel.table")


class Writes:
    """The writes of table ``table_id`` to ``store``; ``lost`` is called once one is
    refused by its fence. Each write carries the ``epoch`` its intent captured."""

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

    async def seat(
        self,
        seat: int,
        name: str,
        token_hash: str | None,
        bot: str | None,
        *,
        epoch: int | None,
        player: str | None = None,
    ) -> None:
        """Who sits at ``seat`` (``Store.set_seat``)."""
        write = self.store.set_seat(
            self.table_id, seat, name, token_hash, bot, epoch=epoch, player=player
        )
        await self.durable(write)

    async def clear_seat(self, seat: int, *, epoch: int | None) -> None:
        """``seat`` given up before the game."""
        await self.durable(self.store.clear_seat(self.table_id, seat, epoch=epoch))

    async def start(
        self, record: Record, life: dict[str, Any] | None, *, epoch: int | None
    ) -> None:
        """The game began: its record, and its ``life`` (a clocked game's clock)."""
        await self.durable(self.store.start_game(self.table_id, record, life, epoch=epoch))

    def take(
        self, index: int, take: Take, life: dict[str, Any] | None, *, epoch: int | None
    ) -> asyncio.Future[None]:
        """Take ``index`` of the game, asked for now: its future, which the caller
        awaits to its end and then hands to ``durable``."""
        return self.store.append_action(self.table_id, index, take, life, epoch=epoch)

    async def life(self, life: dict[str, Any], *, epoch: int | None) -> None:
        """A running game's life beyond its record (``Course.life``)."""
        await self.durable(self.store.save_life(self.table_id, life, epoch=epoch))

    async def finish(self, result: dict[str, Any] | None, *, epoch: int | None) -> None:
        """The table is over: its game's result (None: abandoned in the lobby)."""
        await self.durable(self.store.finish(self.table_id, result, epoch=epoch))

    def rating_shown(self) -> dict[int, tuple[float | None, float]]:
        """Seat -> its rating before and after the table's rated game, as shown
        (``Store.rating_shown``; read, not written: the store rates a finished game)."""
        return self.store.rating_shown(self.table_id)
