"""What the store keeps of registered players: the interface and the records it reads.

Why: players, the seats they sat in, rated tables and rating changes must outlive the
process and be the same in SQLite and PostgreSQL (and in the memory store), so the
service above (``server.players``) writes and reads them through this one contract.
The store never sees a secret, only its hash, and computes no rating: it stores what it
is given, in the order it is given (``RatingChange``, ``rated_order``).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from .devices import DeviceStore, NewSecret

T = TypeVar("T")

__all__ = [
    "GameInfo",
    "Place",
    "PlayerGame",
    "PlayerStore",
    "RatingChange",
    "StoredPlayer",
    "shown",
    "won",
]


def shown(mu: float, sigma: float) -> float:
    """The rating shown and ranked by: ``mu - 3 sigma`` (openskill's ordinal, which
    ``server.players.ratings.display`` is)."""
    return mu - 3 * sigma


@dataclass
class StoredPlayer:
    """A registered player: ``key`` is the name as compared (``server.players.names``);
    ``mu`` and ``sigma`` are None until its first rated game."""

    id: str
    key: str
    name: str
    created: float
    mu: float | None = None
    sigma: float | None = None
    rated_games: int = 0
    games: int = 0  # finished games played (kept as counters as each result is stored)
    wins: int = 0  # of them won (``won``)
    public_games: int = 0  # of them at public tables
    num: int = 0  # the store's number of the player (set when stored): a leaderboard cursor's


@dataclass
class RatingChange:
    """One seat's rating change in one rated game (``before`` None: its first)."""

    seat: int
    player_id: str
    before: tuple[float, float] | None
    after: tuple[float, float]


@dataclass
class GameInfo:
    """A stored game's public facts beside its record."""

    table_id: str
    name: str
    private: bool
    names: list[str | None]
    rated: bool
    finished: float | None
    result: dict[str, Any] | None
    players: dict[int, str] = field(default_factory=dict)  # seat -> player id


Place = tuple[int, int]
"""Where a game stands in a player's history: (when it finished, in milliseconds; its
history row's number, in the order results were stored). Newest first is the greatest
first; the number breaks ties of time."""


@dataclass
class PlayerGame:
    """One finished game of a player, newest first in ``history_page``."""

    info: GameInfo
    seat: int
    change: RatingChange | None  # the player's, in a rated game that counted
    place: Place = (0, 0)


