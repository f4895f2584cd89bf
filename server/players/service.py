"""The registry of players: registering, signing in, devices, ratings and what is shown.

Why: one place holds what a player is on this server (protocol 1.2). Sessions ask it
(``server.players.account``); the store keeps everything it decides; ratings follow
every rated game's stored result (``Store.when_finished``) and can be recomputed from
the stored games alone, by the same code, in the same order.
"""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
import time
from collections.abc import Callable
from typing import Any, TypeVar

from protocol import messages as m
from shared.record import Record

from ..bots.analyst import Analyst
from ..core.errors import TableError
from ..core.life import own_takes
from ..store import Store
from ..store.players import GameInfo, Place, PlayerGame, StoredPlayer
from . import ratings
from .analyses import Analyses, AnalysisBounds
from .credentials import DeviceCodes
from .devices import Devices
from .hashing import Hasher, Requester, SignInBounds
from .names import check_name, key_table, name_key

__all__ = ["DEFAULT_PAGE", "PARKED", "RATED_EXTRAS", "Players", "rekey"]

log = logging.getLogger("kupferkessel.players")

DEFAULT_PAGE = 20
"""Games or leaderboard entries per page when the client asks for no ``limit``."""
RATED_EXTRAS = frozenset({"bots", "seeds", "casual"})
"""What an operator may allow at rated tables (``--rated-allow``): bots, chosen seeds,
``casual`` memory; none by default."""


PARKED = " parked "
"""The start of the key of a player parked by ``rekey`` (``PARKED`` + its id): no name
has it (a key never starts with a space), so nobody signs in as that player."""


def rekey(players: list[tuple[str, str, str]]) -> tuple[dict[str, str], list[tuple[str, str]]]:
    """For ``players`` (``(id, key, name)``, the earliest registered first, as
    ``PlayerStore.player_names``): each player whose key the name rules now make
    differently -> its new key; and each player whose name now has the key of an
    earlier player's (both were told apart by the rules before) with that earlier
    player, the first keeping the name: the later is parked (key ``PARKED`` + its id),
    its games and rating kept, but no name signs in as it."""
    owner: dict[str, str] = {}
    changes: dict[str, str] = {}
    parked: list[tuple[str, str]] = []
    for pid, old, name in players:
        key = name_key(name)
        if key in owner:
            parked.append((pid, owner[key]))
            key = PARKED + pid
        else:
            owner[key] = pid
        if key != old:
            changes[pid] = key
    return changes, parked


_GAMES_CURSOR = re.compile(r"g(\d{14})(\d{1,17})")
_BOARD_CURSOR = re.compile(r"r(\d{11})(\d{10})(\d{1,10})")


def _cursor(cursor: str, pattern: re.Pattern[str]) -> re.Match[str]:
    """The parts of a cursor of the listing ``pattern`` reads; ``invalid_field`` for
    anything else (another listing's, an old or a made-up one), never ``internal``:
    every number it yields fits the store's 64-bit integers."""
    found = pattern.fullmatch(cursor)
    if found is None:
        raise TableError("invalid_field", "cursor: not a cursor of this listing", field="cursor")
    return found


def games_cursor(place: Place) -> str:
    """The cursor after the game at ``place`` in a player's history (``_GAMES_CURSOR``:
    the time in 14 digits, then the row's number)."""
    return f"g{place[0]:014d}{place[1]}"


def board_cursor(num: int, rank: int, place: int) -> str:
    """The cursor after the leaderboard's ``place``-th entry, the player numbered
    ``num`` (``StoredPlayer.num``) ranked ``rank`` (``_BOARD_CURSOR``)."""
    return f"r{num:011d}{rank:010d}{place}"


T = TypeVar("T")


