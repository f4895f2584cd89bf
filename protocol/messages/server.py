"""Server to client: every message a server sends, each with its ``seq`` and ``re``.

``ServerMessage`` is their union by ``type``, the one thing ``decode_server`` accepts.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from .analysis import AnalysisMsg, HintMsg
from .base import by_tag
from .catalogue import Catalogue
from .devices import DevicesMsg
from .envelope import ServerMsg as _ServerMsg
from .events import GameEvent
from .fields import ListCursor, TableState
from .limits import Limits
from .lobby import SeatInfo, TableSummary
from .missed import MissedMsg
from .players import (
    DeviceCodeMsg,
    GamesMsg,
    LeaderboardMsg,
    ProfileMsg,
    RecordMsg,
    SignedInMsg,
)
from .view import GameView

__all__ = [
    "SERVER_MESSAGES",
    "AckMsg",
    "ByeMsg",
    "ChatLineMsg",
    "ErrorMsg",
    "EventsMsg",
    "JoinedMsg",
    "LeftMsg",
    "PongMsg",
    "PresenceMsg",
    "RematchedMsg",
    "ResumedMsg",
    "ServerMessage",
    "TableCreatedMsg",
    "TablesMsg",
    "UpdateMsg",
    "ViewMsg",
    "WatchingMsg",
    "WelcomeMsg",
]


class WelcomeMsg(_ServerMsg):
    """The answer to ``hello``: what this server speaks, its limits and the card set."""

    type: Literal["welcome"] = "welcome"
    protocol: tuple[int, int]
    """``[major, minor]`` the server speaks."""
    server: str
    server_version: str
    limits: Limits
    catalogue: Catalogue
    bot_levels: tuple[str, ...] = ()
    """Bot levels ``create_table.bots`` may ask for."""


class TablesMsg(_ServerMsg):
    """The answer to ``list_tables``: one page of the public tables (the table you are
    at comes first on the first page, even if private)."""

    type: Literal["tables"] = "tables"
    tables: tuple[TableSummary, ...]
    next: ListCursor | None = None
    """Ask ``list_tables`` with this ``cursor`` for the following page; absent on the last."""
    total: int | None = None
    """How many public tables there are (all pages)."""


class TableCreatedMsg(_ServerMsg):
    """The answer to ``create_table``; with ``player``, a ``presence`` showing you
    seated and then ``joined`` follow. ``invite`` is the code others need to join or
    watch a private table. ``table`` is the table as made, before you sit down: your
    seat is still empty there."""

    type: Literal["table_created"] = "table_created"
    table: TableSummary
    invite: str | None = None
    """The invite code of a private table (share it with friends)."""


class JoinedMsg(_ServerMsg):
    """You sit at ``seat`` of ``table``. ``token`` is a secret: with it anyone can play
    this seat. Keep it (user-only permissions), never log or show it."""

    type: Literal["joined"] = "joined"
    table: str
    seat: int
    token: str
    """A secret: it gives this seat to whoever holds it."""


class WatchingMsg(_ServerMsg):
    """You watch ``table``; once playing ``view`` follows, then ``presence``."""

    type: Literal["watching"] = "watching"
    table: str


class LeftMsg(_ServerMsg):
    """You left ``table`` (the answer to ``leave``)."""

    type: Literal["left"] = "left"
    table: str


class ResumedMsg(_ServerMsg):
    """You have ``seat`` back (the answer to ``resume``); ``view`` (once playing) and
    ``presence`` follow, in that order."""

    type: Literal["resumed"] = "resumed"
    table: str
    seat: int


class ViewMsg(_ServerMsg):
    """A full snapshot of the game as you may see it, at ``state_version``."""

    type: Literal["view"] = "view"
    state_version: int
    """Increases by one with every applied take."""
    view: GameView


class EventsMsg(_ServerMsg):
    """Public events (in order) that led to ``state_version``; a ``view`` follows."""

    type: Literal["events"] = "events"
    state_version: int
    """The version these events lead to."""
    by_computer: bool = False
    """1.4: a computer player made this take for a person's seat (see ``missed``)."""
    events: tuple[GameEvent, ...]


class UpdateMsg(_ServerMsg):
    """1.1, asked for with ``hello.combined``: one new state in one message, in place of
    ``events``, ``view`` and (for your own take) ``ack``. With ``re`` it answers your
    ``take``."""

    type: Literal["update"] = "update"
    state_version: int
    by_computer: bool = False
    """1.4: a computer player made this take for a person's seat (see ``missed``)."""
    events: tuple[GameEvent, ...] = ()
    """The public events that led here. None (a fresh view: after ``watch``,
    ``resume``, ``back``, or an early ending) leaves the key out, as every default."""
    view: GameView