class PlayerStore(DeviceStore, ABC):
    """The players' part of the store (``Store`` includes it): every write is durable
    when it returns, as the store's others are."""

    async def apart(self, reads: Callable[[], T]) -> T:
        """``reads()``, a few of the store's reads that belong together (a page of a
        player's games and their count, a leaderboard page, a record), where they hold
        no one up: a SQL store runs them in a worker thread on a read connection of
        its own, so that a page that costs what the data holds does not stall every
        table's event loop; the memory store (whose reads are the loop's data) at once."""
        return reads()

    @abstractmethod
    async def add_player(self, player: StoredPlayer, secret: NewSecret | str) -> bool:
        """Register ``player`` with its first device's secret (a bare hash: kept
        untagged, as before protocol 1.3); False (nothing stored) if its ``key`` is
        registered already."""

    @abstractmethod
    async def add_device_code(
        self, code_hash: str, player_id: str, expires: float, now: float
    ) -> None:
        """Keep a one-time device code (its hash) for the player until ``expires``; the
        player's earlier code, and every code expired by ``now``, are forgotten in the
        same transaction."""

    @abstractmethod
    async def redeem_device_code(self, code_hash: str, now: float) -> str | None:
        """The player id of a code kept and not expired at ``now``, forgotten by the
        same statement that finds it: of several redeeming it at once (nodes of a
        cluster), one gets it. None for a code unknown, used or expired."""

    @abstractmethod
    def player_by_key(self, key: str) -> StoredPlayer | None:
        """The player registered under ``key``."""

    @abstractmethod
    def player_names(self) -> list[tuple[str, str, str]]:
        """``(id, key, name)`` of every player, the earliest registered first."""

    @abstractmethod
    async def set_player_keys(self, keys: dict[str, str]) -> None:
        """Give each player (by id) a new name key, all in one transaction (two players
        may trade keys)."""

    @abstractmethod
    def player_by_id(self, player_id: str) -> StoredPlayer | None:
        """The player of id ``player_id``."""

    @abstractmethod
    def seat_players(self, table_id: str) -> dict[int, str]:
        """Seat -> player id of the table's seats that registered players sat in."""

    @abstractmethod
    def is_rated(self, table_id: str) -> bool:
        """Whether the table is rated (``Store.create_table`` made it so)."""

    @abstractmethod
    def game_life(self, table_id: str) -> dict[str, Any] | None:
        """A rated table's game's life beyond its record as last stored (``Course.life``:
        who resigned or timed out, each person's own takes); None if none was stored."""

    @abstractmethod
    def load_analysis(self, table_id: str) -> str | None:
        """The analysis kept of the table's finished game (``save_analysis``'s JSON
        text), or None."""

    @abstractmethod
    async def save_analysis(self, table_id: str, budget: int, analysis: str, at: float) -> None:
        """Keep the analysis (JSON text, made at ``budget`` samples a decision) of the
        table's finished game, durably; one kept already stays (the same record and
        budget give the same analysis)."""

    @abstractmethod
    def rating_changes(self, table_id: str) -> list[RatingChange]:
        """The rating changes the table's game made, by seat (none: not rated yet)."""

    def rating_shown(self, table_id: str) -> dict[int, tuple[float | None, float]]:
        """Seat -> its rating before (None: its first rated game) and after the table's
        game, as shown (``shown``)."""
        return {
            c.seat: (None if c.before is None else shown(*c.before), shown(*c.after))
            for c in self.rating_changes(table_id)
        }

    @abstractmethod
    async def save_ratings(self, table_id: str, seq: int, changes: list[RatingChange]) -> None:
        """Store one rated game's changes, the ``seq``-th applied: every player's new
        rating and one more rated game, in one transaction."""

    @abstractmethod
    def rating_seq(self) -> int:
        """The highest ``seq`` stored (0: none)."""

    @abstractmethod
    def rated_order(self) -> list[tuple[str, dict[str, Any]]]:
        """Every finished rated game with a result, as (table id, result), in the order
        their ratings were applied (``seq``), then the others by when they finished."""

    @abstractmethod
    async def reset_ratings(self) -> None:
        """Forget every rating and rating change (before recomputing them)."""

    @abstractmethod
    def rated_players(self) -> list[StoredPlayer]:
        """Every player with at least one rated game."""

    @abstractmethod
    def rated_page(self, after: int | None, limit: int) -> list[StoredPlayer]:
        """Players with a rated game, best ``mu - 3 * sigma`` first (the rating shown,
        ``server.players.ratings.display``), equal ones by ``key`` (code point order):
        ``limit`` of them from the player numbered ``after`` (``StoredPlayer.num``),
        it included, at its place as it is now (None: from the best). An index orders
        them and the page starts at its place (keyset paging): a page costs its
        entries, not a look at every player or at those before it. Empty if that
        player is not on the board."""

    @abstractmethod
    def rated_count(self) -> int:
        """How many players have a rated game."""

    @abstractmethod
    def game_info(self, table_id: str) -> GameInfo | None:
        """A stored table's facts, its game's result if finished."""

    @abstractmethod
    def history_page(
        self, player_id: str, viewer_id: str | None, before: Place | None, limit: int
    ) -> list[PlayerGame]:
        """The player's finished games that ``viewer_id`` may see, newest first: ``limit``
        of them placed before ``before`` (None: from the newest). A viewer sees every
        public game, and a private one only if it played in it (the player itself sees
        all of its own). Costs the page, whatever the history holds: an index gives
        the games in order from ``before`` on (keyset paging, no offset)."""

    @abstractmethod
    def shared_private(self, player_id: str, viewer_id: str) -> int:
        """How many private games ``viewer_id`` played with the player (both seated)."""

    @abstractmethod
    def history(self, player_id: str) -> list[PlayerGame]:
        """Every finished game of the player, in no particular order: the simple path
        the pages are held to (tests, ``kupferkessel``'s tools), never a request's."""


def won(seat: int, result: dict[str, Any] | None) -> bool:
    """Whether ``seat`` won the game of ``result`` (first place; abandoned: nobody): the
    rule a player's ``wins`` count by (and migration 12's backfill, in SQL)."""
    result = result or {}
    places = result.get("places") or []
    return result.get("ending") != "abandoned" and seat < len(places) and places[seat] == 1
