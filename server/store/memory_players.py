"""The players' part of the memory store: kept in dicts for as long as the process runs.

Why: a server without a database (``--no-persist``, the tests) still lets players
register, sign in, rate one another and look up their games while it runs; the games
themselves are kept beside (``KeptGames``).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from .devices import NewSecret
from .memory_devices import MemoryDevices
from .memory_games import KeptGames
from .players import GameInfo, Place, PlayerGame, PlayerStore, RatingChange, StoredPlayer

__all__ = ["MemoryPlayers"]


class MemoryPlayers(MemoryDevices, PlayerStore):
    """``PlayerStore`` in dicts."""

    def __init__(self) -> None:
        super().__init__()
        self._players: dict[str, StoredPlayer] = {}  # by id
        self._keys: dict[str, str] = {}  # name key -> id
        self._seats: dict[str, dict[int, str]] = {}  # table id -> seat -> player id
        self._rated: dict[str, int | None] = {}  # table id -> seq
        self._lives: dict[str, dict[str, Any]] = {}  # rated table id -> its game's life
        self._codes: dict[str, tuple[str, float]] = {}  # code hash -> (player id, expiry)
        self._games = KeptGames()
        self._analyses: dict[str, str] = {}  # table id -> its game's analysis (JSON)

    async def add_player(self, player: StoredPlayer, secret: NewSecret | str) -> bool:
        if player.key in self._keys:
            return False
        player.num = len(self._players) + 1
        self._players[player.id] = player
        self._keys[player.key] = player.id
        self._first_secret(player.id, secret, player.created)
        return True

    async def add_device_code(
        self, code_hash: str, player_id: str, expires: float, now: float
    ) -> None:
        self._codes = {
            h: (pid, until)
            for h, (pid, until) in self._codes.items()
            if pid != player_id and until > now
        }
        self._codes[code_hash] = (player_id, expires)

    async def redeem_device_code(self, code_hash: str, now: float) -> str | None:
        found = self._codes.pop(code_hash, None)  # one event loop: none can come between
        return found[0] if found is not None and found[1] > now else None

    def player_by_key(self, key: str) -> StoredPlayer | None:
        pid = self._keys.get(key)
        return None if pid is None else self._players[pid]

    def player_names(self) -> list[tuple[str, str, str]]:
        players = sorted(self._players.values(), key=lambda p: (p.created, p.id))
        return [(p.id, p.key, p.name) for p in players]

    async def set_player_keys(self, keys: dict[str, str]) -> None:
        for pid in keys:
            self._keys.pop(self._players[pid].key, None)
        for pid, key in keys.items():
            self._players[pid] = dataclasses.replace(self._players[pid], key=key)
            self._keys[key] = pid

    def player_by_id(self, player_id: str) -> StoredPlayer | None:
        return self._players.get(player_id)

    def seat_players(self, table_id: str) -> dict[int, str]:
        return dict(self._seats.get(table_id, {}))

    def is_rated(self, table_id: str) -> bool:
        return table_id in self._rated

    def keep_life(self, table_id: str, life: dict[str, Any] | None) -> None:
        """A rated game's life, kept while the process runs (``game_life``)."""
        if life is not None and table_id in self._rated:
            self._lives[table_id] = life

    def game_life(self, table_id: str) -> dict[str, Any] | None:
        return self._lives.get(table_id)

    def load_analysis(self, table_id: str) -> str | None:
        return self._analyses.get(table_id)

    async def save_analysis(self, table_id: str, budget: int, analysis: str, at: float) -> None:
        self._analyses.setdefault(table_id, analysis)

    def rating_changes(self, table_id: str) -> list[RatingChange]:
        changes = self._games.changes
        return [c for seat in range(3) if (c := changes.get((table_id, seat))) is not None]

    async def save_ratings(self, table_id: str, seq: int, changes: list[RatingChange]) -> None:
        self._rated[table_id] = seq
        for c in changes:
            self._games.changes[(table_id, c.seat)] = c
            p = self._players[c.player_id]
            p.mu, p.sigma = c.after
            p.rated_games += 1

    def rating_seq(self) -> int:
        return max((s for s in self._rated.values() if s is not None), default=0)

    def rated_order(self) -> list[tuple[str, dict[str, Any]]]:
        return self._games.rated_order(self._rated)

    async def reset_ratings(self) -> None:
        for p in self._players.values():
            p.mu = p.sigma = None
            p.rated_games = 0
        self._games.changes.clear()
        self._rated = dict.fromkeys(self._rated)

    def rated_players(self) -> list[StoredPlayer]:
        return [p for p in self._players.values() if p.rated_games > 0]

    def rated_page(self, after: int | None, limit: int) -> list[StoredPlayer]:
        board = sorted(self.rated_players(), key=lambda p: (-_shown(p), p.key))
        start = (
            0 if after is None else next((i for i, p in enumerate(board) if p.num == after), None)
        )
        return [] if start is None else board[start : start + limit]

    def rated_count(self) -> int:
        return len(self.rated_players())

    def game_info(self, table_id: str) -> GameInfo | None:
        return self._games.info(table_id, self.seat_players(table_id), self.is_rated(table_id))

    def _game(self, player_id: str, table_id: str, seat: int, place: Place) -> PlayerGame:
        info = self.game_info(table_id)
        assert info is not None  # a history row's table is kept
        return PlayerGame(info, seat, self._games.changes.get((table_id, seat)), place)

    def history_page(
        self, player_id: str, viewer_id: str | None, before: Place | None, limit: int
    ) -> list[PlayerGame]:
        rows = self._games.page(player_id, viewer_id, before, limit, self.seat_players)
        return [self._game(player_id, r.table_id, r.seat, r.place) for r in rows]

    def shared_private(self, player_id: str, viewer_id: str) -> int:
        return self._games.shared.get((player_id, viewer_id), 0)

    def history(self, player_id: str) -> list[PlayerGame]:
        return [
            self._game(player_id, r.table_id, r.seat, r.place)
            for r in self._games.rows.get(player_id, [])
        ]


def _shown(p: StoredPlayer) -> float:
    """The rating shown (``mu - 3 * sigma``), as the SQL stores order by it."""
    return (p.mu or 0.0) - 3 * (p.sigma or 0.0)
