"""Protocol 1.2's requests of ``Client``: register a player, sign in (by itself on
every connection), move to another device with a one-time code, take a seat back as
the player, and read profiles, games, records and the leaderboard; and 1.5's analysis
of a finished game (``analysis``).

Apart from the connection's machinery (``connection.py``), which it uses only through
``_request``, so the players' part of the library reads on its own. A server that
speaks 1.0 or 1.1 has none of this: ``speaks_players`` is false there and these
requests raise ``ClientError`` before anything is sent.
"""

from __future__ import annotations

import logging
from typing import Any

from pydantic import BaseModel

from protocol import messages as m

from ..accounts import Account, AccountStore, new_secret
from .devices import DeviceRequests
from .errors import ClientError, ConnectionLost, ServerError
from .results import Seated

__all__ = ["ANALYSIS_VERSION", "PLAYERS_VERSION", "PlayerRequests"]

log = logging.getLogger("kupferkessel.client")

PLAYERS_VERSION = (1, 2)
"""The protocol version that has registered players."""
ANALYSIS_VERSION = (1, 5)
"""The protocol version that analyses finished games."""


class PlayerRequests(DeviceRequests):
    """The 1.2 part of ``Client`` (a base class of it; 1.3's devices, ``DeviceRequests``,
    are asked the same way). ``player`` is the signed-in player (None: anonymous),
    ``player_seats`` the seats it held when it signed in."""

    url: str
    welcome: m.WelcomeMsg | None
    accounts: AccountStore | None = None
    player: m.PlayerInfo | None = None
    player_seats: tuple[m.PlayerSeat, ...] = ()

    async def _request(
        self, cls: type[Any], *, terminal: frozenset[str] | None = None, **fields: Any
    ) -> list[m.ServerMessage]:
        raise NotImplementedError  # the connection's

    def _emit(self, item: Any) -> None:
        raise NotImplementedError  # the connection's

    # ------------------------------------------------------------------ state
    @property
    def speaks_players(self) -> bool:
        """Whether this connection speaks 1.2 (the server's welcome said so)."""
        return self.welcome is not None and tuple(self.welcome.protocol) >= PLAYERS_VERSION

    @property
    def account(self) -> Account | None:
        """The player kept for this server, if any (its secret stays in the store)."""
        return self.accounts.get(self.url) if self.accounts is not None else None

    async def _ask(self, cls: type[BaseModel], **fields: Any) -> m.ServerMessage:
        if not self.speaks_players:
            raise ClientError("this server has no registered players (protocol 1.1 or older)")
        (reply,) = await self._request(cls, **fields)
        return reply

    def _signed_in(self, reply: m.ServerMessage) -> m.PlayerInfo:
        assert isinstance(reply, m.SignedInMsg)
        self.player, self.player_seats = reply.player, reply.seats
        return reply.player

    # ------------------------------------------------------------------ requests
    async def register(self, name: str) -> m.PlayerInfo:
        """Register ``name`` on this server with a secret made here, kept in the store
        first (a reply lost on the way does not lose the player), and sign in."""
        account = Account(name, new_secret())
        if self.accounts is not None:
            self.accounts.save(self.url, account)
        try:
            reply = await self._ask(m.RegisterMsg, name=name, secret=account.secret)
        except ServerError:
            if self.accounts is not None:
                self.accounts.forget(self.url)
            raise
        player = self._signed_in(reply)
        if self.accounts is not None:
            self.accounts.save(self.url, Account(player.name, account.secret))
        return player

    async def sign_in(self, account: Account | None = None) -> m.PlayerInfo:
        """Sign in as ``account`` (default: the one kept for this server)."""
        account = account or self.account
        if account is None:
            raise ClientError("no player registered on this server")
        reply = await self._ask(m.SignInMsg, name=account.name, secret=account.secret)
        return self._signed_in(reply)

    async def _sign_back_in(self) -> None:
        """On every connection: sign in as the kept player, when there is one and the
        server speaks 1.2; a refusal goes to ``updates()`` as an error."""
        if not self.speaks_players or self.account is None:
            self.player = None
            return
        try:
            await self.sign_in()
        except ServerError as e:
            self.player = None
            self._emit(m.ErrorMsg(code=e.code, message=f"sign-in refused: {e.message}"))
        except ConnectionLost:
            self.player = None

    async def new_device_code(self) -> m.DeviceCodeMsg:
        """A one-time code to sign in as this player on another device."""
        reply = await self._ask(m.NewDeviceCodeMsg)
        assert isinstance(reply, m.DeviceCodeMsg)
        return reply

    async def redeem_code(self, code: str) -> m.PlayerInfo:
        """Sign in with another device's code; the secret the server makes for this
        device is kept as this server's account."""
        reply = await self._ask(m.RedeemCodeMsg, code=code.strip())
        player = self._signed_in(reply)
        assert isinstance(reply, m.SignedInMsg)
        if self.accounts is not None and reply.secret is not None:
            self.accounts.save(self.url, Account(player.name, reply.secret))
        return player

    async def rejoin(self, table: str) -> Seated:
        """Take back the signed-in player's seat at ``table``, without a seat token."""
        reply = await self._ask(m.RejoinMsg, table=table)
        assert isinstance(reply, m.ResumedMsg)
        return Seated(reply.table, reply.seat)

    def held_seat(self, table: str) -> int | None:
        """The seat the signed-in player held at ``table`` when it signed in."""
        return next((s.seat for s in self.player_seats if s.table == table), None)

    async def profile(self, name: str | None = None) -> m.PlayerInfo:
        """A player's profile (default: your own)."""
        reply = await self._ask(m.ShowProfileMsg, name=name)
        assert isinstance(reply, m.ProfileMsg)
        return reply.player

    async def games(
        self, name: str | None = None, cursor: str | None = None, limit: int | None = None
    ) -> m.GamesMsg:
        """One page of a player's finished games, newest first (default: your own)."""
        reply = await self._ask(m.ListGamesMsg, name=name, cursor=cursor, limit=limit)
        assert isinstance(reply, m.GamesMsg)
        return reply

    async def record(self, table: str) -> m.RecordMsg:
        """The record of the finished game at ``table``, to replay it."""
        reply = await self._ask(m.GetRecordMsg, table=table)
        assert isinstance(reply, m.RecordMsg)
        return reply

    @property
    def speaks_analysis(self) -> bool:
        """Whether this connection speaks 1.5 (the server's welcome said so)."""
        return self.welcome is not None and tuple(self.welcome.protocol) >= ANALYSIS_VERSION

    async def analysis(self, table: str) -> m.AnalysisMsg:
        """The expert's analysis of the finished game at ``table`` (a game's first one
        takes the server a while to make; later ones are kept)."""
        if not self.speaks_analysis:
            raise ClientError("this server analyses no games (protocol 1.4 or older)")
        reply = await self._ask(m.AnalyseGameMsg, table=table)
        assert isinstance(reply, m.AnalysisMsg)
        return reply

    async def leaderboard(
        self, cursor: str | None = None, limit: int | None = None
    ) -> m.LeaderboardMsg:
        """One page of the leaderboard, best rating first."""
        reply = await self._ask(m.ShowLeaderboardMsg, cursor=cursor, limit=limit)
        assert isinstance(reply, m.LeaderboardMsg)
        return reply
