"""Protocol 1.5's analyses of finished games: the expert's analysis of the record, each
seat's decisions from what it knew; refused as ``get_record`` is; made once, kept in
the store (SQLite and PostgreSQL) and answered from it, after a restart too; bounded
per player, per address and overall."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bench.stored import registered, stored_game
from protocol.convert import analysis_message
from server.bots.analyst import Analyst
from server.core.errors import TableError
from server.players.analyses import Analyses, AnalysisBounds
from server.players.service import Players
from server.store import open_store
from shared.analysis import analyse
from tests.helpers.games import finished_game
from tests.server.wsclient import FEW_SAMPLES, WsClient

from .helpers import stored_server


async def test_an_analysis_is_the_records_made_once_kept_and_refused_as_get_record(
    store_url: str,
) -> None:
    """On SQLite and PostgreSQL: a private finished game is analysed for a player who
    played it (exactly ``shared.analysis.analyse`` of its record, every seat weighed
    from its own view), kept, answered from the store to the other player and after a
    restart; refused (``no_such_game``) exactly where ``get_record`` is: a player who
    did not play it, an anonymous connection, a game not finished, or not there; a 1.4
    connection does not know the message."""
    async with stored_server(store_url, analysis=FEW_SAMPLES) as server:
        store = server.store
        ada, grace, eve = (store.player_by_id(i) for i in await registered(store, 3, "an"))
        assert ada is not None and grace is not None and eve is not None
        table = await finished_game(store, [ada.id, grace.id], 7, private=True)
        running = await stored_game(store, [ada.id, grace.id], (1, 2), finish=False)
        record = store.load_record(table)
        assert record is not None
        want = analysis_message(table, analyse(record[0], budget=FEW_SAMPLES.budget, seed=0))
        analyses = server.players.analyses
        got = await analyses.answer(table, ada, _Here("10.0.0.1"))
        assert got == want and len(got.decisions) == len(record[0].actions) > 20
        assert {d.seat for d in got.decisions} == {0, 1} and len(got.seats) == 2
        assert store.load_analysis(table) is not None and analyses.made == 1
        again = await analyses.answer(table, grace, _Here("10.0.0.2"))
        assert again == want and analyses.made == 1  # answered from the store
        for viewer, tid in ((eve, table), (None, table), (ada, running), (None, "nosuch")):
            with pytest.raises(TableError) as refused:
                await analyses.answer(tid, viewer, _Here("10.0.0.3"))
            with pytest.raises(TableError) as as_record:
                server.players.record(tid, viewer)
            assert refused.value.code == as_record.value.code == "no_such_game"
        new = await WsClient.open(server.port, "new", (1, 5))
        err = await new.request("analyse_game", table=table)
        assert (err.type, err.code) == ("error", "no_such_game")  # private, anonymous
        old = await WsClient.open(server.port, "old", (1, 4))
        err = await old.request("analyse_game", table=table)
        assert (err.type, err.code) == ("error", "unknown_type")
        for c in (new, old):
            await c.close()
    async with stored_server(store_url, analysis=FEW_SAMPLES) as server:  # a restart
        kept = await server.players.analyses.answer(table, ada, _Here("10.0.0.4"))
        assert kept == want and server.players.analyses.made == 0


class _Here:
    """A requester at ``address`` whose connection stays open (``Requester``)."""

    def __init__(self, address: str, open_: bool = True) -> None:
        self.address, self._open = address, open_

    def alive(self) -> bool:
        return self._open


async def test_a_public_game_is_analysed_for_anyone_over_the_wire(tmp_path: Path) -> None:
    """A 1.5 connection, anonymous, asks for a public finished game's analysis."""
    async with stored_server(str(tmp_path / "kk.db"), analysis=FEW_SAMPLES) as server:
        players = await registered(server.store, 2, "pub")
        table = await finished_game(server.store, players, 3, private=False)
        c = await WsClient.open(server.port, "c", (1, 5))
        got = await c.request("analyse_game", table=table)
        assert got.type == "analysis" and got.table == table and got.budget == 4
        record = server.store.load_record(table)
        assert record is not None
        assert got == analysis_message(table, analyse(record[0], budget=4)).model_copy(
            update={"seq": got.seq, "re": got.re}
        )
        await c.close()


async def test_analyses_are_bounded_per_player_per_address_and_overall(tmp_path: Path) -> None:
    """One analysis an hour per address and per player (burst 1): a second new game
    is refused to the same address and to the same player from another address, with
    a ``retry_after``; a kept one is still answered; with one worker and no line, a
    request while an analysis is made is refused; a request whose connection closed
    while waiting is dropped before its analysis is made."""
    store = open_store(str(tmp_path / "kk.db"))
    await store.start()
    try:
        ids = await registered(store, 2, "q")
        games = [await finished_game(store, ids, seed, private=False) for seed in range(5)]
        ada, grace = (store.player_by_id(i) for i in ids)
        bounds = AnalysisBounds(budget=2, workers=1, queue=0, per_hour=1.0, burst=1)
        analyses = Analyses(store, Players(store).finished, Analyst(0), bounds)
        await analyses.answer(games[0], ada, _Here("10.0.0.1"))
        for viewer, address in ((None, "10.0.0.1"), (ada, "10.0.0.2")):
            with pytest.raises(TableError) as refused:
                await analyses.answer(games[1], viewer, _Here(address))
            assert refused.value.code == "rate_limited"
            assert refused.value.retry_after is not None and refused.value.retry_after > 60
        await analyses.answer(games[0], ada, _Here("10.0.0.1"))  # kept: free
        assert analyses.made == 1 and store.load_analysis(games[1]) is None
        # overall: one at a time and nobody waiting (the quotas out of the way)
        slow = AnalysisBounds(budget=40, workers=1, queue=0, per_hour=1e9, burst=10**9)
        analyses = Analyses(store, Players(store).finished, Analyst(0), slow)
        first = asyncio.ensure_future(analyses.answer(games[2], grace, _Here("10.0.0.5")))
        async with asyncio.timeout(30):
            while analyses.running == 0:
                await asyncio.sleep(0.01)
        with pytest.raises(TableError) as busy:
            await analyses.answer(games[3], None, _Here("10.0.0.6"))
        assert busy.value.code == "rate_limited" and (busy.value.retry_after or 0) >= 1
        same = await asyncio.gather(
            first, analyses.answer(games[2], None, _Here("10.0.0.7"))
        )  # a second request of the game being made shares it
        assert same[0] == same[1] and analyses.made == 1
        # a closed connection's request is dropped at its turn, nothing made or kept
        with pytest.raises(TableError):
            await analyses.answer(games[4], None, _Here("10.0.0.8", open_=False))
        assert store.load_analysis(games[4]) is None and analyses.made == 1
    finally:
        await store.close()
