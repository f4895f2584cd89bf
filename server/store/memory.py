"""The store that keeps nothing beyond the process: every write is accepted at once.

Why: ``--no-persist`` (and the tests and benchmarks that need no database) run the same
server code against it; each method is written out, so it says what it keeps: the
registered players, the operator's sanctions and the games (``KeptGames``: records,
results, histories) while the process runs; nothing to restore after a restart.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import replace
from typing import Any

from shared.game import Take
from shared.options import Options
from shared.record import Record

from .base import PlayerSeated, Sanction, Store, StoredGame, StoredTable
from .memory_players import MemoryPlayers

__all__ = ["MemoryStore"]


class MemoryStore(MemoryPlayers, Store):
    """No persistence at all: every write is accepted at once. Kept in memory while the
    process runs: the operator's sanctions, the registered players (``MemoryPlayers``)
    and the games with their players' histories (``KeptGames``), so that a server
    without a database answers protocol 1.2's profiles, games and records as a
    durable one does until it stops. No table is restored after a restart."""

    def __init__(self) -> None:
        super().__init__()
        self._sanctions: dict[str, Sanction] = {}

    async def start(self) -> None:
        pass

    async def close(self) -> None:
        pass

    async def create_table(
        self,
        table_id: str,
        name: str,
        options: Options,
        private: bool,
        invite_hash: str | None,
        timing: dict[str, Any] | None = None,
        made_by: str | None = None,
        rated: bool = False,
    ) -> None:
        self._games.create(table_id, name, private)
        if rated:  # the players' part keeps which tables are rated
            self._rated.setdefault(table_id, None)

    async def set_seat(
        self,
        table_id: str,
        seat: int,
        name: str,
        token_hash: str | None,
        bot: str | None,
        *,
        epoch: int | None = None,
        player: str | None = None,
    ) -> None:
        self._games.seat(table_id, seat, name)
        if player is not None:  # the players' part keeps who sat where
            seats = self._seats.setdefault(table_id, {})
            if any(p == player and s != seat for s, p in seats.items()):
                raise PlayerSeated(table_id, player)
            seats[seat] = player
        else:
            self._seats.get(table_id, {}).pop(seat, None)

    async def clear_seat(self, table_id: str, seat: int, *, epoch: int | None = None) -> None:
        self._games.seat(table_id, seat, None)
        self._seats.get(table_id, {}).pop(seat, None)

    async def start_game(
        self,
        table_id: str,
        record: Record,
        life: dict[str, Any] | None = None,
        *,
        epoch: int | None = None,
    ) -> None:
        self.keep_life(table_id, life)
        self._games.start(table_id, record)

    def append_action(
        self,
        table_id: str,
        index: int,
        take: Take,
        life: dict[str, Any] | None = None,
        *,
        epoch: int | None = None,
    ) -> asyncio.Future[None]:
        self.keep_life(table_id, life)
        self._games.take(table_id, index, take)
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        done.set_result(None)  # nothing to write: durable at once
        return done

    async def save_life(
        self, table_id: str, life: dict[str, Any], *, epoch: int | None = None
    ) -> None:
        self.keep_life(table_id, life)

    async def finish(
        self, table_id: str, result: dict[str, Any] | None, *, epoch: int | None = None
    ) -> None:
        seated = self.seat_players(table_id)
        self._games.finish(table_id, result, time.time(), seated, self._players)
        await self._finished(table_id, result)
        self._lives.pop(table_id, None)  # rated (``_finished``): kept no longer

    async def add_sanction(self, sanction: Sanction) -> None:
        self._sanctions[sanction.id] = sanction

    async def lift_sanction(self, sanction_id: str, at: float) -> bool:
        found = self._sanctions.get(sanction_id)
        if found is None or not found.in_force(at):
            return False
        self._sanctions[sanction_id] = replace(found, lifted=at)
        return True

    def load_sanctions(self, now: float) -> list[Sanction]:
        return [s for s in self._sanctions.values() if s.in_force(now)]

    async def note_alive(self, at: float) -> None:
        pass

    def alive_at(self, server: str) -> float | None:
        return None

    def load_open_tables(self, finished_since: float | None = None) -> list[StoredTable]:
        return []

    def load_record(self, table_id: str) -> tuple[Record, bool] | None:
        return self._games.record(table_id)

    def list_games(self) -> list[StoredGame]:
        return []

    def load_table(self, table_id: str) -> StoredTable | None:
        return None

    def find_token(
        self, token_hash: str, finished_since: float | None = None
    ) -> tuple[str, int] | None:
        return None

    def open_table_ids(self) -> list[str]:
        return []

    async def claim(self, table_id: str, owner: str) -> int:
        return 0  # nothing to fence: no other node shares this store

    def release(self, table_id: str) -> None:
        pass

    def held(self, table_id: str) -> int | None:
        return None

    def fence_writes(self) -> None:
        pass

    def owner(self, table_id: str) -> tuple[str | None, int] | None:
        return None

    def stats(self) -> dict[str, int]:
        return {}
