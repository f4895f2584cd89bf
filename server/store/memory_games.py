"""The games the memory store keeps while the process runs: records, results, histories.

Why: a server without a database (``--no-persist``) must still answer what protocol
1.2 promises of a finished game (a profile's games and wins, ``list_games``,
``get_record``) for as long as it runs, by the same rules as the SQL stores: a
player's history in the order of ``Place``, private games shown only to those who
played them, counters kept as each result is stored. Nothing of it outlives the
process; a table abandoned before its game started is forgotten at once, and a
finished game is kept as its record's compact JSON (about 3 KB).
"""

from __future__ import annotations

import bisect
import json
from dataclasses import dataclass, field
from typing import Any

from shared.game import Take
from shared.options import Options
from shared.record import Record, action_to_dict

from .players import GameInfo, Place, RatingChange, StoredPlayer, won

__all__ = ["KeptGames"]


@dataclass
class _Kept:
    """One table as the memory store keeps it."""

    name: str
    private: bool
    names: dict[int, str] = field(default_factory=dict)
    record: dict[str, Any] | None = None  # ``Record.to_dict`` with the seed, no actions
    actions: list[dict[str, Any]] = field(default_factory=list)
    packed: str | None = None  # once finished: the whole record as compact JSON (~3 KB)
    players: int = 0  # seats
    finished: float | None = None
    result: dict[str, Any] | None = None


@dataclass
class _Row:
    """One game in a player's history."""

    place: Place
    table_id: str
    seat: int
    private: bool


class KeptGames:
    """The tables, records and histories of a ``MemoryStore``, in dicts."""

    def __init__(self) -> None:
        self.tables: dict[str, _Kept] = {}
        self.rows: dict[str, list[_Row]] = {}  # player id -> history, by place
        self.public: dict[str, list[_Row]] = {}  # player id -> its public games, by place
        self.changes: dict[tuple[str, int], RatingChange] = {}  # (table, seat) -> change
        self.shared: dict[tuple[str, str], int] = {}  # private games two players played
        self._n = 0  # history rows numbered as results are stored

    # ------------------------------------------------------------ writes
    def create(self, table_id: str, name: str, private: bool) -> None:
        self.tables[table_id] = _Kept(name, private)

    def seat(self, table_id: str, seat: int, name: str | None) -> None:
        kept = self.tables.get(table_id)
        if kept is None:
            return
        if name is None:
            kept.names.pop(seat, None)
        else:
            kept.names[seat] = name

    def start(self, table_id: str, record: Record) -> None:
        kept = self.tables.get(table_id)
        if kept is not None:
            kept.record = record.to_dict()
            kept.record["options"] = record.options.to_dict()  # the full record: seed kept
            kept.record.pop("actions", None)

    def take(self, table_id: str, index: int, take: Take) -> None:
        kept = self.tables.get(table_id)
        if kept is not None and kept.record is not None and index == len(kept.actions):
            kept.actions.append(action_to_dict(take))

    def finish(
        self,
        table_id: str,
        result: dict[str, Any] | None,
        at: float,
        seated: dict[int, str],
        players: dict[str, StoredPlayer],
    ) -> None:
        """The table is over: with a ``result``, its game goes into the history of each
        registered player ``seated`` (seat -> player id) and their counters; without,
        the table (never played) is forgotten."""
        kept = self.tables.get(table_id)
        if kept is None or kept.finished is not None:
            return
        if result is None or kept.record is None:
            del self.tables[table_id]
            return
        kept.finished, kept.result = at, result
        raw = self._raw(kept)
        kept.players = Options.from_dict(raw["options"]).players
        kept.packed = json.dumps(raw, separators=(",", ":"))
        kept.record, kept.actions = None, []  # a finished game is kept packed
        self._n += 1
        place = (round(at * 1000), self._n)
        for seat, pid in sorted(seated.items()):
            p = players.get(pid)
            if p is None:
                continue
            row = _Row(place, table_id, seat, kept.private)
            for kept_rows in (self.rows, self.public) if not kept.private else (self.rows,):
                bisect.insort(kept_rows.setdefault(pid, []), row, key=lambda r: r.place)
            p.games += 1
            p.wins += int(won(seat, result))
            p.public_games += int(not kept.private)
        if kept.private:
            for a in seated.values():
                for b in seated.values():
                    if a != b:
                        self.shared[(a, b)] = self.shared.get((a, b), 0) + 1

    # ------------------------------------------------------------ reads
    @staticmethod
    def _raw(kept: _Kept) -> dict[str, Any]:
        if kept.packed is not None:
            raw: dict[str, Any] = json.loads(kept.packed)
            return raw
        assert kept.record is not None
        raw = {**kept.record, "actions": list(kept.actions)}
        if kept.result is not None:
            raw["result"] = kept.result
        return raw

    def record(self, table_id: str) -> tuple[Record, bool] | None:
        kept = self.tables.get(table_id)
        if kept is None or (kept.record is None and kept.packed is None):
            return None
        return Record.from_dict(self._raw(kept)), kept.finished is not None

    def info(self, table_id: str, seated: dict[int, str], rated: bool) -> GameInfo | None:
        kept = self.tables.get(table_id)
        if kept is None:
            return None
        size = len((kept.result or {}).get("places") or ()) or kept.players
        if not size and kept.record is not None:
            size = Options.from_dict(kept.record["options"]).players
        size = size or 1 + max(kept.names, default=-1)
        names: list[str | None] = [kept.names.get(s) for s in range(size)]
        return GameInfo(
            table_id, kept.name, kept.private, names, rated, kept.finished, kept.result, seated
        )

    def page(
        self,
        player_id: str,
        viewer_id: str | None,
        before: Place | None,
        limit: int,
        seated: Any,
    ) -> list[_Row]:
        """The rows of ``PlayerStore.history_page`` (``seated(table_id)``: its seats'
        players): the player's own, all of them; another's, its public ones and, when
        the two played some together, the private ones the viewer was at."""
        own = viewer_id == player_id
        out = _newest(
            self.rows.get(player_id, []) if own else self.public.get(player_id, []), before, limit
        )
        if not own and viewer_id is not None and self.shared.get((player_id, viewer_id)):
            out += [
                r
                for r in _newest(self.rows.get(player_id, []), before, None)
                if r.private and viewer_id in seated(r.table_id).values()
            ][:limit]
            out = sorted(out, key=lambda r: r.place, reverse=True)[:limit]
        return out

    def rated_order(self, rated: dict[str, int | None]) -> list[tuple[str, dict[str, Any]]]:
        """``PlayerStore.rated_order`` of the games kept."""
        done = [(t, k) for t, k in self.tables.items() if t in rated and k.result and k.finished]
        done.sort(key=lambda e: (rated[e[0]] is None, rated[e[0]] or 0, e[1].finished, e[0]))
        return [(t, k.result) for t, k in done if k.result is not None]


def _newest(rows: list[_Row], before: Place | None, limit: int | None) -> list[_Row]:
    """``limit`` of ``rows`` (in place order) placed before ``before``, newest first
    (None: all of them)."""
    end = len(rows) if before is None else bisect.bisect_left(rows, before, key=lambda r: r.place)
    start = 0 if limit is None else max(0, end - limit)
    return rows[start:end][::-1]
