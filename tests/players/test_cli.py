"""``kupferkessel ratings``: recompute from a stored SQLite database, and show."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.stored import stored_game
from client.cli import main
from server.players.service import Players
from server.store import open_store
from tests.players.helpers import HISTORY, stored_players


async def _fill(path: Path) -> list[tuple[str, float | None, float | None, int]]:
    store = open_store(path)
    await store.start()
    try:
        Players(store)
        ids = [p.id for p in await stored_players(store, 4)]
        for seats, places, ending in HISTORY:
            await stored_game(store, [ids[p] for p in seats], places, ending=ending)
        return [(p.name, p.mu, p.sigma, p.rated_games) for p in store.rated_players()]
    finally:
        await store.close()


def test_recompute_and_show(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import asyncio

    db = tmp_path / "kk.db"
    before = asyncio.run(_fill(db))
    assert main(["ratings", "recompute", "--store", str(db)]) == 0
    assert "6 rated games counted, 4 rated players" in capsys.readouterr().out
    store = open_store(db, readonly=True)
    try:
        after = [(p.name, p.mu, p.sigma, p.rated_games) for p in store.rated_players()]
    finally:
        store.close_reader()
    assert sorted(after) == sorted(before)
    assert main(["ratings", "show", "--store", str(db), "--top", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("rank") and len(lines) == 3
