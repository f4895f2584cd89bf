"""Persistence: the store, restart and restore, bot seats after a restart, the sweep of
finished tables, and ``kupferkessel export``. Real servers in this process on loopback,
real websockets clients (``wsclient``), a real database: the tests taking ``store_url``
run once on a SQLite file in a temp dir and once on a fresh PostgreSQL database."""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sqlite3
from pathlib import Path
from typing import Any

import psycopg
import pytest

from client.cli import main as cli_main
from server.app import Server
from server.commands.configfile import ConfigError
from server.commands.export import PUBLIC_FORMAT, export_game, public_record
from server.commands.serve import add_arguments, store_from_args
from server.core.table import hash_token
from server.store import MemoryStore, SqliteStore, open_store
from server.store.postgres import PostgresStore
from shared.cards import CARD_IDS, RECIPES
from shared.errors import RecordError
from shared.game import Take
from shared.options import Options
from shared.record import Record
from shared.scoring import score_game

from ..helpers.games import game_db as _game_db
from ..helpers.games import running_record as _running_record
from ..helpers.games import store_with_game
from .wsclient import WsClient, create, human_table, play_seat, random_take, serving


def stored(db: str | Path, table: str) -> tuple[Record, bool]:
    store = open_store(db, readonly=True)
    try:
        found = store.load_record(table)
    finally:
        store.close_reader()
    assert found is not None
    return found


def final_facts(view: Any) -> tuple[list[int], list[list[str]]]:
    """Totals and full kettles of a final view model."""
    return [s.total for s in view.scores], [list(k.cards) for k in view.kettles]


async def play_takes(clients: list[WsClient], n: int, rng: random.Random) -> int:
    """Make ``n`` takes in turn order (each by the seat to move); the state version after."""
    for _ in range(n):
        await clients[0].wait_until(lambda: clients[0].latest_view() is not None)
        vm = clients[0].latest_view()
        if vm.view.game_over:
            break
        seat = vm.view.to_move
        fields = random_take(vm.view, rng)
        fields["state_version"] = vm.state_version
        ack = await clients[seat].request("take", **fields)
        assert ack.type == "ack", ack
        await clients[0].wait_until(
            lambda v=ack.state_version: clients[0].latest_view().state_version >= v
        )
    version: int = clients[0].latest_view().state_version
    return version


def replay_facts(record: Record) -> tuple[list[int], list[list[str]]]:
    game = record.replay()
    assert game.over
    return [s.total for s in score_game(game).scores], [
        game.kettle_ids(s) for s in range(game.players)
    ]


# ---------------------------------------------------------------------- the store
async def test_group_commit_shares_commits_and_keeps_order(store_url: str) -> None:
    record = Record.new(Options(seed=7))
    store = await store_with_game(store_url, record)
    game = record.start()
    takes = []
    while not game.over:
        take = game.legal_actions()[0]
        game.apply(take)
        takes.append(take)
    before = store.stats()
    # every append in flight at once, as under load: they share commits
    await asyncio.gather(*(store.append_action("t1", i, t) for i, t in enumerate(takes)))
    after = store.stats()
    await store.close()
    writes = after["writes"] - before["writes"]
    commits = after["commits"] - before["commits"]
    assert writes == len(takes)
    assert commits < writes
    back, finished = stored(store_url, "t1")
    assert back.actions == takes and not finished
    assert back.replay().over


async def test_a_bad_write_fails_only_its_own_caller(store_url: str) -> None:
    store = await store_with_game(store_url, Record.new(Options(seed=3)))
    await store.append_action("t1", 0, Take("x-1"))
    results = await asyncio.gather(
        store.append_action("t1", 1, Take("x-2")),
        store.append_action("t1", 0, Take("dup-1")),  # index 0 exists: refused
        store.append_action("t1", 2, Take("x-3")),
        return_exceptions=True,
    )
    await store.close()
    assert results[0] is None and results[2] is None
    assert isinstance(results[1], sqlite3.IntegrityError | psycopg.errors.UniqueViolation)
    assert store.stats()["failed"] == 1
    back, _ = stored(store_url, "t1")
    assert [a.card for a in back.actions] == ["x-1", "x-2", "x-3"]


async def test_a_write_cancelled_before_it_runs_does_not_kill_the_writer(store_url: str) -> None:
    """Callers cancelled while their writes wait: the others' writes land in order, no
    write fails, and the writer keeps working."""
    store = open_store(store_url)
    await store.start()
    async with asyncio.timeout(20):
        await store.create_table("t1", "t", Options(), False, None)
        tasks = [
            asyncio.create_task(store.set_seat("t1", 0, f"n{i}", None, None)) for i in range(50)
        ]
        await asyncio.sleep(0)
        for t in tasks[::2]:
            t.cancel()
        results = await asyncio.gather(*tasks, return_exceptions=True)
        await store.set_seat("t1", 1, "after", None, None)  # the writer still works
        seats = store.load_open_tables()[0].seats
        await store.close()
    assert all(r is None for r in results[1::2])  # the callers not cancelled: written
    assert all(r is None or isinstance(r, asyncio.CancelledError) for r in results[::2])
    assert store.stats()["failed"] == 0
    # the last write to seat 0 was not cancelled
    assert [(s.seat, s.name) for s in seats] == [(0, "n49"), (1, "after")]


