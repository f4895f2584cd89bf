"""Persistence: the SQLite store, restart and restore, bot seats after a restart, the
sweep of finished tables, and ``kupferkessel export``. Real servers in this process on
loopback, real websockets clients (``wsclient``), a real database in a temp dir."""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from client.cli import main as cli_main
from server.app import Server
from server.export import PUBLIC_FORMAT, export_game, public_record
from server.main import add_arguments, store_from_args
from server.store import MemoryStore, SqliteStore
from server.table import hash_token
from shared.cards import CARD_IDS, RECIPES
from shared.errors import RecordError
from shared.game import Take
from shared.options import Options
from shared.record import Record
from shared.scoring import score_game

from .wsclient import WsClient, create, human_table, play_seat, random_take, serving


def stored(db: Path, table: str) -> tuple[Record, bool]:
    store = SqliteStore(db, readonly=True)
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
async def store_with_game(db: Path, record: Record, table: str = "t1") -> SqliteStore:
    """A started store holding table ``table`` whose game has begun (no actions yet)."""
    store = SqliteStore(db)
    await store.start()
    await store.create_table(table, "export me", record.options, False, None)
    await store.start_game(table, Record(record.options, record.setup, []))
    return store


async def test_group_commit_shares_commits_and_keeps_order(tmp_path: Path) -> None:
    record = Record.new(Options(seed=7))
    store = await store_with_game(tmp_path / "kk.db", record)
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
    back, finished = stored(tmp_path / "kk.db", "t1")
    assert back.actions == takes and not finished
    assert back.replay().over


async def test_a_bad_write_fails_only_its_own_caller(tmp_path: Path) -> None:
    store = await store_with_game(tmp_path / "kk.db", Record.new(Options(seed=3)))
    await store.append_action("t1", 0, Take("x-1"))
    results = await asyncio.gather(
        store.append_action("t1", 1, Take("x-2")),
        store.append_action("t1", 0, Take("dup-1")),  # index 0 exists: refused
        store.append_action("t1", 2, Take("x-3")),
        return_exceptions=True,
    )
    await store.close()
    assert results[0] is None and results[2] is None
    assert isinstance(results[1], sqlite3.IntegrityError)
    assert store.stats()["failed"] == 1
    con = sqlite3.connect(tmp_path / "kk.db")
    rows = con.execute("SELECT idx, action FROM actions ORDER BY idx").fetchall()
    con.close()
    assert [(i, json.loads(a)["take"]) for i, a in rows] == [(0, "x-1"), (1, "x-2"), (2, "x-3")]


async def test_a_write_cancelled_before_it_runs_does_not_kill_the_writer(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "kk.db")
    await store.start()
    await store.create_table("t1", "t", Options(), False, None)
    tasks = [asyncio.create_task(store.set_seat("t1", 0, f"n{i}", None, None)) for i in range(50)]
    await asyncio.sleep(0)
    for t in tasks[::2]:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await store.set_seat("t1", 1, "after", None, None)  # the writer thread still works
    await store.close()


def test_serve_flags_choose_the_store(tmp_path: Path) -> None:
    p = argparse.ArgumentParser()
    add_arguments(p)
    assert isinstance(store_from_args(p.parse_args(["--no-persist"])), MemoryStore)
    chosen = store_from_args(p.parse_args(["--db", str(tmp_path / "x.db")]))
    assert isinstance(chosen, SqliteStore) and chosen.path == str(tmp_path / "x.db")
    default = store_from_args(p.parse_args([]))
    assert isinstance(default, SqliteStore) and default.path.endswith("server.db")


# ---------------------------------------------------------------------- restart
async def test_tokens_are_stored_only_as_hashes(tmp_path: Path) -> None:
    db = tmp_path / "kk.db"
    async with serving(db) as server:
        table, clients, tokens = await human_table(server.port)
        for c in clients:
            await c.close()
    con = sqlite3.connect(db)
    hashes = {
        h for (h,) in con.execute("SELECT token_hash FROM seats WHERE table_id = ?", (table,))
    }
    con.close()
    assert hashes == {hash_token(t) for t in tokens}
    raw = b"".join(p.read_bytes() for p in tmp_path.iterdir())
    assert not any(t.encode() in raw for t in tokens)