class RematchedMsg(_ServerMsg):
    """1.1: the rematch starts at ``table`` (same options, colours rotated); you sit at
    ``seat`` (absent for a spectator, who now watches it). Your token carries over."""

    type: Literal["rematched"] = "rematched"
    table: str
    seat: int | None = None


class PresenceMsg(_ServerMsg):
    """Who is at your table now; sent whenever it changes."""

    type: Literal["presence"] = "presence"
    table: str
    state: TableState
    """``lobby``, ``playing`` or ``finished``."""
    seats: tuple[SeatInfo, ...]
    spectators: int


class ChatLineMsg(_ServerMsg):
    """A chat line at your table; ``seat`` absent for a spectator."""

    type: Literal["chat"] = "chat"
    seat: int | None = None
    """The speaker's seat; absent for a spectator."""
    name: str
    """A seat's name at the table; a spectator's always ends in ``(spectator)``, so it
    never reads as a seated player's."""
    text: str


class AckMsg(_ServerMsg):
    """Your ``take`` (on 1.0, or without ``hello.combined``), ``resign``, ``claim`` or
    ``back`` was applied; the game is now at ``state_version``."""

    type: Literal["ack"] = "ack"
    state_version: int


class ErrorMsg(_ServerMsg):
    """Your message (``re``) was refused, or the connection broke a rule. Nothing
    changed. ``detail`` refines ``code``: for ``illegal_move`` the engine's reason
    (``not_in_line``, ``bad_target``, ``unknown_card``, ``bad_action``, ...); ``field``,
    ``until``, ``versions`` and ``limit`` give a refusal's particulars, so a client can
    say it in its own words."""

    type: Literal["error"] = "error"
    code: str
    """A stable error code (see ErrorCode)."""
    message: str
    """For humans; may change between versions."""
    detail: str | None = None
    """Refines ``code``: the engine's reason for ``illegal_move``; ``seeded`` or
    ``protocol_1_0`` for ``not_allowed`` (see the error codes)."""
    retry_after: int | None = None
    """1.3, with ``rate_limited`` for a request that costs a slow hash (``register``,
    ``sign_in``, ``redeem_code``, ``new_device_code``): seconds to wait before asking
    again."""
    field: str | None = None
    """1.5, with ``invalid_field``: the refused field, by its path in the request
    (``card``, ``options.players``, ``since``); absent where no one field is at fault."""
    until: int | None = None
    """With ``banned`` and ``muted`` (any version): when the sanction ends (Unix
    seconds)."""
    until_lifted: bool = False
    """With ``banned`` and ``muted`` (any version): the sanction lasts until the
    operator lifts it."""
    versions: tuple[tuple[int, int], ...] = ()
    """With ``version_unsupported`` (any version): the newest version of each major
    this server speaks (``[[1, 5]]``: 1.0 to 1.5)."""
    limit: str | None = None
    """1.6, with ``server_full`` answering ``create_table`` (or a ``rematch``): the limit
    that refused the new table: ``tables`` (the server's table limit), ``lobby`` (tables
    you made wait in the lobby), ``unattended`` (games you started run with nobody
    connected), ``bots`` (games of bots only you started run). A client says each in its
    own words and treats a value it does not know as ``server_full`` alone."""


class PongMsg(_ServerMsg):
    """The answer to ``ping``."""

    type: Literal["pong"] = "pong"


class ByeMsg(_ServerMsg):
    """The server is closing this connection, and why (an error code or ``shutdown``,
    ``idle``, ``replaced``)."""

    type: Literal["bye"] = "bye"
    reason: str
    """An error code, or ``shutdown``, ``idle``, ``replaced``."""
    message: str = ""


ServerMessage = Annotated[
    WelcomeMsg
    | TablesMsg
    | TableCreatedMsg
    | JoinedMsg
    | WatchingMsg
    | LeftMsg
    | ResumedMsg
    | ViewMsg
    | EventsMsg
    | PresenceMsg
    | ChatLineMsg
    | AckMsg
    | ErrorMsg
    | PongMsg
    | ByeMsg
    | UpdateMsg
    | RematchedMsg
    | SignedInMsg
    | DeviceCodeMsg
    | ProfileMsg
    | GamesMsg
    | RecordMsg
    | LeaderboardMsg
    | DevicesMsg
    | MissedMsg
    | AnalysisMsg
    | HintMsg,
    Field(discriminator="type"),
]

SERVER_MESSAGES: dict[str, type[BaseModel]] = by_tag(ServerMessage, "type")
"""Server message models by ``type``."""
