"""A take whose caller is cancelled while its write is in flight (a stand-in stopped
because its person came back, a connection gone) still becomes the table's: the store
may already be committing it, and a table that dropped it would reuse its index for the
next write and fail on every take after. Real SQLite store, real tables."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

from server.aio import outlast, to_the_end
from server.core.table import PLAYING
from server.lobby import NO_QUOTAS, Lobby
from server.store import MemoryStore, open_store
from shared.game import Take
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


async def test_an_append_is_asked_for_before_it_returns() -> None:
    """``Store.append_action`` queues the write before it returns, as a future: the
    memory store's is done at once, the SQL store's settles though nobody awaits it,
    and a table's take needs no task of its own to outlive a cancelled caller."""
    memory = MemoryStore()
    for life in (None, {"resigned": [1]}):
        done = memory.append_action("t", 0, Take("toad-1"), life, epoch=None)
        assert done.done() and done.result() is None


async def test_a_cancelled_wait_for_a_write_still_sees_it_done(tmp_path: Path) -> None:
    """``outlast``: a task cancelled while it waits for a write goes on waiting, knows
    it was cancelled, and leaves the write's own failure to the caller."""
    store = open_store(tmp_path / "kk.db")
    await store.start()
    try:
        table, _ = await Lobby(store, quotas=NO_QUOTAS).create("t", Options(players=2))
        people = [Person(), Person()]
        for p in people:
            await table.join("p", p)
        for p in people:
            await table.set_ready(p)  # the game is stored: its actions may follow
        write = store.append_action(table.id, 0, Take("toad-1"))
        waiting = asyncio.create_task(outlast(write))
        await asyncio.sleep(0)
        waiting.cancel()
        assert await waiting is True and write.done() and write.exception() is None
        again = store.append_action(table.id, 0, Take("toad-2"))  # index 0 taken: fails
        assert await outlast(again) is False and again.exception() is not None
    finally:
        await store.close()


async def test_to_the_end_runs_on_past_its_callers_cancellation() -> None:
    """``to_the_end``: the coroutine runs to its end though its caller was cancelled
    (twice), which then hears of the cancellation; a failure is the caller's."""
    finished: list[str] = []

    async def work(fail: bool) -> None:
        await asyncio.sleep(0.05)
        if fail:
            raise ValueError("the write failed")
        finished.append("done")

    caller = asyncio.create_task(to_the_end(work(False)))
    for _ in range(2):
        await asyncio.sleep(0.01)
        caller.cancel()
    with pytest.raises(asyncio.CancelledError):
        await caller
    assert finished == ["done"]
    with pytest.raises(ValueError, match="the write failed"):
        await to_the_end(work(True))


async def test_takes_cancelled_at_every_moment_with_a_memory_store_stay_consistent() -> None:
    """The same cancellations with the store that writes nothing (the commit awaited
    plainly): each take is the table's entirely or not at all, and the game plays on."""
    lobby = Lobby(MemoryStore(), quotas=NO_QUOTAS)
    async with asyncio.timeout(60):
        table, _ = await lobby.create("t", Options(players=2))
        people = [Person(), Person()]
        for p in people:
            await table.join("p", p)
        for p in people:
            await table.set_ready(p)
        k = cancelled = 0
        while table.game is not None and not table.game.over:
            record = table.record
            assert record is not None
            before = (len(record.actions), table.version)
            task = asyncio.create_task(
                table.take_for_seat(
                    table.game.to_move, table.game.legal_actions()[0], table.version
                )
            )
            for _ in range(k % 3):
                await asyncio.sleep(0)
            task.cancel()
            done = await asyncio.gather(task, return_exceptions=True)
            cancelled += isinstance(done[0], asyncio.CancelledError)
            after = (len(record.actions), table.version)
            assert after in (before, (before[0] + 1, before[1] + 1))
            assert table.game.ply == len(record.actions)
            k += 1
        assert cancelled > 0 and table.result is not None