async def test_players_resume_after_a_restart_and_finish(tmp_path: Path) -> None:
    db = tmp_path / "kk.db"
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


async def test_bot_seats_keep_playing_after_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "kk.db"
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


async def test_a_restart_brings_back_recently_finished_games_only(tmp_path: Path) -> None:
    db = tmp_path / "kk.db"
    async with serving(db, bot_think=0.01) as server:
        table = await _bots_game(server)
    async with serving(db, bot_think=0.01) as server:
        t = server.lobby.get(table)
        assert t.state == "finished" and t.game is not None and t.game.over
    async with serving(db, bot_think=0.01, finished_ttl=0) as server:
        assert table not in server.lobby.tables


# ---------------------------------------------------------------------- export
def _running_record(recipes: bool = True, takes: int = 6) -> Record:
    record = Record.new(Options(seed=99, recipes=recipes))
    game = record.start()
    rng = random.Random(1)
    for _ in range(takes):
        take = rng.choice(game.legal_actions())
        game.apply(take)
        record.actions.append(take)
    return record


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


async def _game_db(tmp_path: Path, *, finish: bool) -> tuple[Path, str, Record]:
    db = tmp_path / "kk.db"
    record = _running_record()
    game = record.replay()
    if finish:
        while not game.over:
            take = game.legal_actions()[0]
            game.apply(take)
            record.actions.append(take)
    store = await store_with_game(db, record, "g1")
    for i, take in enumerate(record.actions):
        await store.append_action("g1", i, take)
    if finish:
        await store.finish("g1", {"winners": [0], "totals": [0, 0]})
    await store.close()
    return db, "g1", record


async def test_export_cli_finished_running_full_and_list(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, gid, record = await _game_db(tmp_path, finish=False)
    out = tmp_path / "out.json"
    assert cli_main(["export", gid, "--db", str(db), "-o", str(out)]) == 0
    pub = json.loads(out.read_text())
    assert pub["format"] == PUBLIC_FORMAT and "setup" not in pub
    assert cli_main(["export", gid, "--db", str(db), "--full", "-o", str(out)]) == 0
    full = Record.loads(out.read_text())
    assert full.replay() == record.replay() and not full.replay().over
    assert cli_main(["export", "--list", "--db", str(db)]) == 0
    listing = capsys.readouterr().out.splitlines()
    assert listing[1].split("\t")[:3] == [gid, "running", str(len(record.actions))]
    assert cli_main(["export", "nope", "--db", str(db)]) == 1
    assert cli_main(["export", gid, "--db", str(tmp_path / "missing.db")]) == 1
    assert cli_main(["export", "--db", str(db)]) == 2


async def test_export_of_a_finished_game_is_the_whole_replayable_record(tmp_path: Path) -> None:
    db, gid, record = await _game_db(tmp_path, finish=True)
    store = SqliteStore(db, readonly=True)
    doc = export_game(store, gid)
    store.close_reader()
    back = Record.from_dict(doc)
    assert back.replay().over and back.actions == record.actions
    assert doc["setup"]["deck"] is not None  # the whole record: the deal included
    assert "seed" not in doc["options"]


async def test_export_reads_while_a_server_writes(tmp_path: Path) -> None:
    db = tmp_path / "kk.db"
    rng = random.Random(2)
    async with serving(db) as server:
        table, clients, _ = await human_table(server.port)
        await play_takes(clients, 5, rng)
        store = SqliteStore(db, readonly=True)
        doc = export_game(store, table)
        games = store.list_games()
        store.close_reader()
        assert doc["format"] == PUBLIC_FORMAT
        assert [g.table_id for g in games] == [table] and games[0].finished is None
        for c in clients:
            await c.close()
