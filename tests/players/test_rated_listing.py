"""Rated tables are marked in the listing (protocol 1.2), on real SQLite and
PostgreSQL: as created, after a restart, at another node of a cluster, and at a
rematch, whose game is rated too; 1.0 and 1.1 listings never carry the mark."""

from __future__ import annotations

import msgpack  # type: ignore[import-untyped]

from server.players.ratings import OWN_TAKES
from tests.helpers import until
from tests.helpers.cluster import KEEP_LEASE, cluster
from tests.server.wsclient import WsClient, create

from .helpers import new_secret, own_takes, signed_in, stored_server


async def _listed(c: WsClient) -> dict[str, bool]:
    """Table name -> whether the listing marks it rated."""
    page = await c.request("list_tables")
    assert page.type == "tables", page
    return {t.name: t.rated for t in page.tables}


async def test_the_listing_marks_rated_tables_across_a_restart(store_url: str) -> None:
    secrets = {"Ada": new_secret()}
    async with stored_server(store_url) as server:
        ada = await signed_in(server.port, "Ada", secrets["Ada"], register=True)
        await create(ada, player="Ada", name="ranked", rated=True)
        old = await WsClient.open(server.port, "old", (1, 1))
        await create(old, None, name="friendly")
        assert await _listed(ada) == {"ranked": True, "friendly": False}
        assert await _listed(old) == {"ranked": False, "friendly": False}
        await old.request("list_tables")
        frame = msgpack.unpackb(old.raw[-1])  # the reply, as its bytes say
        assert frame["type"] == "tables" and frame["tables"]
        assert all("rated" not in t for t in frame["tables"])  # 1.1 frames as ever
        for c in (ada, old):
            await c.close()
    async with stored_server(store_url) as server:  # restored from the store
        anon = await WsClient.open(server.port, "anon", (1, 2))
        assert await _listed(anon) == {"ranked": True, "friendly": False}
        [ranked] = [t for t in server.lobby.tables.values() if t.name == "ranked"]
        err = await anon.request("join", table=ranked.id, player="Anon")
        assert err.type == "error" and (err.code, err.detail) == ("not_allowed", "rated")
        await anon.close()


async def test_a_rematch_of_a_rated_table_is_rated(store_url: str) -> None:
    async with stored_server(store_url) as server:
        ada = await signed_in(server.port, "Ada", new_secret(), register=True)
        grace = await signed_in(server.port, "Grace", new_secret(), register=True)
        table, _, _ = await create(ada, player="Ada", name="ranked", rated=True)
        assert (await grace.request("join", table=table, player="G")).type == "joined"
        for game in (1, 2):
            for c in (ada, grace):
                await c.send("ready")
            await ada.wait_for(lambda x: x.type == "view" and not x.view.game_over)
            await grace.wait_for(lambda x: x.type == "view" and not x.view.game_over)
            seats = [ada, grace] if game == 1 else [grace, ada]  # the rematch moves seats on
            await own_takes(seats, OWN_TAKES)  # so that it counts
            start = len(ada.msgs)
            assert (await grace.request("resign")).type == "ack"
            await ada.wait_for(lambda x: x.type == "view" and x.view.game_over, start=start)
            prof = await grace.request("show_profile", name="Ada")
            assert prof.player.rated_games == game  # the rematch's game counted too
            if game == 2:
                break
            start = len(ada.msgs)
            await ada.send("rematch")
            await grace.wait_for(lambda x: x.type == "presence" and any(s.rematch for s in x.seats))
            await grace.send("rematch")
            moved = await ada.wait_type("rematched", start=start)
            assert moved.table != table
            listed = await _listed(grace)
            assert listed["ranked, game 2"] is True, listed
            assert server.lobby.tables[moved.table].rated
        for c in (ada, grace):
            await c.close()


async def test_another_nodes_listing_marks_rated_tables(pg_url: str, redis_url: str) -> None:
    async with cluster(pg_url, redis_url, n=2, lease=KEEP_LEASE) as (a, b):
        ada = await signed_in(a.port, "Ada", new_secret(), register=True)
        await create(ada, player="Ada", name="ranked", rated=True)
        on_a = await WsClient.open(a.port, "anon", (1, 1))
        await create(on_a, None, name="friendly")
        await until(lambda: b.cluster is not None and len(b.cluster.listing()) == 2, timeout=30)
        on_b = await WsClient.open(b.port, "bob", (1, 2))
        assert await _listed(on_b) == {"ranked": True, "friendly": False}
        [ranked] = [t for t in a.lobby.tables.values() if t.name == "ranked"]
        err = await on_b.request("join", table=ranked.id, player="Bob")
        assert err.type == "error" and (err.code, err.detail) == ("not_allowed", "rated")
        for c in (ada, on_a, on_b):
            await c.close()
