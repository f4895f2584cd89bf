"""Client to server: every message a client may send, each with its ``id``.

``ClientMessage`` is their union by ``type``, the one thing ``decode_client`` accepts.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from .analysis import AnalyseGameMsg, AskHintMsg
from .base import by_tag
from .devices import ListDevicesMsg, RevokeDeviceMsg
from .envelope import ClientMsg as _ClientMsg
from .fields import (
    MAX_PAGE,
    CardId,
    ChatText,
    ClientVersion,
    Invite,
    ListCursor,
    Name,
    SeatNo,
    SeatToken,
    StateVersion,
    TableId,
    TableName,
    Version,
)
from .lobby import BotSeat, TableOptions, Timing
from .missed import CatchUpMsg
from .players import (
    GetRecordMsg,
    ListGamesMsg,
    NewDeviceCodeMsg,
    RedeemCodeMsg,
    RegisterMsg,
    RejoinMsg,
    ShowLeaderboardMsg,
    ShowProfileMsg,
    SignInMsg,
)

__all__ = [
    "CLIENT_MESSAGES",
    "BackMsg",
    "ChatMsg",
    "ClaimMsg",
    "ClientMessage",
    "CreateTableMsg",
    "HelloMsg",
    "JoinMsg",
    "LeaveMsg",
    "ListTablesMsg",
    "PingMsg",
    "ReadyMsg",
    "RematchMsg",
    "ResignMsg",
    "ResumeMsg",
    "TakeMsg",
    "WatchMsg",
]


class HelloMsg(_ClientMsg):
    """First message of every connection."""

    type: Literal["hello"] = "hello"
    protocol: Version
    """``[major, minor]`` the client speaks."""
    client: Name
    """The client program's name, e.g. ``kupferkessel-tui``."""
    client_version: ClientVersion = ""
    combined: bool = False
    """1.1: one ``update`` message per new state instead of ``events`` and ``view``
    frames; your own ``take`` is answered by that ``update`` instead of an ``ack``
    (``resign``, ``claim`` and ``back`` are still answered by ``ack``)."""


class ListTablesMsg(_ClientMsg):
    """Ask for the tables this server has (answered by ``tables``), one page at a time:
    the answer's ``next`` asks for the following page. A plain ``list_tables`` gets the
    first page."""

    type: Literal["list_tables"] = "list_tables"
    cursor: ListCursor | None = None
    """The ``next`` of the previous page: continue after it (absent: the first page)."""
    limit: Annotated[int, Field(ge=1, le=MAX_PAGE)] | None = None
    """At most this many tables (the server may send fewer: a page is capped in bytes)."""
    open_first: bool = False
    """Tables waiting in the lobby with a free seat first, then the others."""


class CreateTableMsg(_ClientMsg):
    """Create a table. With ``player`` you also sit down (in ``seat`` if given, else the
    first free seat) and ``joined`` follows ``table_created``; without, you only create it
    (e.g. to ``watch`` bots play). ``bots`` fill seats with bots of the levels the server
    lists in ``welcome.bot_levels``."""

    type: Literal["create_table"] = "create_table"
    name: TableName
    private: bool = False
    options: TableOptions = TableOptions()
    bots: Annotated[tuple[BotSeat, ...], Field(max_length=3)] = ()
    """Seats to fill with bots."""
    player: Name | None = None
    """Your player name, to sit down at once."""
    seat: SeatNo | None = None
    """The seat you want (with ``player``)."""
    timing: Timing | None = None
    """1.1: a clock and the grace period; absent: no clock (1.2: but at a rated table),
    the default grace."""
    rated: bool = False
    """1.2: a rated table: every seat a signed-in player, no bots, no chosen seed and no
    ``casual`` memory (unless the server allows them), and always a clock (the server's
    time per move if ``timing`` gives none); its result updates ratings."""


class JoinMsg(_ClientMsg):
    """Sit down at a table in the lobby state (``seat`` if given, else the first free)."""

    type: Literal["join"] = "join"
    table: TableId
    player: Name
    """Your player name at this table."""
    invite: Invite | None = None
    """The invite code of a private table."""
    seat: SeatNo | None = None
    """The seat you want; the first free one if absent."""
    seeded: bool = False
    """You know the table is ``seeded`` (its creator chose the deal) and sit down
    anyway; without it a seeded table refuses you with ``not_allowed``."""


