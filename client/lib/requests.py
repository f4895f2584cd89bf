"""The requests of ``Client`` in the lobby and at a table (protocol 1.0 and 1.1), and
the picture they keep: the table we are at, our seat, its token, the latest view.

Apart from the connection's machinery (``connection.py``), which they use only through
``_request`` and ``_request_unanswered``, and from 1.2's players (``players.py``, a base
class of this one). ``_track`` keeps the picture up to date from every message the
server sends; seat tokens are kept in a ``TokenStore`` file (``client.tokens``) so that
a new ``Client`` in a new process can ``resume`` too, and are never printed or logged.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Sequence
from typing import Any

from protocol import messages as m

from ..tokens import TokenStore
from .errors import BadToken, ClientError
from .players import PlayerRequests
from .results import Seated, TableCreated

__all__ = ["TableRequests"]

log = logging.getLogger("kupferkessel.client")


class TableRequests(PlayerRequests):
    """The lobby's and the table's part of ``Client`` (a base class of it). ``table``
    is the table we sit at or watch, ``seat`` our seat there (None when watching or in
    the lobby), ``view`` the latest view and ``state_version`` its version."""

    url: str
    name: str
    tokens: TokenStore | None

    def __init__(self, name: str) -> None:
        self.table: str | None = None  # the table we sit at or watch
        self.seat: int | None = None  # our seat, None when watching or in the lobby
        self.invite: str | None = None  # the invite code of the table we are at, if any
        self.view: m.GameView | None = None  # the latest view
        self.state_version = 0  # the state version of the latest view
        self.presence: m.PresenceMsg | None = None
        self._player = name  # the player name of our seat (saved with its token)
        self.__token: str | None = None  # name-mangled: never in a repr or a traceback

    async def _request_unanswered(self, cls: type[Any], **fields: Any) -> None:
        raise NotImplementedError  # the connection's

    # ------------------------------------------------------------------ requests
    async def list_tables(self) -> tuple[m.TableSummary, ...]:
        (reply,) = await self._request(m.ListTablesMsg)
        assert isinstance(reply, m.TablesMsg)
        return reply.tables

    async def create_table(
        self,
        name: str,
        options: m.TableOptions | None = None,
        *,
        private: bool = False,
        bots: Sequence[tuple[int, str]] = (),
        player: str | None = None,
        seat: int | None = None,
        timing: m.Timing | None = None,
        rated: bool = False,
    ) -> TableCreated:
        """Create a table with ``options``; ``bots`` lists (seat, level) pairs for
        server-side bots. With ``player`` you sit down too (``seat`` or the first free).
        ``timing`` (1.1): a clock per move and the grace period for absent players;
        ``rated`` (1.2, signed in): the game updates its players' ratings."""
        if player is not None:
            self._player = player
        replies = await self._request(
            m.CreateTableMsg,
            terminal=frozenset({"joined"}) if player is not None else None,
            name=name,
            private=private,
            options=options or m.TableOptions(),
            bots=tuple(m.BotSeat(seat=s, level=lv) for s, lv in bots),
            player=player,
            seat=seat,
            **({"timing": timing} if timing is not None else {}),
            **({"rated": True} if rated else {}),
        )
        created = next(r for r in replies if isinstance(r, m.TableCreatedMsg))
        if created.invite is not None:
            self.invite = created.invite
        joined = next((r for r in replies if isinstance(r, m.JoinedMsg)), None)
        seated = Seated(joined.table, joined.seat) if joined is not None else None
        return TableCreated(created.table, created.invite, seated)

    async def join(
        self,
        table: str,
        player: str | None = None,
        *,
        invite: str | None = None,
        seat: int | None = None,
        seeded: bool = False,
    ) -> Seated:
        """Sit down at ``table`` (``seat``, or the first free one). A seeded table (its
        creator chose the deal, so may know every card: ``TableSummary.seeded``, listed
        to 1.1 clients) refuses you with ``NotAllowed`` unless you say ``seeded=True``:
        you sit down knowing it."""
        self._player = player or self.name
        (reply,) = await self._request(
            m.JoinMsg, table=table, player=self._player, invite=invite, seat=seat, seeded=seeded
        )
        assert isinstance(reply, m.JoinedMsg)
        self.invite = invite
        return Seated(reply.table, reply.seat)

    async def watch(self, table: str, *, invite: str | None = None) -> str:
        """Watch ``table`` as a spectator; views and events follow."""
        (reply,) = await self._request(m.WatchMsg, table=table, invite=invite)
        assert isinstance(reply, m.WatchingMsg)
        self.invite = invite
        return reply.table

    def saved_table(self, table: str, player: str | None = None) -> bool:
        """Whether a seat token for ``table`` on this server is kept (for ``player``,
        if given)."""
        if self.table == table and self.__token is not None:
            return True
        return self.tokens is not None and self.tokens.token(self.url, table, player) is not None

    def saved_seats(self, table: str, player: str | None = None) -> list[int]:
        """The seats at ``table`` whose tokens are kept on disk (for ``player``)."""
        if self.tokens is None:
            return []
        return [
            s.seat for s in self.tokens.seats(self.url, table) if player is None or s.name == player
        ]

    async def resume(
        self, table: str | None = None, player: str | None = None, seat: int | None = None
    ) -> Seated:
        """Take back the seat at ``table`` (default: the current one) with its kept
        token (the one saved for ``player`` and ``seat``, if given). Raises ``BadToken``
        (and forgets the token) if the server refuses it."""
        table = table or self.table
        token = self.__token if table == self.table and seat in (None, self.seat) else None
        if token is None and table is not None and self.tokens is not None:
            token = self.tokens.token(self.url, table, player, seat)
        if table is None or token is None:
            raise BadToken("bad_token", f"no seat token kept for table {table!r}")
        try:
            (reply,) = await self._request(m.ResumeMsg, token=token)
        except BadToken:
            if self.tokens is not None:
                self.tokens.forget_token(self.url, table, token)
            if self.table == table:
                self.__token = None
            raise
        assert isinstance(reply, m.ResumedMsg)
        self.__token = token
        return Seated(reply.table, reply.seat)

    async def leave(self) -> None:
        """Leave the table (a seat in a running game stays yours; see ``resign``)."""
        await self._request(m.LeaveMsg)

    async def ready(self, ready: bool = True) -> None:
        await self._request_unanswered(m.ReadyMsg, ready=ready)

    async def take(
        self,
        card: str,
        *,
        special: bool = True,
        targets: Sequence[int] | None = None,
        keep: bool = True,
        state_version: int | None = None,
    ) -> int:
        """Take ``card`` (decided on the latest view unless ``state_version`` is given);
        returns the new state version. ``special`` uses the card's symbol, ``targets``
        names the seats an explosion hits (default: every other), ``keep`` keeps the
        game-ending card."""
        (reply,) = await self._request(
            m.TakeMsg,
            state_version=self.state_version if state_version is None else state_version,
            card=card,
            special=special,
            targets=None if targets is None else tuple(targets),
            keep=keep,
        )
        assert isinstance(reply, m.AckMsg)
        return reply.state_version

    async def resign(self) -> None:
        await self._request(m.ResignMsg)

    async def claim(self) -> None:
        """1.1: end a two-player game and take the win while the opponent is absent."""
        await self._request(m.ClaimMsg)

    async def back(self) -> None:
        """1.1: take the seat back from the computer player that plays it (after your
        time ran out several moves in a row)."""
        await self._request(m.BackMsg)

    async def rematch(self, rematch: bool = True) -> None:
        """1.1: after the end, ask for another game with the same people (False:
        withdraw). When everyone has asked, ``rematched`` arrives in ``updates()``."""
        await self._request_unanswered(m.RematchMsg, rematch=rematch)

    async def chat(self, text: str) -> None:
        await self._request_unanswered(m.ChatMsg, text=text)

    async def ping(self) -> None:
        await self._request(m.PingMsg)

    async def hint(self) -> m.HintMsg:
        """1.5, seated on our turn at a table whose options allow hints: the expert's
        suggestion for this decision, weighed from our seat's view only (``take`` is
        the card, ``state_version`` the state it is for)."""
        if not self.speaks_analysis:
            raise ClientError("this server gives no hints (protocol 1.4 or older)")
        (reply,) = await self._request(m.AskHintMsg)
        assert isinstance(reply, m.HintMsg)
        return reply

    async def catch_up(self, since: int) -> m.MissedMsg:
        """1.4: the states after ``since`` at our table, each with the events that led
        to it as they were sent live (``missed``)."""
        (reply,) = await self._request(m.CatchUpMsg, since=since)
        assert isinstance(reply, m.MissedMsg)
        return reply

    # ------------------------------------------------------------------ the picture
    def _keep_token(self, joined: m.JoinedMsg) -> None:
        self.__token = joined.token
        if self.tokens is not None:
            try:
                self.tokens.save(self.url, joined.table, joined.seat, joined.token, self._player)
            except OSError as e:
                log.warning("cannot save the seat token: %s", type(e).__name__)

    def _track(self, msg: m.ServerMessage) -> None:
        """Keep the client's picture (table, seat, latest view) up to date."""
        if isinstance(msg, m.JoinedMsg):
            self.table, self.seat = msg.table, msg.seat
            self._keep_token(msg)
        elif isinstance(msg, m.ResumedMsg):
            self.table, self.seat = msg.table, msg.seat
        elif isinstance(msg, m.WatchingMsg):
            self.table, self.seat, self.__token = msg.table, None, None
        elif isinstance(msg, m.LeftMsg):
            waiting = self.view is None and (
                self.presence is None or self.presence.state == "lobby"
            )
            if waiting and self.table is not None and self.seat is not None:
                self.__token = None  # left before the game: the seat is free, its token void
                if self.tokens is not None:
                    with contextlib.suppress(OSError):
                        self.tokens.forget(self.url, self.table, self.seat)
            self.table, self.seat, self.view, self.presence = None, None, None, None
        elif isinstance(msg, m.ViewMsg):
            self.view, self.state_version = msg.view, msg.state_version
            table, seat = self.table, self.seat
            if msg.view.game_over and self.tokens and table is not None and seat is not None:
                with contextlib.suppress(OSError):
                    self.tokens.forget(self.url, table, seat)
        elif isinstance(msg, m.PresenceMsg):
            self.presence = msg
        elif isinstance(msg, m.RematchedMsg):  # the same seat token, at the new table
            self.table, self.seat, self.view, self.state_version = msg.table, msg.seat, None, 0
            token = self.__token
            if token is not None and msg.seat is not None and self.tokens is not None:
                try:
                    self.tokens.save(self.url, msg.table, msg.seat, token, self._player)
                except OSError as e:
                    log.warning("cannot save the seat token: %s", type(e).__name__)
