"""The leaderboard and a profile read by indexed, paged queries (SQLite, PostgreSQL and
the memory store) equal the simple path that looks at every player and every game:
page by page, ranks and ties included (a player's games: test_history.py)."""

from __future__ import annotations

import asyncio
import random
import threading
import time

from bench.stored import stored_game
from server.players.service import Players
from server.store import MemoryStore, Store, open_store
from server.store.players import StoredPlayer, won

NAMES = ["Ada", "ada2", "Émile", "Zoë", "zed", "Ölaf", "Bob", "bob3", "Čapek", "Ünal", "Io"]


async def _history(store: Store, rng: random.Random) -> list[str]:
    """Players (some names beyond ASCII, to order by code point) and rated games,
    some of them alike, so that several players share a rating."""
    ids = []
    for i, name in enumerate(NAMES * 3):
        p = StoredPlayer(f"p{i:03d}", f"{name.casefold()}{i}", f"{name} {i}", 1000.0 + i)
        assert await store.add_player(p, "scrypt$x")
        ids.append(p.id)
    for a, b in zip(ids[0:10], ids[10:20], strict=True):  # ten alike games: ties
        await stored_game(store, [a, b], [1, 2])
    for _ in range(30):
        n = rng.choice([2, 3])
        seated = rng.sample(ids[20:30], n)  # the last three never play a rated game
        await stored_game(store, seated, [rng.randint(1, n) for _ in range(n)])
    await stored_game(store, ids[:2], [1, 2], rated=False)
    await stored_game(store, ids[1:3], [1, 2], ending="abandoned")
    return ids


async def _pages_equal_the_simple_path(store: Store) -> None:
    service = Players(store)
    ids = await _history(store, random.Random(7))
    board = service.leaderboard()
    assert len(board) == store.rated_count() == len(NAMES) * 3 - 3
    assert len({e.rank for e in board}) < len(board)  # ties share a rank
    for p in store.rated_players():
        assert (await service.info(p)).rating == (p.mu or 0.0) - 3 * (p.sigma or 0.0)
    for limit in (1, 2, 3, 4, 7, 100):  # keyset pages, ties across their edges too
        seen, cursor = [], None
        while True:
            page = service.leaderboard_page(cursor, limit)
            assert page.total == len(board) and len(page.entries) <= limit
            seen += page.entries
            if (cursor := page.next) is None:
                break
        assert seen == board, limit
    for pid in ids[:12]:
        player = store.player_by_id(pid)
        assert player is not None
        games = service.games(player, player)
        got = service.games_page(player, None, 3, player)
        assert got.total == len(games) and len(got.games) == min(3, len(games))
        info = await service.info(player)
        assert info.games == len(games)
        assert info.wins == sum(1 for g in games if won(g.seat, g.info.result))


async def _pages_read_apart_are_the_same_pages(store: Store) -> None:
    """``Players.apart``: a page read away from the event loop is the page read on it;
    a SQL store reads it in a worker thread, on the worker threads' connection."""
    service = Players(store)
    ids = await _history(store, random.Random(3))
    player = store.player_by_id(ids[20])
    assert player is not None
    for reads in (
        lambda: service.leaderboard_page(None, 5),
        lambda: service.leaderboard_page(service.leaderboard_page(None, 5).next, 5),
        lambda: service.games_page(player, None, 2),
        lambda: service.games_page(player, service.games_page(player, None, 1).next, 2),
        lambda: service.record(service.games_page(player, None, 1).games[0].table, player),
    ):
        assert await service.apart(reads) == reads()
    loop_thread = threading.get_ident()
    where = await service.apart(
        lambda: (threading.get_ident(), store._read(lambda con: con.con))  # type: ignore[attr-defined]
    )
    on_loop = store._read(lambda con: con.con)  # type: ignore[attr-defined]
    assert where[0] != loop_thread and where[1] is not on_loop
    # and afterwards the loop's reads are on the loop's connection again
    assert store._read(lambda con: con.con) is on_loop  # type: ignore[attr-defined]


async def test_pages_read_apart_are_the_same_pages(store_url: str) -> None:
    store = open_store(store_url)
    await store.start()
    try:
        await _pages_read_apart_are_the_same_pages(store)
    finally:
        await store.close()


async def test_pages_asked_for_at_once_wait_on_the_loop(store_url: str) -> None:
    """Many pages asked for at once are read one after another, and wait for their turn
    on the event loop: the default executor's threads stay free for other work."""
    store = open_store(store_url)
    await store.start()
    try:

        def slow_page() -> None:
            time.sleep(0.05)

        pages = [asyncio.create_task(store.apart(slow_page)) for _ in range(12)]
        await asyncio.sleep(0.01)
        started = time.perf_counter()
        await asyncio.to_thread(lambda: None)  # a thread is free at once
        assert time.perf_counter() - started < 0.04
        await asyncio.gather(*pages)
    finally:
        await store.close()


async def test_paged_queries_equal_the_simple_path(store_url: str) -> None:
    store = open_store(store_url)
    await store.start()
    try:
        await _pages_equal_the_simple_path(store)
        if store_url.endswith(".db"):  # SQLite says how it reads a page: by the index
            plan = store._read(  # type: ignore[attr-defined]
                lambda con: con.execute(
                    "EXPLAIN QUERY PLAN SELECT id FROM players WHERE rated_games > 0"
                    " AND mu - 3 * sigma < 5.0"
                    " ORDER BY mu - 3 * sigma DESC, name_key COLLATE BINARY LIMIT 20"
                ).fetchall()
            )
            text = " ".join(str(row[-1]) for row in plan)
            assert "players_board" in text and "TEMP B-TREE" not in text, text
    finally:
        await store.close()


async def test_the_memory_stores_leaderboard_is_ranked_alike() -> None:
    store = MemoryStore()
    players = [StoredPlayer(f"m{i}", f"k{i}", f"M{i}", 1.0, 25.0 + i % 3, 8.0, 1) for i in range(9)]
    for p in players:
        assert await store.add_player(p, "scrypt$x")
    service = Players(store)
    board = service.leaderboard()
    assert [e.rank for e in board] == [1, 1, 1, 4, 4, 4, 7, 7, 7]
    page = service.leaderboard_page(None, 4)  # its reads are the loop's data: read at once
    assert await service.apart(lambda: (threading.get_ident(), page)) == (
        threading.get_ident(),
        page,
    )
    seen, cursor = [], None
    while True:
        page = service.leaderboard_page(cursor, 2)
        seen += page.entries
        if (cursor := page.next) is None:
            break
    assert seen == board