class WatchMsg(_ClientMsg):
    """Watch a table as a spectator: you see what spectators see (RULES.md section 9)."""

    type: Literal["watch"] = "watch"
    table: TableId
    invite: Invite | None = None
    """The invite code of a private table."""


class LeaveMsg(_ClientMsg):
    """Leave the table: a seat in the lobby is freed; in a game it stays yours (resume
    with the token) unless you ``resign`` first."""

    type: Literal["leave"] = "leave"


class ResumeMsg(_ClientMsg):
    """Take back a seat after a disconnect, with the token from ``joined``."""

    type: Literal["resume"] = "resume"
    token: SeatToken
    """The seat token from ``joined``."""


class ReadyMsg(_ClientMsg):
    """Ready (or not) to start. The game starts when every seat is filled and every
    human seated is ready (a table of bots only starts at once). No answer on success:
    ``presence`` shows your ``ready`` to everyone at the table, you included; a refusal
    is an ``error`` with ``re``."""

    type: Literal["ready"] = "ready"
    ready: bool = True


class TakeMsg(_ClientMsg):
    """The one decision of a turn, decided on the view of ``state_version``; refused with
    ``stale_state`` if the state has moved on."""

    type: Literal["take"] = "take"
    state_version: StateVersion
    """The ``state_version`` of the view this decision was made on."""
    card: CardId
    """The card id to take from your line."""
    special: bool = True
    """Use the card's symbol (explode or wand)."""
    targets: Annotated[tuple[SeatNo, ...], Field(max_length=2)] | None = None
    """Seats to explode; absent means every other seat, ``[]`` nobody."""
    keep: bool = True
    """For the card that ends the game: keep it (true) or discard it."""


class ResignMsg(_ClientMsg):
    """Give up (answered by ``ack``). With two players the game ends at once for
    everyone (``presence`` shows the table ``finished`` and your seat ``resigned``). With
    three a computer player plays your seat to the end (``presence``: ``resigned`` and
    ``computer``) and you rank last; if only computer players (or one seat) would be
    left, the game ends instead."""

    type: Literal["resign"] = "resign"


class ClaimMsg(_ClientMsg):
    """1.1: with two players, end the game and take the win while your opponent is
    absent. Answered by ``ack``; the final ``view`` carries the result."""

    type: Literal["claim"] = "claim"


class BackMsg(_ClientMsg):
    """1.1: take your seat back from the computer player that plays it while you were
    absent (after your time ran out several moves in a row). Answered by a fresh
    ``view`` (with ``takes`` if your seat is to move), then ``ack``. Resuming after a
    disconnect takes the seat back by itself."""

    type: Literal["back"] = "back"


class RematchMsg(_ClientMsg):
    """1.1: after the end, ask for (or, ``rematch`` false, withdraw) another game with
    the same options and the same people. When every person seated agrees, each seat
    moves one on (colours rotate) and ``rematched`` tells everyone the new table; your
    seat token carries over. No answer on success: ``presence`` shows it."""

    type: Literal["rematch"] = "rematch"
    rematch: bool = True


class ChatMsg(_ClientMsg):
    """Say something to everyone at your table (seats and spectators). No answer on
    success: your line comes back to you as ``chat`` like everyone else's (without
    ``re``); a refusal is an ``error`` with ``re``."""

    type: Literal["chat"] = "chat"
    text: ChatText


class PingMsg(_ClientMsg):
    """Keep the connection alive and measure latency (answered by ``pong``)."""

    type: Literal["ping"] = "ping"


ClientMessage = Annotated[
    HelloMsg
    | ListTablesMsg
    | CreateTableMsg
    | JoinMsg
    | WatchMsg
    | LeaveMsg
    | ResumeMsg
    | ReadyMsg
    | TakeMsg
    | ResignMsg
    | ChatMsg
    | PingMsg
    | ClaimMsg
    | BackMsg
    | RematchMsg
    | RegisterMsg
    | SignInMsg
    | NewDeviceCodeMsg
    | RedeemCodeMsg
    | RejoinMsg
    | ShowProfileMsg
    | ListGamesMsg
    | GetRecordMsg
    | ShowLeaderboardMsg
    | ListDevicesMsg
    | RevokeDeviceMsg
    | CatchUpMsg
    | AnalyseGameMsg
    | AskHintMsg,
    Field(discriminator="type"),
]

CLIENT_MESSAGES: dict[str, type[BaseModel]] = by_tag(ClientMessage, "type")
"""Client message models by ``type``."""
