"""One connection's player, and the handlers of protocol 1.2's and 1.3's messages.

Why: a session knows nothing of players beyond this: ``Account`` says who it plays as
(signed in or anonymous), names and links the seats it takes, checks the rules of rated
tables; ``PLAYER_HANDLERS`` answer the 1.2 and 1.3 messages. The session runs them where
its state table (``server.net.states.ACCEPTS``) accepts them, and hands over only what
they need (``Seating``).
"""

from __future__ import annotations

import dataclasses
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from protocol import messages as m
from protocol.convert import timing_to_shared
from shared.clock import TimeRules
from shared.errors import RuleError

from ..core.errors import TableError, same_player
from ..core.handle import TableHandle
from ..lobby.registry import Lobby
from ..store.players import StoredPlayer
from .names import check_name
from .service import Players

__all__ = ["ATTEMPTS", "PLAYER_HANDLERS", "Account", "Seating"]

ATTEMPTS = (5, 60.0)
"""Slow hashes asked for per connection (``register``, ``sign_in``, ``redeem_code``,
``new_device_code``): at most 5 in any 60 seconds, so that no connection keeps the
server's few hashing slots from everyone else's sign-ins (its address's budget and the
queue's bound, ``server.players.hashing``, hold for all its connections together)."""


class Account:
    """Who a connection plays as: ``player`` once signed in (None: anonymous), with
    ``device``, the device it signed in from; the ``Requester`` of its slow hashes."""

    def __init__(self, players: Players | None) -> None:
        self.players = players
        self.player: StoredPlayer | None = None
        self.device: str | None = None
        self.address = ""
        self.alive: Callable[[], bool] = lambda: True
        self._attempts: deque[float] = deque()

    def at(self, address: str, alive: Callable[[], bool]) -> Account:
        """This account on a connection from ``address``, open while ``alive()``."""
        self.address, self.alive = address, alive
        return self

    def service(self) -> Players:
        if self.players is None:
            raise TableError("not_allowed", "this server keeps no players")
        return self.players

    def signed_in(self) -> StoredPlayer:
        if self.player is None:
            raise TableError("not_signed_in", "sign in as a registered player first")
        return self.player

    def attempt(self) -> None:
        """Count a sign-in attempt; ``rate_limited`` past ``ATTEMPTS``."""
        if self.player is not None:
            raise TableError("not_allowed", "this connection is signed in already")
        self.hashes()

    def hashes(self) -> None:
        """Count a request that costs a slow hash; ``rate_limited`` past ``ATTEMPTS``."""
        now = time.monotonic()
        while self._attempts and self._attempts[0] <= now - ATTEMPTS[1]:
            self._attempts.popleft()
        if len(self._attempts) >= ATTEMPTS[0]:
            raise TableError("rate_limited", "too many sign-in attempts or codes: wait a minute")
        self._attempts.append(now)

    # ------------------------------------------------------------ seats
    def seat_name(self, name: str) -> str:
        """The name a seat taken now gets: the registered one once signed in, else
        ``name`` if it may be a name (``invalid_field`` if not: ``names.check_name``)."""
        if self.player is not None:
            return self.player.name
        check_name(name, field="player")
        return name

    def watch_name(self, name: str) -> str:
        """``name``, the name a watcher chats under (its ``hello``'s ``client``), if it
        may be a name or says nothing (``invalid_field`` if not)."""
        if name.strip():
            check_name(name, field="client")
        return name

    def check_create(self, msg: m.CreateTableMsg, minor: int) -> bool:
        """Whether the table ``msg`` makes is rated (1.2), after checking that it may
        be: signed in, seated at once, and no bots, seed or casual memory unless the
        operator allows them."""
        if minor < 2 or not msg.rated:
            return False
        self.signed_in()
        allow = self.service().rated_allow
        if msg.player is None:
            raise TableError("bad_options", "a rated table's creator sits down (give player)")
        if msg.bots and "bots" not in allow:
            raise TableError("bad_options", "no bots at a rated table on this server")
        if msg.options.seed is not None and "seeds" not in allow:
            raise TableError("bad_options", "no chosen seed at a rated table on this server")
        if msg.options.memory == "casual" and "casual" not in allow:
            raise TableError("bad_options", "no casual memory at a rated table on this server")
        if msg.options.hints:
            raise TableError("bad_options", "no hints at a rated table")
        return True

    def table_rules(self, msg: m.CreateTableMsg, minor: int) -> tuple[bool, TimeRules]:
        """Whether the table ``msg`` makes is rated (``check_create``), and its time
        rules (``bad_options`` if they cannot be played): a rated table created without
        a time per move gets the server's (``--rated-move``), the rest as given, so that
        nobody can stall a rated game (a seat whose time runs out times out, and loses
        once absent)."""
        try:
            timing = timing_to_shared(msg.timing)
        except RuleError as e:
            raise TableError("bad_options", e.message) from e
        rated = self.check_create(msg, minor)
        if rated and not timing.clocked:
            timing = dataclasses.replace(timing, move=self.service().rated_move)
        return rated, timing

    def check_join(self, table: TableHandle) -> None:
        """A rated table seats only signed-in players, a player at most once."""
        if self.players is None:
            return
        store = self.players.store
        if self.player is None:
            if table.rated:
                raise TableError(
                    "not_allowed",
                    "a rated table seats only signed-in players (protocol 1.2)",
                    "rated",
                )
            return
        if self.player.id in store.seat_players(table.id).values():
            raise same_player()

    def player_id(self) -> str | None:
        """The id of the player a seat taken now is linked to (None: anonymous)."""
        return self.player.id if self.player is not None else None

    def seats(self, lobby: Lobby) -> tuple[m.PlayerSeat, ...]:
        """The player's seats at tables this server holds now: read from the tables
        themselves (their seats name their players), never from the store, whose
        seats of the player grow with every game it ever played."""
        if self.player is None:
            return ()
        pid = self.player.id
        return tuple(
            m.PlayerSeat(table=table.id, seat=seat.index, state=table.state)  # type: ignore[arg-type]
            for table in lobby.tables.values()
            for seat in table.seats
            if seat.player == pid and seat.token_hash is not None
        )