def test_serve_flags_choose_the_store(tmp_path: Path) -> None:
    p = argparse.ArgumentParser()
    add_arguments(p)
    assert isinstance(store_from_args(p.parse_args(["--no-persist"])), MemoryStore)
    chosen = store_from_args(p.parse_args(["--db", str(tmp_path / "x.db")]))
    assert isinstance(chosen, SqliteStore) and chosen.path == str(tmp_path / "x.db")
    default = store_from_args(p.parse_args([]))
    assert isinstance(default, SqliteStore) and default.path.endswith("server.db")
    url = "postgresql://kk@127.0.0.1:5999/games"
    pg = store_from_args(p.parse_args(["--store", url]))
    assert isinstance(pg, PostgresStore) and pg.dsn == url
    with pytest.raises(ConfigError, match="name two databases"):  # never a silent choice
        store_from_args(p.parse_args(["--store", url, "--db", str(tmp_path / "x.db")]))
    path = store_from_args(p.parse_args(["--store", str(tmp_path / "y.db")]))
    assert isinstance(path, SqliteStore) and path.path == str(tmp_path / "y.db")


# ---------------------------------------------------------------------- restart
async def test_tokens_are_stored_only_as_hashes(store_url: str, tmp_path: Path) -> None:
    async with serving(store_url) as server:
        table, clients, tokens = await human_table(server.port)
        for c in clients:
            await c.close()
    store = open_store(store_url, readonly=True)
    try:
        (stored_table,) = store.load_open_tables()
        everything = store._read(
            lambda con: [
                row
                for name in ("tables", "seats", "games", "actions")
                for row in con.execute(f"SELECT * FROM {name}").fetchall()
            ]
        )
    finally:
        store.close_reader()
    assert stored_table.id == table
    assert {s.token_hash for s in stored_table.seats} == {hash_token(t) for t in tokens}
    text = repr(everything)
    assert not any(t in text for t in tokens)
    if not store_url.startswith("postgresql"):  # nor anywhere in the files
        raw = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.is_file())
        assert not any(t.encode() in raw for t in tokens)


async def test_players_resume_after_a_restart_and_finish(store_url: str) -> None:
    db = store_url
    rng = random.Random(11)
    async with serving(db) as server:
        table, clients, tokens = await human_table(server.port, recipes=True)
        before = await play_takes(clients, 8, rng)
        for c in clients:
            await c.close()
    assert len(stored(db, table)[0].actions) == before
    async with serving(db) as server:
        assert server.lobby.get(table).version == before
        clients = [await WsClient.open(server.port, f"p{i}") for i in range(2)]
        for i, (c, tok) in enumerate(zip(clients, tokens, strict=True)):
            resumed = await c.request("resume", token=tok)
            assert (resumed.type, resumed.table, resumed.seat) == ("resumed", table, i)
            v = await c.wait_type("view")
            assert v.state_version == before
        finals = await asyncio.gather(*(play_seat(c, i, rng) for i, c in enumerate(clients)))
        for c in clients:
            await c.close()
    record, finished = stored(db, table)
    assert finished
    assert final_facts(finals[0].view) == replay_facts(record)


async def test_bot_seats_keep_playing_after_a_restart(store_url: str) -> None:
    db = store_url
    rng = random.Random(5)
    async with serving(db, bot_think=0.01) as server:
        c = await WsClient.open(server.port, "human")
        table, _, token = await create(c, bots=[{"seat": 1, "level": "easy"}])
        await c.send("ready")
        await play_seat(c, 0, rng, max_takes=3)
        await c.close()
    async with serving(db, bot_think=0.01) as server:
        c = await WsClient.open(server.port, "human")
        resumed = await c.request("resume", token=token)
        assert resumed.type == "resumed"
        final = await play_seat(c, 0, rng)  # only ends if the bot keeps moving
        await c.close()
    record, finished = stored(db, table)
    assert finished
    assert {e["seat"] for e in _events(record) if e["kind"] == "took"} == {0, 1}
    assert final_facts(final.view) == replay_facts(record)


def _events(record: Record) -> list[dict[str, Any]]:
    events: list[Any] = []
    record.replay(events=events)
    return [e.to_dict() for e in events]


