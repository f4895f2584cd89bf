"""A player's history: keyset pages equal the simple path (every game the viewer may
see, sorted, sliced), ties of finishing time included; a private game shows only to
those who played it; profile counters follow each stored result, and migration 12
fills them (and the history) from the games stored before it. SQLite, PostgreSQL and
the memory store; then over the wire, against a real server."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest

from bench.stored import result, stored_game
from server.players.names import name_key
from server.players.service import Players
from server.store import MemoryStore, Store, open_store
from server.store.migrations import PG_MIGRATIONS, SQLITE_MIGRATIONS
from server.store.players import StoredPlayer, won
from tests.server.wsclient import WsClient

from .helpers import new_secret, signed_in, stored_server

HISTORY = next(i for i, s in enumerate(SQLITE_MIGRATIONS) if "TABLE IF NOT EXISTS history" in s)
"""The index of the migration that adds the history (12)."""


async def _history(store: Store, rng: random.Random) -> list[StoredPlayer]:
    """Five players and their games: public and private, rated and not, and a run of
    games whose results are stored at once (so that several finish in the same
    millisecond: ties the row numbers break)."""
    players = []
    for i in range(5):
        p = StoredPlayer(f"h{i}", f"hist{i}", f"Hist {i}", 1000.0 + i)
        assert await store.add_player(p, "scrypt$x")
        players.append(p)
    ids = [p.id for p in players]
    for _ in range(25):
        seated = rng.sample(ids, rng.choice([2, 3]))
        places = [rng.randint(1, len(seated)) for _ in seated]
        await stored_game(store, seated, places, private=rng.random() < 0.4, rated=False)
    started = [
        await stored_game(store, rng.sample(ids, 2), [1, 2], private=i % 2 == 0, finish=False)
        for i in range(12)
    ]
    await asyncio.gather(*(store.finish(t, result([2, 1])) for t in started))
    return players


async def _pages_equal_the_simple_path(store: Store) -> None:
    service = Players(store)
    players = await _history(store, random.Random(39))
    ties = 0
    for player in players:
        viewers: list[StoredPlayer | None] = [player, None, *(p for p in players if p != player)]
        everything = service.games(player, player)
        assert len({g.info.table_id for g in everything}) == len(everything)
        ties += len(everything) - len({g.place[0] for g in everything})
        fresh = store.player_by_id(player.id)
        assert fresh is not None
        assert fresh.games == len(everything)
        assert fresh.wins == sum(1 for g in everything if won(g.seat, g.info.result))
        assert fresh.public_games == sum(1 for g in everything if not g.info.private)
        for viewer in viewers:
            simple = [g.info.table_id for g in service.games(player, viewer)]
            if viewer is None:
                assert all(not g.info.private for g in service.games(player, viewer))
            for limit in (1, 2, 3, 7, 100):
                seen, cursor = [], None
                while True:
                    page = service.games_page(player, cursor, limit, viewer)
                    assert page.total == len(simple)
                    assert len(page.games) <= limit
                    seen += [g.table for g in page.games]
                    if (cursor := page.next) is None:
                        break
                assert seen == simple, (player.id, viewer, limit)
    assert ties > 0  # results stored in the same millisecond were met and ordered
    # a cursor far past every game: an empty page, at once
    far = service.games_page(players[0], "g00000000000000" + "9" * 17, 5, players[0])
    assert far.games == () and far.next is None


async def test_keyset_pages_equal_the_simple_path(store_url: str) -> None:
    store = open_store(store_url)
    await store.start()
    try:
        await _pages_equal_the_simple_path(store)
        if store_url.endswith(".db"):  # SQLite reads a page by the index, not a sort
            for sql in (
                "SELECT h.n FROM history h WHERE h.player_id = 'h1' AND (h.finished, h.n) < (5, 5)"
                " ORDER BY h.finished DESC, h.n DESC LIMIT 3",
                "SELECT h.n FROM history h WHERE h.player_id = 'h1' AND h.private = 0"
                " AND (h.finished, h.n) < (5, 5) ORDER BY h.finished DESC, h.n DESC LIMIT 3",
            ):
                plan = store._read(  # type: ignore[attr-defined]
                    lambda con, sql=sql: con.execute(f"EXPLAIN QUERY PLAN {sql}").fetchall()
                )
                text = " ".join(str(row[-1]) for row in plan)
                assert "history_p" in text and "TEMP B-TREE" not in text, text
    finally:
        await store.close()


async def test_the_memory_store_keeps_history_alike() -> None:
    await _pages_equal_the_simple_path(MemoryStore())


async def test_migration_fills_history_and_counters(store_url: str) -> None:
    """A database of the schema before migration 12 with finished games (public,
    private, abandoned, one still running) gets their history rows and its players'
    counters from it, and its pages equal the simple path."""
    kind = type(open_store(store_url))

    class Before(kind):  # type: ignore[valid-type,misc]
        MIGRATIONS = (SQLITE_MIGRATIONS if store_url.endswith(".db") else PG_MIGRATIONS)[:HISTORY]

    old = Before(store_url)
    await old.start()
    rows: list[tuple[str, tuple[Any, ...]]] = []
    for i in range(3):
        rows.append(
            (
                "INSERT INTO players (id, name_key, name, created, rated_games)"
                " VALUES (?, ?, ?, 1.0, 0)",
                (f"o{i}", f"old{i}", f"Old {i}"),
            )
        )
    games = [  # table, private, finished, result (None: still running), seats
        ("t1", 0, 100.0, result([1, 2]), ["o0", "o1"]),
        ("t2", 1, 200.0, result([2, 1]), ["o0", "o1"]),
        ("t3", 0, 200.0, result([1, 2], "abandoned"), ["o1", "o2"]),
        ("t4", 0, None, None, ["o0", "o2"]),
    ]
    for table, private, finished, res, seats in games:
        rows.append(
            (
                "INSERT INTO tables (id, name, options, private, created, state)"
                " VALUES (?, ?, '{}', ?, 1.0, 'finished')",
                (table, f"table {table}", private),
            )
        )
        rows.append(
            (
                "INSERT INTO games (table_id, record, started, finished, result)"
                " VALUES (?, '{}', 1.0, ?, ?)",
                (table, finished, None if res is None else json.dumps(res)),
            )
        )
        for seat, pid in enumerate(seats):
            rows.append(
                (
                    "INSERT INTO seats (table_id, seat, name) VALUES (?, ?, ?)",
                    (table, seat, pid),
                )
            )
            rows.append(
                (
                    "INSERT INTO player_seats (table_id, seat, player_id) VALUES (?, ?, ?)",
                    (table, seat, pid),
                )
            )
    await old._write("", *rows)
    await old.close()
    store = open_store(store_url)
    await store.start()
    try:
        got = {
            pid: (p.games, p.wins, p.public_games)
            for pid in ("o0", "o1", "o2")
            if (p := store.player_by_id(pid)) is not None
        }
        assert got == {"o0": (2, 1, 1), "o1": (3, 1, 2), "o2": (1, 0, 1)}
        service = Players(store)
        o0, o1, o2 = (store.player_by_id(f"o{i}") for i in range(3))
        assert o0 is not None and o1 is not None and o2 is not None
        assert [g.table for g in service.games_page(o1, None, 10, o1).games] == ["t3", "t2", "t1"]
        assert [g.table for g in service.games_page(o1, None, 10, o2).games] == ["t3", "t1"]
        assert [g.table for g in service.games_page(o1, None, 10, o0).games] == ["t3", "t2", "t1"]
    finally:
        await store.close()


# ---------------------------------------------------------------- over the wire
@pytest.fixture
def sqlite_url(tmp_path: Any) -> str:
    return str(tmp_path / "kk.db")


async def test_private_games_show_only_to_their_players(sqlite_url: str) -> None:
    """Eve, who did not play it, sees nothing of Ada and Bob's private game (not its
    table, its name, its players or its result) in Ada's games; Bob, who played it,
    and Ada see it; ``total`` counts what each may see."""
    async with stored_server(sqlite_url) as server:
        port = server.port
        secrets = {n: new_secret() for n in ("Ada", "Bob", "Eve")}
        clients = {n: await signed_in(port, n, s, register=True) for n, s in secrets.items()}
        store = server.store
        ids = {}
        for n in secrets:
            p = store.player_by_key(name_key(n))
            assert p is not None, n
            ids[n] = p.id
        secret = await stored_game(store, [ids["Ada"], ids["Bob"]], [1, 2], private=True)
        public = await stored_game(store, [ids["Ada"], ids["Eve"]], [2, 1])
        anonymous = await WsClient.open(port, "anonymous", (1, 2))
        for who, expected in (
            (clients["Ada"], [public, secret]),
            (clients["Bob"], [public, secret]),
            (clients["Eve"], [public]),
            (anonymous, [public]),
        ):
            games = await who.request("list_games", name="Ada")
            assert games.type == "games", games
            assert [g.table for g in games.games] == expected
            assert games.total == len(expected)
            shown = str(who.raw[-1])
            if secret not in expected:
                assert secret not in shown and "Bob" not in shown
        profile = await clients["Eve"].request("show_profile", name="Ada")
        assert (profile.player.games, profile.player.wins) == (2, 1)
        for c in (*clients.values(), anonymous):
            await c.close()


BAD_CURSORS = (
    "r" + "9" * 31,  # past 2**63
    "a" + "9" * 31,
    "g12",  # an offset of old, or made up
    "zzz",  # not a cursor at all
    "-5",
    "",
)


async def test_any_cursor_is_invalid_field_never_internal(sqlite_url: str) -> None:
    async with stored_server(sqlite_url) as server:
        ada = await signed_in(server.port, "Ada", new_secret(), register=True)
        a_tables = (await ada.request("list_tables", limit=1)).next
        for cursor in BAD_CURSORS:
            for kind, fields in (
                ("list_games", {"name": "Ada"}),
                ("show_leaderboard", {}),
                ("list_tables", {}),
            ):
                answer = await ada.request(kind, cursor=cursor, **fields)
                assert answer.type == "error", (kind, cursor, answer)
                assert answer.code == "invalid_field", (kind, cursor, answer)
        for kind, cursor, fields in (
            ("list_games", "r5", {"name": "Ada"}),  # another listing's
            ("show_leaderboard", "g" + "0" * 14 + "5", {}),
            ("list_tables", "r" + "0" * 14 + "5", {}),
        ):
            answer = await ada.request(kind, cursor=cursor, **fields)
            assert answer.type == "error" and answer.code == "invalid_field", (kind, answer)
        assert a_tables is None
        far = await ada.request("list_games", name="Ada", cursor="g" + "9" * 20)
        assert far.type == "games" and far.games == () and far.next is None, far
        await ada.close()
