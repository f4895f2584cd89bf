"""A take whose caller is cancelled while its write is in flight (a stand-in stopped
because its person came back, a connection gone) still becomes the table's: the store
may already be committing it, and a table that dropped it would reuse its index for the
next write and fail on every take after. Real SQLite store, real tables."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from server.core.table import PLAYING
from server.lobby import NO_QUOTAS, Lobby
from server.store import open_store
from shared.options import Options

sys.path.insert(1, str(Path(__file__).resolve().parents[2] / "bench"))
from tick import Person  # a person's connection that hears and says nothing


async def test_a_take_cancelled_mid_write_is_the_tables_and_the_next_take_works(
    tmp_path: Path,
) -> None:
    store = open_store(tmp_path / "kk.db")
    await store.start()
    try:
        async with asyncio.timeout(60):
            lobby = Lobby(store, quotas=NO_QUOTAS)
            table, _ = await lobby.create("t", Options(players=2))
            people = [Person(), Person()]
            for p in people:
                await table.join("p", p)
            for p in people:
                await table.set_ready(p)
            assert table.state == PLAYING
            cancelled = 0
            k = 0
            while table.game is not None and not table.game.over:
                game, record = table.game, table.record
                assert record is not None
                before = len(record.actions)
                task = asyncio.create_task(
                    table.take_for_seat(game.to_move, game.legal_actions()[0], table.version)
                )
                # cancel at every moment from "not started" to "write being committed"
                for _ in range(k % 4):
                    await asyncio.sleep(0)
                if k % 4 == 3:
                    await asyncio.sleep(0.0002 * (k % 7))
                task.cancel()
                done = await asyncio.gather(task, return_exceptions=True)
                cancelled += isinstance(done[0], asyncio.CancelledError)
                k += 1
                if len(record.actions) == before:
                    continue  # cancelled before the table asked for the write
                stored = store.load_record(table.id)
                assert stored is not None
                assert len(stored[0].actions) == len(record.actions) == before + 1
            stored = store.load_record(table.id)
            assert stored is not None and stored[1]  # finished, stored as the table has it
            assert stored[0].actions == table.record.actions  # type: ignore[union-attr]
            assert cancelled > 0
    finally:
        await store.close()
