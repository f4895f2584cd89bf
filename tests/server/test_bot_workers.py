"""Server-side bots think in worker processes (finding 5 of the hostile-client review):
a flood of bot games costs the pool's cores, not the event loop's, and a person's take
is answered while every worker is busy searching."""

from __future__ import annotations

import asyncio
import random
import resource
import time

from server.bots.pool import BotPool, think
from server.lobby import Quotas
from shared.bots import make_bot
from shared.options import Options
from shared.record import Record
from shared.view import view
from tests.helpers.servers import MakeServer

from .wsclient import WsClient, human_table, random_take

HARD = [{"seat": s, "level": "hard"} for s in range(3)]


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)  # this process, all its threads
    return usage.ru_utime + usage.ru_stime


async def test_bot_floods_think_outside_the_server_process(make_server: MakeServer) -> None:
    server = await make_server(
        bot_workers=1, bot_think=0.2, quotas=Quotas(lobby_tables=0, unattended_games=0, bot_games=0)
    )
    flooder = await WsClient.open(server.port, "flooder")
    for _ in range(6):  # three-seat hard games: far more search than one worker can do
        created = await flooder.request(
            "create_table", name="bots", options={"players": 3}, bots=HARD
        )
        assert created.type == "table_created"
    async with asyncio.timeout(30):  # the worker is up and searching
        while server.bots.moves < 1:
            await asyncio.sleep(0.05)
    _, people, _ = await human_table(server.port, 2)
    rng = random.Random(5)
    cpu_before, moves_before = _cpu(), server.bots.moves
    waits = []
    for _ in range(16):  # a person's game meanwhile: each take answered promptly
        v = max((c.latest_view() for c in people), key=lambda x: x.state_version)
        actor = people[v.view.to_move]
        version = v.state_version
        await actor.wait_until(lambda a=actor, n=version: a.latest_view().state_version >= n)
        fields = {**random_take(actor.latest_view().view, rng), "state_version": v.state_version}
        start = time.perf_counter()
        ack = await actor.request("take", **fields)
        waits.append(time.perf_counter() - start)
        assert ack.type == "ack", ack
        await asyncio.sleep(0.15)
    spent = _cpu() - cpu_before
    thought = server.bots.moves - moves_before
    assert thought >= 4, thought  # the bots kept searching all along
    # in a thread, every move's ~0.2 s of search would be this process's CPU time
    assert spent < 0.5 * 0.2 * thought, (spent, thought)
    assert max(waits) < 1.0, waits  # never behind a search (was up to 3.4 s)
    assert server.health()["bot_moves_waiting"] >= 1


async def test_think_is_the_bots_decision_and_keeps_its_state() -> None:
    record = Record.new(Options(seed=3))
    game = record.replay()
    bot = make_bot("medium", game.to_move, seed=9, iterations=50)
    same = make_bot("medium", game.to_move, seed=9, iterations=50)
    pool = BotPool(1)
    try:
        seen = view(game, game.to_move)
        in_worker, worker_bot = await pool.decide(bot, seen)
        here, local_bot = think(same, seen)
        assert in_worker == here and pool.moves == 1
        assert worker_bot.decide(seen) == local_bot.decide(seen)  # its random state came back
    finally:
        pool.shutdown()