class Seating(Protocol):
    """What the handlers need of a session."""

    account: Account
    lobby: Lobby
    table: TableHandle | None

    def send(self, message: Any, re: int | None = None) -> None: ...

    async def resume_seat(self, table: TableHandle, seat: int, token_hash: str, re: int) -> None:
        """Take back ``seat`` of ``table`` (as ``resume`` does), answering ``re``."""
        ...


async def _signed_in(
    s: Seating, player: StoredPlayer, device: str, re: int, secret: str | None = None
) -> None:
    s.account.player, s.account.device = player, device
    info = await s.account.service().info(player)
    s.send(m.SignedInMsg(player=info, seats=s.account.seats(s.lobby), secret=secret), re)


async def on_register(s: Seating, msg: m.RegisterMsg) -> None:
    s.account.attempt()
    player, device = await s.account.service().register(msg.name, msg.secret, s.account)
    await _signed_in(s, player, device, msg.id)


async def on_sign_in(s: Seating, msg: m.SignInMsg) -> None:
    s.account.attempt()
    player, device = await s.account.service().sign_in(msg.name, msg.secret, s.account)
    await _signed_in(s, player, device, msg.id)


async def on_new_device_code(s: Seating, msg: m.NewDeviceCodeMsg) -> None:
    player = s.account.signed_in()
    s.account.hashes()
    players = s.account.service()
    players.devices.room(player.id)  # a code that could add no device: none
    code = await players.codes.issue(player.id, s.account)
    s.send(m.DeviceCodeMsg(code=code, expires_in=int(players.codes.ttl)), msg.id)


async def on_redeem_code(s: Seating, msg: m.RedeemCodeMsg) -> None:
    s.account.attempt()
    player, secret, device = await s.account.service().redeem(msg.code, s.account)
    await _signed_in(s, player, device, msg.id, secret)


async def on_rejoin(s: Seating, msg: m.RejoinMsg) -> None:
    player = s.account.signed_in()
    if s.table is not None and s.table.id != msg.table:  # the state table: seated elsewhere
        raise TableError("already_seated", "you are at another table: leave it first")
    store = s.account.service().store
    seat = next((k for k, v in store.seat_players(msg.table).items() if v == player.id), None)
    local = s.lobby.tables.get(msg.table)
    token_hash: str | None = None
    if seat is not None and local is not None:
        token_hash = local.seats[seat].token_hash
    elif seat is not None:  # served by another node of a cluster: its stored seat
        stored = store.load_table(msg.table)
        found = [x for x in stored.seats if x.seat == seat] if stored is not None else []
        token_hash = found[0].token_hash if found else None
    table = local or await s.lobby.directory.locate(msg.table, s.table)
    if seat is None or token_hash is None or table is None:
        raise TableError("no_such_table", "your player holds no seat at that table here")
    await s.resume_seat(table, seat, token_hash, msg.id)


async def on_show_profile(s: Seating, msg: m.ShowProfileMsg) -> None:
    players = s.account.service()
    player = players.find(msg.name) if msg.name is not None else s.account.signed_in()
    s.send(m.ProfileMsg(player=await players.info(player)), msg.id)


async def on_list_games(s: Seating, msg: m.ListGamesMsg) -> None:
    players = s.account.service()
    player = players.find(msg.name) if msg.name is not None else s.account.signed_in()
    viewer = s.account.player
    page = await players.apart(lambda: players.games_page(player, msg.cursor, msg.limit, viewer))
    s.send(page, msg.id)


async def on_get_record(s: Seating, msg: m.GetRecordMsg) -> None:
    players, viewer = s.account.service(), s.account.player
    s.send(await players.apart(lambda: players.record(msg.table, viewer)), msg.id)


async def on_analyse_game(s: Seating, msg: m.AnalyseGameMsg) -> None:
    players = s.account.service()
    s.send(await players.analyses.answer(msg.table, s.account.player, s.account), msg.id)


async def on_show_leaderboard(s: Seating, msg: m.ShowLeaderboardMsg) -> None:
    players = s.account.service()
    s.send(await players.apart(lambda: players.leaderboard_page(msg.cursor, msg.limit)), msg.id)


async def on_list_devices(s: Seating, msg: m.ListDevicesMsg) -> None:
    player = s.account.signed_in()
    devices = s.account.service().devices
    s.send(devices.listing(player.id, s.account.device), msg.id)


async def on_revoke_device(s: Seating, msg: m.RevokeDeviceMsg) -> None:
    player = s.account.signed_in()
    devices = s.account.service().devices
    await devices.revoke(player.id, msg.device)
    s.send(devices.listing(player.id, s.account.device), msg.id)


PLAYER_HANDLERS: dict[str, Callable[[Any, Any], Awaitable[None]]] = {
    "register": on_register,
    "sign_in": on_sign_in,
    "new_device_code": on_new_device_code,
    "redeem_code": on_redeem_code,
    "rejoin": on_rejoin,
    "show_profile": on_show_profile,
    "list_games": on_list_games,
    "get_record": on_get_record,
    "analyse_game": on_analyse_game,
    "show_leaderboard": on_show_leaderboard,
    "list_devices": on_list_devices,
    "revoke_device": on_revoke_device,
}
"""1.2, 1.3 and 1.5 message type -> its handler, called as ``handler(session, msg)``."""