async def _bots_game(server: Server) -> str:
    c = await WsClient.open(server.port, "creator")
    table, _, _ = await create(
        c, player=None, bots=[{"seat": 0, "level": "easy"}, {"seat": 1, "level": "easy"}]
    )
    async with asyncio.timeout(30):
        while server.lobby.get(table).state != "finished":
            await asyncio.sleep(0.02)
    await c.close()
    return table


async def test_finished_tables_are_swept_but_stay_queryable(tmp_path: Path) -> None:
    db = tmp_path / "kk.db"
    async with serving(db, bot_think=0.01, finished_ttl=60) as server:
        table = await _bots_game(server)
        finished_at = server.lobby.get(table).finished_at
        assert finished_at is not None
        assert server.lobby.sweep(now=finished_at + 30) == 0
        assert server.lobby.sweep(now=finished_at + 61) == 1
        assert table not in server.lobby.tables
        record, finished = server.store.load_record(table) or (None, False)
        assert finished and record is not None and record.replay().over


async def test_a_restart_brings_back_recently_finished_games_only(store_url: str) -> None:
    db = store_url
    async with serving(db, bot_think=0.01) as server:
        table = await _bots_game(server)
    async with serving(db, bot_think=0.01) as server:
        t = server.lobby.get(table)
        assert t.state == "finished" and t.game is not None and t.game.over
    async with serving(db, bot_think=0.01, finished_ttl=0) as server:
        assert table not in server.lobby.tables


# ---------------------------------------------------------------------- export
def _keys(x: Any) -> set[str]:
    if isinstance(x, dict):
        return set(x) | {k for v in x.values() for k in _keys(v)}
    if isinstance(x, list):
        return {k for v in x for k in _keys(v)}
    return set()


def test_the_public_record_of_a_running_game_has_no_secret() -> None:
    record = _running_record()
    game = record.replay()
    pub = public_record(record)
    text = json.dumps(pub)
    assert pub["format"] == PUBLIC_FORMAT and pub["public"] is True
    assert {"setup", "deck", "seed"}.isdisjoint(_keys(pub))
    for recipe in RECIPES:
        assert f'"{recipe}"' not in text, recipe
    deck = [CARD_IDS[c] for c in reversed(game.deck)]  # what is left of it, top first
    top = json.dumps(deck[:3])[1:-1]
    assert top not in text  # the deck order is nowhere
    for k in pub["position"]["kettles"]:
        assert k["cards"] is None  # no kettle below its top
    assert pub["actions"] == record.to_dict()["actions"]
    with pytest.raises(RecordError):
        Record.from_dict(pub)  # clearly not a replayable record


async def test_export_cli_finished_running_full_and_list(
    store_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, gid, record = await _game_db(store_url, finish=False)
    out = tmp_path / "out.json"
    assert cli_main(["export", gid, "--store", db, "-o", str(out)]) == 0
    pub = json.loads(out.read_text())
    assert pub["format"] == PUBLIC_FORMAT and "setup" not in pub
    assert cli_main(["export", gid, "--store", db, "--full", "-o", str(out)]) == 0
    full = Record.loads(out.read_text())
    assert full.replay() == record.replay() and not full.replay().over
    assert cli_main(["export", "--list", "--store", db]) == 0
    listing = capsys.readouterr().out.splitlines()
    assert listing[1].split("\t")[:3] == [gid, "running", str(len(record.actions))]
    assert cli_main(["export", "nope", "--store", db]) == 1
    assert cli_main(["export", gid, "--db", str(tmp_path / "missing.db")]) == 1
    assert cli_main(["export", gid, "--store", "postgresql://kk@127.0.0.1:1/none"]) == 1
    assert cli_main(["export", "--store", db]) == 2
    if not db.startswith("postgresql"):  # --db is the same as --store for a file
        assert cli_main(["export", gid, "--db", db, "-o", str(out)]) == 0
        assert json.loads(out.read_text()) == pub


async def test_export_of_a_finished_game_is_the_whole_replayable_record(store_url: str) -> None:
    db, gid, record = await _game_db(store_url, finish=True)
    store = open_store(db, readonly=True)
    doc = export_game(store, gid)
    store.close_reader()
    back = Record.from_dict(doc)
    assert back.replay().over and back.actions == record.actions
    assert doc["setup"]["deck"] is not None  # the whole record: the deal included
    assert "seed" not in doc["options"]


async def test_export_reads_while_a_server_writes(store_url: str) -> None:
    db = store_url
    rng = random.Random(2)
    async with serving(db) as server:
        table, clients, _ = await human_table(server.port)
        await play_takes(clients, 5, rng)
        store = open_store(db, readonly=True)
        doc = export_game(store, table)
        games = store.list_games()
        store.close_reader()
        assert doc["format"] == PUBLIC_FORMAT
        assert [g.table_id for g in games] == [table] and games[0].finished is None
        for c in clients:
            await c.close()
