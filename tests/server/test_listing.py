"""``list_tables`` is paged and capped in bytes (findings 2 and 3 of the hostile-client
review): however many tables a server holds, one answer stays small enough for every
client (a protocol 1.0 client sending a plain ``list_tables`` gets a valid first page),
clients page through with ``cursor`` and may ask for open tables first, and a page is
charged to the rate limit by its size."""

from __future__ import annotations

import asyncio

import msgpack  # type: ignore[import-untyped]

from protocol.codec import MAX_SERVER_FRAME
from server.app import Server
from shared.options import Options
from tests.helpers.servers import MakeServer

from .wsclient import WsClient, create

SUMMARY_1_0 = {"id", "name", "private", "state", "options", "seats", "spectators"}


async def fill(server: Server, n: int, *, name: str = "t", private_every: int = 0) -> list[str]:
    """``n`` tables made through the lobby (in creation order); returns the public ids."""
    public = []
    for i in range(n):
        private = bool(private_every) and i % private_every == 0
        table, _ = await server.lobby.create(f"{name}{i}"[:48], Options(), private=private)
        if not private:
            public.append(table.id)
    return public


async def page_through(c: WsClient, **fields: object) -> tuple[list[str], int]:
    """Every id the pages list, in order, and how many pages it took."""
    ids: list[str] = []
    cursor = None
    pages = 0
    while True:
        page = await c.request("list_tables", cursor=cursor, **fields)
        assert page.type == "tables", page
        pages += 1
        ids += [t.id for t in page.tables]
        cursor = page.next
        if cursor is None:
            return ids, pages
        await c.ping()


async def test_pages_list_every_public_table_once_in_order(make_server: MakeServer) -> None:
    server = await make_server(listing_bytes_per_token=10**9)
    public = await fill(server, 230, private_every=7)
    c = await WsClient.open(server.port, protocol=(1, 1))
    ids, pages = await page_through(c, limit=37)
    assert ids == public and pages == -(-len(public) // 37)
    first = await c.request("list_tables", limit=5)
    assert first.total == len(public) and len(first.tables) == 5
    bad = await c.request("list_tables", cursor="z5")
    assert (bad.type, bad.code) == ("error", "invalid_field")
    other_order = await c.request("list_tables", cursor=first.next, open_first=True)
    assert (other_order.type, other_order.code) == ("error", "invalid_field")


async def test_open_tables_first(make_server: MakeServer) -> None:
    server = await make_server(listing_bytes_per_token=10**9)
    ids = await fill(server, 30)
    for tid in ids[::3]:  # every third one full (a bot in each seat: it plays at once)
        table = server.lobby.tables[tid]
        for seat in range(2):
            await table.add_bot("easy", seat)
    c = await WsClient.open(server.port, protocol=(1, 1))
    listed, _ = await page_through(c, limit=4, open_first=True)
    full = set(ids[::3])
    assert sorted(listed) == sorted(ids)
    assert listed == [t for t in ids if t not in full] + [t for t in ids if t in full]


async def test_a_plain_list_tables_gets_a_capped_first_page(make_server: MakeServer) -> None:
    """5,400 tables with long names: the listing of old was 1.14 MB, more than clients
    take (1 MiB). A protocol 1.0 client's plain ``list_tables`` now gets a first page
    within the server's cap, made only of what 1.0 defines (plus fields it ignores)."""
    server = await make_server()
    await fill(server, 5400, name="a long table name to make the listing big " * 2)
    c = await WsClient.open(server.port, protocol=(1, 1))
    await c.send_raw(msgpack.packb({"type": "list_tables", "id": 77}))
    page = await c.wait_for(lambda x: getattr(x, "re", None) == 77)
    raw = c.raw[c.msgs.index(page)]
    assert isinstance(raw, bytes)
    assert len(raw) <= server.config.max_listing_bytes < MAX_SERVER_FRAME
    plain = msgpack.unpackb(raw)
    assert plain["type"] == "tables" and plain["re"] == 77
    assert 0 < len(plain["tables"]) <= server.config.list_page
    for summary in plain["tables"]:
        assert SUMMARY_1_0 - {"spectators", "private"} <= summary.keys()
    assert page.total == 5400 and page.next is not None
    small = await make_server(max_listing_bytes=4096)
    await fill(small, 200, name="x" * 48)
    d = await WsClient.open(small.port, protocol=(1, 1))
    capped = await d.request("list_tables", limit=500)
    assert len(d.raw[d.msgs.index(capped)]) <= 4096 and 0 < len(capped.tables) < 200


async def test_the_table_you_are_at_comes_first_even_if_private(make_server: MakeServer) -> None:
    server = await make_server()
    await fill(server, 10)
    c = await WsClient.open(server.port, protocol=(1, 1))
    mine, _, _ = await create(c, private=True)
    first = await c.request("list_tables", limit=3)
    assert first.tables[0].id == mine and len(first.tables) == 3
    one = await c.request("list_tables", limit=1)
    assert [t.id for t in one.tables] == [mine] and one.next is not None
    rest = await c.request("list_tables", cursor=one.next, limit=100)
    assert len(rest.tables) == 10 and mine not in {t.id for t in rest.tables}


async def test_big_pages_cost_more_of_the_rate_limit(make_server: MakeServer) -> None:
    """A page of 32 KiB costs 16 messages' worth, and none is made while the client has
    not read what was sent: a client asking for big pages as fast as it may is refused
    after a few (and not dropped as too slow), where small requests pass a burst."""
    server = await make_server()
    await fill(server, 600, name="y" * 48)
    c = await WsClient.open(server.port, protocol=(1, 1))
    for _ in range(12):
        await c.send("list_tables", limit=500)
    await c.wait_until(lambda: len(c.msgs) >= 1 + 12)  # welcome, then one answer each
    kinds = [getattr(x, "code", x.type) for x in c.msgs[1:13]]
    assert "rate_limited" in kinds and kinds.index("rate_limited") <= 10, kinds
    await asyncio.sleep(2)  # the bucket pays its debt back at 20 tokens a second
    await c.ping()  # still connected
    d = await WsClient.open(server.port, protocol=(1, 1))
    for _ in range(12):
        await d.send("list_tables", limit=1)
    await d.wait_until(lambda: len(d.msgs) >= 1 + 12)
    assert all(x.type == "tables" for x in d.msgs[1:13])
