"""The players' part of the SQL stores (``PlayerStore`` in SQLite and PostgreSQL).

Why: the SQL store's module holds the tables' part; this one holds the players' with
the same writer (group commit, durable before it returns) and the same reader.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from .devices import NewSecret
from .players import GameInfo, Place, PlayerGame, PlayerStore, RatingChange, StoredPlayer, won
from .sql_devices import SqlDevices
from .writer import Op

__all__ = ["SqlPlayers"]


def _player(row: tuple[Any, ...] | None) -> StoredPlayer | None:
    if row is None:
        return None
    pid, key, name, created, mu, sigma, rated, games, wins, public, num = row
    return StoredPlayer(
        pid, key, name, created, mu, sigma, int(rated), int(games), int(wins), int(public), int(num)
    )


def _shared(con: Any, player_id: str, viewer_id: str) -> int:
    """How many private games the two played together (``shared_private``'s counter)."""
    row = con.execute(
        "SELECT games FROM shared_private WHERE player_id = ? AND other_id = ?",
        (player_id, viewer_id),
    ).fetchone()
    return 0 if row is None else int(row[0])


class SqlPlayers(SqlDevices, PlayerStore):
    """``PlayerStore`` on the SQL store's writer and reader."""

    NUM = "rowid"
    """The column numbering players (``StoredPlayer.num``): SQLite's own row id; a
    PostgreSQL identity column (migration 12)."""

    @property
    def _columns(self) -> str:
        return (
            "id, name_key, name, created, mu, sigma, rated_games, games, wins, public_games,"
            f" {self.NUM}"
        )

    async def add_player(self, player: StoredPlayer, secret: NewSecret | str) -> bool:
        p = player
        await self._write(
            "",
            (
                "INSERT INTO players (id, name_key, name, created, rated_games)"
                " VALUES (?, ?, ?, ?, 0) ON CONFLICT (name_key) DO NOTHING",
                (p.id, p.key, p.name, p.created),
            ),
            self._first_secret(p.id, secret, p.created),
        )
        row = self._read(  # whose the key is now: this player's, or another's before it
            lambda con: con.execute(
                "SELECT id FROM players WHERE name_key = ?", (p.key,)
            ).fetchone()
        )
        return row is not None and row[0] == p.id

    async def add_device_code(
        self, code_hash: str, player_id: str, expires: float, now: float
    ) -> None:
        await self._write(
            "",
            (
                "DELETE FROM device_codes WHERE player_id = ? OR expires <= ?",
                (player_id, now),
            ),
            (
                "INSERT INTO device_codes (code_hash, player_id, expires) VALUES (?, ?, ?)",
                (code_hash, player_id, expires),
            ),
        )

    async def redeem_device_code(self, code_hash: str, now: float) -> str | None:
        row = await asyncio.to_thread(
            self._write_returning,
            "DELETE FROM device_codes WHERE code_hash = ? RETURNING player_id, expires",
            (code_hash,),
        )  # a used code goes, expired or not; only one redeeming it finds its row
        return str(row[0]) if row is not None and float(row[1]) > now else None

    def player_by_key(self, key: str) -> StoredPlayer | None:
        return _player(
            self._read(
                lambda con: con.execute(
                    f"SELECT {self._columns} FROM players WHERE name_key = ?", (key,)
                ).fetchone()
            )
        )

    def player_names(self) -> list[tuple[str, str, str]]:
        rows = self._read(
            lambda con: con.execute(
                "SELECT id, name_key, name FROM players ORDER BY created, id"
            ).fetchall()
        )
        return [(str(r[0]), str(r[1]), str(r[2])) for r in rows]

    async def set_player_keys(self, keys: dict[str, str]) -> None:
        set_key = "UPDATE players SET name_key = ? WHERE id = ?"
        await self._write(  # first out of one another's way (keys are unique), then home
            "",
            *[(set_key, (f" moving {pid}", pid)) for pid in keys],
            *[(set_key, (key, pid)) for pid, key in keys.items()],
        )

    def player_by_id(self, player_id: str) -> StoredPlayer | None:
        return _player(
            self._read(
                lambda con: con.execute(
                    f"SELECT {self._columns} FROM players WHERE id = ?", (player_id,)
                ).fetchone()
            )
        )

    def seat_players(self, table_id: str) -> dict[int, str]:
        rows = self._read(
            lambda con: con.execute(
                "SELECT seat, player_id FROM player_seats WHERE table_id = ?", (table_id,)
            ).fetchall()
        )
        return {int(seat): pid for seat, pid in rows}

    def is_rated(self, table_id: str) -> bool:
        row = self._read(
            lambda con: con.execute(
                "SELECT 1 FROM rated_tables WHERE table_id = ?", (table_id,)
            ).fetchone()
        )
        return row is not None

    def game_life(self, table_id: str) -> dict[str, Any] | None:
        row = self._read(
            lambda con: con.execute(
                "SELECT life FROM games WHERE table_id = ?", (table_id,)
            ).fetchone()
        )
        life = json.loads(row[0]) if row is not None and row[0] else None
        return life if isinstance(life, dict) else None

    def load_analysis(self, table_id: str) -> str | None:
        row = self._read(
            lambda con: con.execute(
                "SELECT analysis FROM analyses WHERE table_id = ?", (table_id,)
            ).fetchone()
        )
        return None if row is None else str(row[0])

    async def save_analysis(self, table_id: str, budget: int, analysis: str, at: float) -> None:
        await self._write(
            "",
            (
                "INSERT INTO analyses (table_id, budget, analysis, made) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (table_id) DO NOTHING",
                (table_id, budget, analysis, at),
            ),
        )

    def rating_changes(self, table_id: str) -> list[RatingChange]:
        rows = self._read(
            lambda con: con.execute(
                "SELECT seat, player_id, mu_before, sigma_before, mu, sigma"
                " FROM rating_changes WHERE table_id = ? ORDER BY seat",
                (table_id,),
            ).fetchall()
        )
        return [
            RatingChange(int(seat), pid, None if mu0 is None else (mu0, sigma0), (mu, sigma))
            for seat, pid, mu0, sigma0, mu, sigma in rows
        ]

    async def save_ratings(self, table_id: str, seq: int, changes: list[RatingChange]) -> None:
        ops: list[Op] = [("UPDATE rated_tables SET seq = ? WHERE table_id = ?", (seq, table_id))]
        for c in changes:
            mu0, sigma0 = c.before if c.before is not None else (None, None)
            ops.append(
                (
                    "UPDATE players SET mu = ?, sigma = ?, rated_games = rated_games + 1"
                    " WHERE id = ?",
                    (c.after[0], c.after[1], c.player_id),
                )
            )
            ops.append(
                (
                    "INSERT INTO rating_changes (table_id, seat, player_id, mu_before,"
                    " sigma_before, mu, sigma) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (table_id, c.seat, c.player_id, mu0, sigma0, c.after[0], c.after[1]),
                )
            )
        await self._write("", *ops)

    def rating_seq(self) -> int:
        row = self._read(lambda con: con.execute("SELECT MAX(seq) FROM rated_tables").fetchone())
        return int(row[0] or 0)

    def rated_order(self) -> list[tuple[str, dict[str, Any]]]:
        rows = self._read(
            lambda con: con.execute(
                "SELECT r.table_id, g.result FROM rated_tables r"
                " JOIN games g ON g.table_id = r.table_id"
                " WHERE g.finished IS NOT NULL AND g.result IS NOT NULL"
                " ORDER BY r.seq IS NULL, r.seq, g.finished, r.table_id"
            ).fetchall()
        )
        return [(t, json.loads(result)) for t, result in rows]

    async def reset_ratings(self) -> None:
        await self._write(
            "",
            ("UPDATE players SET mu = NULL, sigma = NULL, rated_games = 0", ()),
            ("DELETE FROM rating_changes", ()),
            ("UPDATE rated_tables SET seq = NULL", ()),
        )

    def rated_players(self) -> list[StoredPlayer]:
        rows = self._read(
            lambda con: con.execute(
                f"SELECT {self._columns} FROM players WHERE rated_games > 0"
            ).fetchall()
        )
        return [p for p in map(_player, rows) if p is not None]

    _SHOWN = "mu - 3 * sigma"
    """The rating shown, as the leaderboard's index (migration 9) has it."""

    def rated_page(self, after: int | None, limit: int) -> list[StoredPlayer]:
        board = f"SELECT {self._columns} FROM players WHERE rated_games > 0"
        key = "name_key COLLATE BINARY"

        def read(con: Any) -> list[Any]:
            if after is None:
                return list(
                    con.execute(
                        f"{board} ORDER BY {self._SHOWN} DESC, {key} LIMIT ?", (limit,)
                    ).fetchall()
                )
            place = con.execute(
                f"SELECT {self._SHOWN}, name_key FROM players"
                f" WHERE {self.NUM} = ? AND rated_games > 0",
                (after,),
            ).fetchone()
            if place is None:
                return []
            rows = con.execute(  # its equals from it on, then those below: by the index
                f"{board} AND {self._SHOWN} = ? AND {key} >= ? ORDER BY {key} LIMIT ?",
                (place[0], place[1], limit),
            ).fetchall()
            if len(rows) < limit:
                rows += con.execute(
                    f"{board} AND {self._SHOWN} < ? ORDER BY {self._SHOWN} DESC, {key} LIMIT ?",
                    (place[0], limit - len(rows)),
                ).fetchall()
            return list(rows)

        return [p for p in map(_player, self._read(read)) if p is not None]

    def rated_count(self) -> int:
        sql = "SELECT COUNT(*) FROM players WHERE rated_games > 0"
        row = self._read(lambda con: con.execute(sql).fetchone())
        return int(row[0])

    def _info(self, con: Any, table_id: str) -> GameInfo | None:
        row = con.execute(
            "SELECT t.name, t.private, g.finished, g.result,"
            " (SELECT 1 FROM rated_tables r WHERE r.table_id = t.id)"
            " FROM tables t LEFT JOIN games g ON g.table_id = t.id WHERE t.id = ?",
            (table_id,),
        ).fetchone()
        if row is None:
            return None
        name, private, finished, result, rated = row
        seats = con.execute(
            "SELECT seat, name FROM seats WHERE table_id = ? ORDER BY seat", (table_id,)
        ).fetchall()
        result_dict = json.loads(result) if result else None
        count = len(result_dict.get("places", ())) if isinstance(result_dict, dict) else 0
        size = count or (1 + max(s for s, _ in seats) if seats else 0)
        names: list[str | None] = [None] * size
        for seat, seat_name in seats:
            names[seat] = seat_name
        links = con.execute(
            "SELECT seat, player_id FROM player_seats WHERE table_id = ?", (table_id,)
        ).fetchall()
        return GameInfo(
            table_id,
            name,
            bool(private),
            names,
            rated is not None,
            finished,
            result_dict,
            {int(s): p for s, p in links},
        )

    def game_info(self, table_id: str) -> GameInfo | None:
        info: GameInfo | None = self._read(lambda con: self._info(con, table_id))
        return info

    def _game(self, con: Any, player_id: str, row: tuple[Any, ...]) -> PlayerGame | None:
        """The history row ``(finished, n, table_id, seat)`` as a game of the player."""
        finished, n, table_id, seat = row
        info = self._info(con, table_id)
        if info is None:
            return None
        ch = con.execute(
            "SELECT mu_before, sigma_before, mu, sigma FROM rating_changes"
            " WHERE table_id = ? AND seat = ?",
            (table_id, seat),
        ).fetchone()
        change = None
        if ch is not None:
            before = None if ch[0] is None else (ch[0], ch[1])
            change = RatingChange(int(seat), player_id, before, (ch[2], ch[3]))
        return PlayerGame(info, int(seat), change, (int(finished), int(n)))

    _ROWS = "SELECT h.finished, h.n, h.table_id, h.seat FROM history h"
    _NEWEST = " ORDER BY h.finished DESC, h.n DESC LIMIT ?"

    def history_page(
        self, player_id: str, viewer_id: str | None, before: Place | None, limit: int
    ) -> list[PlayerGame]:
        after = "" if before is None else " AND (h.finished, h.n) < (?, ?)"
        keyset: tuple[Any, ...] = () if before is None else before

        def read(con: Any) -> list[PlayerGame]:
            if viewer_id == player_id:  # index history_player: the player's own, all
                rows = con.execute(
                    f"{self._ROWS} WHERE h.player_id = ?{after}{self._NEWEST}",
                    (player_id, *keyset, limit),
                ).fetchall()
            else:  # index history_public; and the private games the viewer was at
                rows = con.execute(
                    f"{self._ROWS} WHERE h.player_id = ? AND h.private = 0{after}{self._NEWEST}",
                    (player_id, *keyset, limit),
                ).fetchall()
                if viewer_id is not None and _shared(con, player_id, viewer_id):
                    rows += con.execute(
                        f"{self._ROWS} JOIN history v ON v.table_id = h.table_id"
                        f" AND v.player_id = ? WHERE h.player_id = ? AND h.private = 1{after}"
                        f"{self._NEWEST}",
                        (viewer_id, player_id, *keyset, limit),
                    ).fetchall()
                    rows = sorted(rows, key=lambda r: (r[0], r[1]), reverse=True)[:limit]
            return [g for g in (self._game(con, player_id, r) for r in rows) if g is not None]

        result: list[PlayerGame] = self._read(read)
        return result

    def shared_private(self, player_id: str, viewer_id: str) -> int:
        shared: int = self._read(lambda con: _shared(con, player_id, viewer_id))
        return shared

    def history(self, player_id: str) -> list[PlayerGame]:
        def read(con: Any) -> list[PlayerGame]:
            rows = con.execute(f"{self._ROWS} WHERE h.player_id = ?", (player_id,)).fetchall()
            return [g for g in (self._game(con, player_id, r) for r in rows) if g is not None]

        result: list[PlayerGame] = self._read(read)
        return result

    def _history_ops(self, table_id: str, result: dict[str, Any], at: float) -> list[Op]:
        """The writes that keep a finished game in its players' histories, in the
        transaction that stores its result: a history row per registered seat, and each
        player's ``games``, ``wins`` and ``public_games`` counted up, and at a private
        table the games each two of its players played together (``shared_private``).
        A result stored twice counts once (the rows are there already)."""
        seats = len(result.get("places") or ()) or 3
        ops: list[Op] = [
            (
                "UPDATE players SET games = games + 1, wins = wins + ?,"
                " public_games = public_games + (SELECT 1 - private FROM tables WHERE id = ?)"
                " WHERE id = (SELECT player_id FROM player_seats WHERE table_id = ? AND seat = ?)"
                " AND NOT EXISTS (SELECT 1 FROM history WHERE table_id = ? AND seat = ?)",
                (int(won(seat, result)), table_id, table_id, seat, table_id, seat),
            )
            for seat in range(seats)
        ]
        ops.append(
            (
                "INSERT INTO shared_private (player_id, other_id, games)"
                " SELECT a.player_id, b.player_id, 1 FROM player_seats a"
                " JOIN player_seats b ON b.table_id = a.table_id AND b.player_id != a.player_id"
                " JOIN tables t ON t.id = a.table_id WHERE a.table_id = ? AND t.private = 1"
                " AND EXISTS (SELECT 1 FROM games g WHERE g.table_id = ?)"
                " AND NOT EXISTS (SELECT 1 FROM history WHERE table_id = ?)"
                " ON CONFLICT (player_id, other_id)"
                " DO UPDATE SET games = shared_private.games + 1",
                (table_id, table_id, table_id),
            )
        )
        ops.append(
            (
                "INSERT INTO history (player_id, table_id, seat, finished, private)"
                " SELECT ps.player_id, ps.table_id, ps.seat, ?, t.private"
                " FROM player_seats ps JOIN tables t ON t.id = ps.table_id"
                " WHERE ps.table_id = ? AND EXISTS (SELECT 1 FROM games g WHERE g.table_id = ?)"
                " ON CONFLICT (table_id, seat) DO NOTHING",
                (round(at * 1000), table_id, table_id),
            )
        )
        return ops
