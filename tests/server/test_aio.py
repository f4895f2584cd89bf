"""Background tasks stop for sure (``server.aio.stop_tasks``), even when a
cancellation is lost, as Python 3.11 loses one that comes as a command of redis-py
(written under ``asyncio.wait_for``) completes: a stopped cluster node went on with its
upkeep, publishing itself alive, and a test's end waited for it forever."""

from __future__ import annotations

import asyncio
import contextlib
import random

import redis.asyncio as aioredis

from bench.services import Redis
from server.aio import stop_tasks


async def test_a_task_that_loses_its_first_cancellation_is_stopped() -> None:
    lost: list[bool] = []

    async def upkeep() -> None:
        while True:
            try:
                await asyncio.sleep(0.01)
            except asyncio.CancelledError:
                if lost:
                    raise
                lost.append(True)  # carries on, as after a lost cancellation

    task = asyncio.create_task(upkeep())
    await asyncio.sleep(0.05)
    assert await stop_tasks([task], 5) == set()
    assert lost and task.cancelled()


async def test_a_task_that_ignores_every_cancellation_is_given_back() -> None:
    enough = asyncio.Event()

    async def stubborn() -> None:
        while not enough.is_set():
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.sleep(0.01)

    task = asyncio.create_task(stubborn())
    await asyncio.sleep(0.05)  # running: in its loop
    assert await stop_tasks([task], 0.3) == {task}  # bounded: the caller goes on
    enough.set()
    await asyncio.wait({task}, timeout=5)
    assert task.done()


async def test_loops_of_redis_commands_stop_at_any_moment(redis_server: Redis) -> None:
    """A loop of Redis commands cancelled at many moments: each one ends."""
    r = aioredis.Redis.from_url(redis_server.url)

    async def upkeep() -> None:
        while True:
            async with r.pipeline(transaction=False) as pipe:
                pipe.sadd("kk:test:nodes", "n")
                pipe.smembers("kk:test:nodes")
                await pipe.execute()
            await r.mget(["kk:test:a", "kk:test:b"])

    rng = random.Random(7)
    try:
        for i in range(80):
            task = asyncio.create_task(upkeep())
            for _ in range(rng.randrange(1, 40)):
                await asyncio.sleep(0)
            assert await stop_tasks([task], 0.5) == set(), i  # redis-py 8.2: see server.aio
            assert task.cancelled()
    finally:
        await r.delete("kk:test:nodes")
        await r.aclose()
