"""The leak oracle over 1.2 connections: random games in which seats may be registered
players (signed in, rated tables when every seat is one, coming back by ``sign_in`` and
``rejoin``), beside 1.0 and 1.1 seats and spectators. Every frame is checked as the
oracle checks it (``tests/helpers/leak_oracle.py``: nothing of another seat's hidden
cards, the seed or a token), and no player's secret is in any frame, any record the
server logs, or the database file."""

from __future__ import annotations

import asyncio
import logging
import random
from pathlib import Path

import pytest

from tests.helpers.leak_oracle import check_game, play_one

from .helpers import stored_server

GAMES = 24


@pytest.mark.long
async def test_leak_oracle_with_players(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    db = tmp_path / "kk.db"
    rng = random.Random(20261201)
    secrets: list[str] = []
    frames = rated = 0
    async with stored_server(str(db), rated_allow=frozenset({"seeds", "casual"})) as server:
        sem = asyncio.Semaphore(6)

        async def one(seed: float) -> None:
            nonlocal frames, rated
            async with sem:
                played = await play_one(server.port, random.Random(seed), players=True)
            frames += check_game(played)
            secrets.extend(played.secrets)

        await asyncio.gather(*(one(rng.random()) for _ in range(GAMES)))
        rated = len(server.players.leaderboard())
    assert len(secrets) > GAMES // 2 and rated > 0 and frames > GAMES * 20
    data = db.read_bytes() + b"".join(p.read_bytes() for p in tmp_path.glob("kk.db-*"))
    # what the server logs (``setup_logging``): its own records at every level, the
    # libraries' from warning up (their debug records show the frames clients send)
    ours = [r for r in caplog.records if r.name.startswith("kupferkessel") or r.levelno >= 30]
    assert any(r.getMessage() == "player registered" for r in ours)
    logged = "\n".join(f"{r.getMessage()} {r.__dict__}" for r in ours)
    for secret in secrets:
        assert secret.encode() not in data, "a secret in the database"
        assert secret not in logged, "a secret in the logs"