class Players:
    """The players of one server, kept in ``store``."""

    def __init__(
        self,
        store: Store,
        *,
        rated_allow: frozenset[str] = frozenset(),
        rated_move: float = 60.0,
        bounds: SignInBounds | None = None,
        analyst: Analyst | None = None,
        analysis: AnalysisBounds | None = None,
        now: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.rated_allow = rated_allow
        self.rated_move = rated_move  # a rated table's move time if its creator gave none
        self._now = now
        self.hasher = Hasher(bounds)  # every slow hash, bounded per address and overall
        self.codes = DeviceCodes(store, now=now, hasher=self.hasher)
        self.devices = Devices(store, self.hasher, now)
        # 1.5: finished games' analyses, made in ``analyst``'s workers within ``analysis``
        self.analyses = Analyses(store, self.finished, analyst or Analyst(0), analysis)
        self._rating = asyncio.Lock()  # one rated game's update at a time, in order
        store.when_finished(self.game_finished)

    # ------------------------------------------------------------ identity
    async def start(self) -> None:
        """Ready the name rules (their table is built off the event loop), and give
        every stored player the key those rules make of its name (``rekey``)."""
        await asyncio.to_thread(key_table)
        changes, parked = rekey(await self.store.apart(self.store.player_names))
        if changes:
            await self.store.set_player_keys(changes)
            log.info("player name keys renewed", extra={"count": len(changes)})
        for pid, kept in parked:
            log.warning(
                "player name looks like an earlier player's: parked",
                extra={"player": pid, "kept": kept},
            )

    async def register(
        self, name: str, secret: str, who: Requester | None = None
    ) -> tuple[StoredPlayer, str]:
        """A new player ``name`` kept by ``secret``, and its first device's id;
        ``invalid_field`` for a name that may not be one (``names.check_name``),
        ``name_taken`` if its key is, ``rate_limited`` past the address's budget."""
        check_name(name, scripts=False)
        key = name_key(name)
        if self.store.player_by_key(key) is not None:
            raise TableError("name_taken", "that name (or one that looks the same) is taken")
        check_name(name)
        self.hasher.register(who)
        player = StoredPlayer(secrets.token_urlsafe(12), key, name, self._now())
        first = await self.devices.first(secret, player.created, who)
        if not await self.store.add_player(player, first):
            raise TableError("name_taken", "that name (or one that looks the same) is taken")
        log.info("player registered", extra={"player": player.id})
        return player, first.device

    async def sign_in(
        self, name: str, secret: str, who: Requester | None = None
    ) -> tuple[StoredPlayer, str]:
        """The player ``name`` and the device ``secret`` is of; else ``bad_secret``
        (for an unknown name too, after as much work: one slow hash); ``invalid_field``
        for a name nobody may have."""
        check_name(name, scripts=False)
        player = self.store.player_by_key(name_key(name))
        device = await self.devices.check(player, secret, who)
        assert player is not None  # ``check`` refused it otherwise
        return player, device

    async def redeem(
        self, code: str, who: Requester | None = None
    ) -> tuple[StoredPlayer, str, str]:
        """The player of a device code, the new device's secret and id; ``bad_code``,
        or ``not_allowed`` if the player has all the devices it may."""
        pid = await self.codes.redeem(code, who)
        player = self.store.player_by_id(pid) if pid is not None else None
        if player is None:
            raise TableError("bad_code", "that code is unknown, used or expired")
        secret, device = await self.devices.add(player.id, who)
        log.info("device added", extra={"player": player.id})
        return player, secret, device

    def find(self, name: str) -> StoredPlayer:
        """The player registered as ``name`` (compared as ``register`` does)."""
        check_name(name, scripts=False)
        player = self.store.player_by_key(name_key(name))
        if player is None:
            raise TableError("no_such_player", "nobody registered that name here")
        return player

    def fresh(self, player: StoredPlayer) -> StoredPlayer:
        """The player as stored now (its ratings move)."""
        return self.store.player_by_id(player.id) or player

    # ------------------------------------------------------------ ratings
    async def game_finished(self, table_id: str, result: dict[str, Any] | None) -> None:
        """A game ended (its result is stored): a rated one that counts updates the
        ratings of its players."""
        if result is None or not self.store.is_rated(table_id):
            return
        async with self._rating:
            await self._apply(table_id, result, self.store.rating_seq() + 1)

    async def _apply(self, table_id: str, result: dict[str, Any], seq: int) -> bool:
        seated = self.store.seat_players(table_id)
        if not ratings.counts(result, seated):
            return False
        current: dict[str, tuple[float, float] | None] = {}
        for pid in seated.values():
            p = self.store.player_by_id(pid)
            current[pid] = None if p is None or p.mu is None or p.sigma is None else (p.mu, p.sigma)
        own = own_takes(self.store.game_life(table_id), lambda: self._record(table_id), len(seated))
        changes = ratings.rate_game(result, seated, current, own)
        if not changes:
            return False
        await self.store.save_ratings(table_id, seq, changes)
        return True

    def _record(self, table_id: str) -> Record | None:
        stored = self.store.load_record(table_id)
        return stored[0] if stored is not None else None

    async def recompute(self) -> int:
        """Every rating again from the stored rated games, in the order they were
        applied; returns how many games counted."""
        async with self._rating:
            order = self.store.rated_order()
            await self.store.reset_ratings()
            seq = 0
            for table_id, result in order:
                if await self._apply(table_id, result, seq + 1):
                    seq += 1
            return seq

    # ------------------------------------------------------------ what is shown
    async def info(self, player: StoredPlayer) -> m.PlayerInfo:
        """The player's profile: its rating and the counters its row keeps (one
        indexed read, whatever its history holds)."""
        p = self.fresh(player)
        mu, sigma = (
            (p.mu, p.sigma) if p.mu is not None and p.sigma is not None else ratings.initial()
        )
        return m.PlayerInfo(
            name=p.name,
            since=int(p.created),
            rating=ratings.display(mu, sigma),
            mu=mu,
            sigma=sigma,
            provisional=p.rated_games < ratings.PROVISIONAL_GAMES,
            rated_games=p.rated_games,
            games=p.games,
            wins=p.wins,
        )

    async def apart(self, reads: Callable[[], T]) -> T:
        """``reads()``, one of the pages below (``games_page``, ``leaderboard_page``,
        ``record``), away from the event loop (``PlayerStore.apart``): each reads as
        much as its page holds, and a client may ask for page after page."""
        return await self.store.apart(reads)

    def games_page(
        self,
        player: StoredPlayer,
        cursor: str | None,
        limit: int | None,
        viewer: StoredPlayer | None = None,
    ) -> m.GamesMsg:
        """One page of the player's finished games that ``viewer`` may see, newest
        first (``PlayerStore.history_page``: a private game only to those who played
        it). ``total`` counts what the viewer may see on every page: all of the
        player's games for the player, else its public ones and the private ones the
        viewer played with it."""
        before: Place | None = None
        if cursor is not None:
            found = _cursor(cursor, _GAMES_CURSOR)
            before = (int(found[1]), int(found[2]))
        want = limit or DEFAULT_PAGE
        viewer_id = viewer.id if viewer is not None else None
        page = self.store.history_page(player.id, viewer_id, before, want + 1)
        p = self.fresh(player)
        total = p.games
        if viewer_id != p.id:
            total = p.public_games + (
                self.store.shared_private(p.id, viewer_id) if viewer_id is not None else 0
            )
        shown = page[:want]
        return m.GamesMsg(
            player=p.name,
            games=tuple(_summary(g) for g in shown),
            next=games_cursor(shown[-1].place) if len(page) > want else None,
            total=total,
        )

    def games(self, player: StoredPlayer, viewer: StoredPlayer | None) -> list[PlayerGame]:
        """Every game of ``games_page`` at once, newest first: the simple path (every
        game read, filtered and sorted here) the pages are held to."""
        seen = [
            g
            for g in self.store.history(player.id)
            if not g.info.private or (viewer is not None and viewer.id in g.info.players.values())
        ]
        return sorted(seen, key=lambda g: g.place, reverse=True)

    def leaderboard(self) -> list[m.LeaderEntry]:
        """Every rated player, best rating first (ties: by name key), ranked: the simple
        path, a look at every player, which ``leaderboard_page`` equals page by page
        (tests/players/test_leaderboard.py)."""
        rated = [
            (ratings.display(p.mu or 0.0, p.sigma or 0.0), p) for p in self.store.rated_players()
        ]
        rated.sort(key=lambda e: (-e[0], e[1].key))
        return _ranked([p for _, p in rated], 0, 1)

    def leaderboard_page(self, cursor: str | None, limit: int | None) -> m.LeaderboardMsg:
        """One page of ``leaderboard()``, at the cost of the page rather than of every
        player or of those above it (bench/leaderboard.py): the store's index gives the
        page in order from the player the cursor names (keyset paging), and the cursor
        carries that player's rank and place, from which the page is ranked as the
        whole board is. A cursor names a player: if its rating changed since, the next
        page goes on from its new place."""
        want = limit or DEFAULT_PAGE
        place = 0  # entries before the page
        if cursor is None:
            page = self.store.rated_page(None, want + 1)
            entries = _ranked(page, 0, 1)
        else:
            found = _cursor(cursor, _BOARD_CURSOR)
            after, rank, place = int(found[1]), int(found[2]), int(found[3])
            page = self.store.rated_page(after, want + 2)
            if not page or not 1 <= rank <= place:
                raise TableError(
                    "invalid_field", "cursor: not a place on this leaderboard", field="cursor"
                )
            entries = _ranked(page, place - 1, rank)[1:]  # the cursor's player, ranked
            page = page[1:]
        shown = entries[:want]
        more = len(page) > want
        return m.LeaderboardMsg(
            entries=tuple(shown),
            next=board_cursor(page[want - 1].num, shown[-1].rank, place + want) if more else None,
            total=self.store.rated_count(),
        )

    def finished(self, table_id: str, viewer: StoredPlayer | None) -> tuple[GameInfo, Record]:
        """A finished game's facts and record, if ``viewer`` may see them (``record``
        and 1.5's analysis both ask here); ``no_such_game`` if the game is not
        finished, or private and ``viewer`` did not play in it."""
        info = self.store.game_info(table_id)
        stored = self.store.load_record(table_id) if info is not None else None
        mine = viewer is not None and info is not None and viewer.id in info.players.values()
        if info is None or stored is None or not stored[1] or (info.private and not mine):
            raise TableError("no_such_game", "no finished game of that id to show you")
        return info, stored[0]

    def record(self, table_id: str, viewer: StoredPlayer | None) -> m.RecordMsg:
        """A finished game's record (``finished``)."""
        info, record = self.finished(table_id, viewer)
        return m.RecordMsg(
            table=table_id,
            name=info.name,
            names=tuple(info.names),
            rated=info.rated,
            record=m.GameRecordInfo.model_validate(record.to_dict(), strict=False),
        )


def _ranked(players: list[StoredPlayer], offset: int, first_rank: int) -> list[m.LeaderEntry]:
    """Leaderboard entries of ``players`` (in order, the ``offset``-th first, ranked
    ``first_rank``): equal ratings share a rank, the next one is its place (1, 1, 3)."""
    entries: list[m.LeaderEntry] = []
    for i, p in enumerate(players):
        rating = ratings.display(p.mu or 0.0, p.sigma or 0.0)
        if not entries:
            rank = first_rank
        else:
            rank = entries[-1].rank if entries[-1].rating == rating else offset + i + 1
        entries.append(
            m.LeaderEntry(
                rank=rank,
                name=p.name,
                rating=rating,
                mu=p.mu or 0.0,
                sigma=p.sigma or 0.0,
                rated_games=p.rated_games,
                provisional=p.rated_games < ratings.PROVISIONAL_GAMES,
            )
        )
    return entries


def _summary(game: PlayerGame) -> m.GameSummary:
    info, change = game.info, game.change
    result = info.result or {}
    before = after = None
    if change is not None:
        before = ratings.display(*(change.before or ratings.initial()))
        after = ratings.display(*change.after)
    return m.GameSummary(
        table=info.table_id,
        name=info.name,
        finished=int(info.finished or 0),
        seat=game.seat,
        names=tuple(info.names),
        ending=result.get("ending", "abandoned"),
        places=tuple(result.get("places", ())),
        rated=info.rated,
        rating_before=before,
        rating_after=after,
    )
