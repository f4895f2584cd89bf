"""Protocol v1 message models: every message either side may send (docs/PROTOCOL.md).

Every message is a msgpack map with a ``type`` field naming it. Client messages carry an
``id`` chosen by the client; server messages carry ``seq`` (1, 2, 3, ... per connection)
and ``re``, the ``id`` of the client message they answer (absent when unsolicited).

Conventions, the same in both directions:

- Unknown fields are ignored (``extra="ignore"``), so a minor version may add fields.
  A client must check the server's minor version in ``welcome`` before relying on a
  field added in a later minor version: an older server silently ignores it.
- A field at its default value may be omitted; absent means the default (null for an
  optional field). The codec omits them, as protobuf does, to keep frames small; the
  tags ``type`` (of a message) and ``kind`` (of an event) are always present.
- Validation is strict: an integer field takes only integers (not booleans, floats or
  strings), a boolean only true/false, an array only arrays.
- Client fields are bounded (names, chat, ids; see ``Limits``). Server fields are only
  typed, so that a server may raise its limits without breaking clients.

The game-state models (``GameView``, the events, ``Score``) mirror ``shared.view``,
``shared.events`` and ``shared.scoring`` field for field; ``protocol.convert`` builds
them, and a test fails if the dataclasses gain a field these models lack.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any, Literal, get_args

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    field_validator,
    model_serializer,
)

from shared.cards import ThirdColour
from shared.events import ExplodedTo
from shared.options import Memory, StartCard
from shared.result import Ending

__all__ = [
    "CLIENT_MESSAGES",
    "DEFAULT_LIMITS",
    "EVENT_MODELS",
    "MAX_ID",
    "MINOR_1_0",
    "PRINTABLE_PATTERN",
    "PROTOCOL_VERSION",
    "SERVER_MESSAGES",
    "SUBPROTOCOL",
    "SUPPORTED_MAJORS",
    "AckMsg",
    "BackMsg",
    "BotSeat",
    "ByeMsg",
    "CardInfo",
    "Catalogue",
    "ChatLineMsg",
    "ChatMsg",
    "ClaimMsg",
    "ClientMessage",
    "ClockInfo",
    "CreateTableMsg",
    "DiscardedEvent",
    "ErrorCode",
    "ErrorMsg",
    "EventsMsg",
    "ExplodedEvent",
    "ExtraTurnEvent",
    "GameEvent",
    "GameOverEvent",
    "GameView",
    "HelloMsg",
    "IngredientScore",
    "JoinMsg",
    "JoinedMsg",
    "KettleState",
    "LeaveMsg",
    "LeftMsg",
    "Limits",
    "ListTablesMsg",
    "MovedEvent",
    "PassedCornerEvent",
    "PingMsg",
    "PongMsg",
    "PresenceMsg",
    "ReadyMsg",
    "RecipeInfo",
    "RecipeScore",
    "RefilledEvent",
    "RematchMsg",
    "RematchedMsg",
    "ResignMsg",
    "ResultInfo",
    "ResumeMsg",
    "ResumedMsg",
    "Score",
    "SeatInfo",
    "ServerMessage",
    "TableCreatedMsg",
    "TableOptions",
    "TableSummary",
    "TablesMsg",
    "TakeChoice",
    "TakeMsg",
    "TakeOption",
    "TimedOutEvent",
    "Timing",
    "TookEvent",
    "TurnPassedEvent",
    "UpdateMsg",
    "ViewMsg",
    "WatchMsg",
    "WatchingMsg",
    "WelcomeMsg",
]

PROTOCOL_VERSION: tuple[int, int] = (1, 1)
"""The version this package speaks: (major, minor). Minor versions only add."""
MINOR_1_0: tuple[int, int] = (1, 0)
"""Protocol 1.0: a session that says it in ``hello`` gets exactly the 1.0 messages."""
SUPPORTED_MAJORS: tuple[int, ...] = (1,)
"""Major versions a server built on this package accepts in ``hello``."""
SUBPROTOCOL = "kupferkessel.v1"
"""The WebSocket subprotocol (``Sec-WebSocket-Protocol``) of major version 1."""
MAX_ID = 2**53 - 1
"""Largest client message id (and seed): exact in every language, JavaScript included."""


class ErrorCode(StrEnum):
    """Stable error codes of ``error`` messages (docs/PROTOCOL.md, "Error codes").

    Clients must treat a code they do not know as a generic error: a minor version may
    add codes.
    """

    MALFORMED = "malformed"  # not a msgpack map with a string ``type``
    UNKNOWN_TYPE = "unknown_type"  # a ``type`` this server does not know
    INVALID_FIELD = "invalid_field"  # a field missing, of the wrong type or out of bounds
    TOO_LARGE = "too_large"  # the frame exceeds ``limits.max_frame``
    RATE_LIMITED = "rate_limited"  # too many messages; this one was dropped
    VERSION_UNSUPPORTED = "version_unsupported"  # ``hello`` asked for a major we lack
    HELLO_REQUIRED = "hello_required"  # anything but ``hello`` before ``welcome``
    NOT_ALLOWED = "not_allowed"  # the message is not allowed in this session state
    NOT_YOUR_TURN = "not_your_turn"
    STALE_STATE = "stale_state"  # ``take.state_version`` is not the current version
    ILLEGAL_MOVE = "illegal_move"  # the engine refused the take; ``detail`` says why
    BAD_TOKEN = "bad_token"  # ``resume`` with an unknown or revoked seat token
    NOT_SEATED = "not_seated"  # a seat-only message from a spectator or lobby session
    TABLE_FULL = "table_full"
    SEAT_TAKEN = "seat_taken"  # the requested seat is occupied
    NO_SUCH_TABLE = "no_such_table"
    BAD_INVITE = "bad_invite"  # a private table's invite code is missing or wrong
    BAD_OPTIONS = "bad_options"  # ``create_table`` options or bots cannot be played
    NOT_IN_LOBBY = "not_in_lobby"  # the table has started: seats can no longer change
    NOT_STARTED = "not_started"  # ``take`` or ``resign`` before the game has started
    ALREADY_SEATED = "already_seated"  # this session is already at a table
    GAME_OVER = "game_over"  # the game has ended
    CANNOT_CLAIM = "cannot_claim"  # 1.1: ``claim`` while no opponent is absent
    NOT_FINISHED = "not_finished"  # 1.1: ``rematch`` before the game has ended
    SERVER_FULL = "server_full"  # no room for another table or connection
    INTERNAL = "internal"  # a server bug; the message was not applied


class _Model(BaseModel):
    model_config = ConfigDict(
        strict=True, extra="ignore", frozen=True, use_attribute_docstrings=True
    )


def _tag_required(schema: dict[str, Any], cls: type) -> None:
    """The tag has a default in Python but is required on the wire."""
    props = schema.get("properties", {})
    tag = "type" if "type" in props else "kind"
    schema["required"] = [tag, *schema.get("required", [])]


class _Tagged(_Model):
    """A model named by a tag field (``type`` of a message, ``kind`` of an event) that
    is always serialized, even when the codec leaves out fields at their default."""

    model_config = ConfigDict(json_schema_extra=_tag_required)

    @model_serializer(mode="wrap")
    def _keep_tag(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        tag = "type" if "type" in type(self).model_fields else "kind"
        return {tag: getattr(self, tag), **data}


class Limits(_Model):
    """What the server enforces, announced in ``welcome`` (``DEFAULT_LIMITS`` are this
    package's). Fields are required: a client must see every figure."""

    max_frame: int
    """Bytes of one client frame."""
    max_name: int
    """Characters of a player name."""
    max_table_name: int
    """Characters of a table name."""
    max_chat: int
    """Characters of one chat line."""
    rate_messages: int
    """Client messages allowed per ``rate_window`` seconds, on average ..."""
    rate_window: int
    """Seconds."""
    rate_burst: int
    """... with bursts of up to this many; more are refused with ``rate_limited``."""
    chat_per_minute: int
    """Chat lines per minute."""
    idle_timeout: int
    """Seconds without any client message (``ping`` counts) before ``bye``."""


DEFAULT_LIMITS = Limits(
    max_frame=16384,
    max_name=32,
    max_table_name=48,
    max_chat=280,
    rate_messages=20,
    rate_window=1,
    rate_burst=40,
    chat_per_minute=20,
    idle_timeout=300,
)


# --------------------------------------------------------------------- field types
PRINTABLE_PATTERN = r"^[^\x00-\x1f\x7f-\x9f]*$"  # no control characters (no newlines either)
_TOKEN = r"^[A-Za-z0-9_-]+$"

MsgId = Annotated[int, Field(ge=0, le=MAX_ID)]
ListCursor = Annotated[str, Field(min_length=1, max_length=32, pattern=r"^[a-z][0-9]+$")]
MAX_PAGE = 500
"""The most tables ``list_tables.limit`` may ask for."""
SeatNo = Annotated[int, Field(ge=0, le=2)]
StateVersion = Annotated[int, Field(ge=0, le=MAX_ID)]
Name = Annotated[
    str, Field(min_length=1, max_length=DEFAULT_LIMITS.max_name, pattern=PRINTABLE_PATTERN)
]
TableName = Annotated[
    str, Field(min_length=1, max_length=DEFAULT_LIMITS.max_table_name, pattern=PRINTABLE_PATTERN)
]
ChatText = Annotated[
    str, Field(min_length=1, max_length=DEFAULT_LIMITS.max_chat, pattern=PRINTABLE_PATTERN)
]
ClientVersion = Annotated[str, Field(max_length=32, pattern=PRINTABLE_PATTERN)]
TableId = Annotated[str, Field(min_length=1, max_length=32, pattern=_TOKEN)]
Invite = Annotated[str, Field(min_length=1, max_length=64, pattern=_TOKEN)]
SeatToken = Annotated[str, Field(min_length=16, max_length=128, pattern=_TOKEN)]
CardId = Annotated[str, Field(min_length=1, max_length=40, pattern=r"^[a-z_]+-[1-4]$")]
BotLevel = Annotated[str, Field(min_length=1, max_length=32, pattern=r"^[a-z0-9_]+$")]
Version = tuple[
    Annotated[int, Field(ge=0, le=65535)],
    Annotated[int, Field(ge=0, le=65535)],
]
TableState = Literal["lobby", "playing", "finished"]


# --------------------------------------------------------------------- shared parts
Seconds = Annotated[int, Field(ge=0, le=86400)]


class Timing(_Model):
    """1.1: a table's time rules (RULES.md section 12.5), chosen at ``create_table`` and
    listed in ``tables``. Without ``move`` there is no clock."""

    move: Annotated[int, Field(ge=1, le=86400)] | None = None
    """Seconds per move; when they (and the reserve) run out, a computer player moves
    for the seat. Absent: no clock."""
    reserve: Seconds = 0
    """Seconds each seat may use beyond its move times, over the whole game."""
    grace: Seconds = 60
    """Seconds a disconnected seat waits before a computer player takes it over."""
    absent_after: Annotated[int, Field(ge=1, le=100)] = 3
    """Expiries in a row after which a seat counts as absent."""


class TableOptions(_Model):
    """Table options (RULES.md section 10). ``seed`` is accepted from ``create_table``
    for a reproducible deal (the server may refuse it with ``bad_options``) and is never
    sent by the server: it fixes the secret deck order."""

    players: Literal[2, 3] = 2
    """2 or 3 seats (RULES.md section 7)."""
    recipes: bool = False
    """The recipe variant (section 8)."""
    start_card: StartCard = "no_player_colors"
    """How a starting kettle card is drawn (section 3)."""
    memory: Memory = "strict"
    """``casual``: each seat sees its own whole kettle."""
    third_colour: ThirdColour = "lilac"
    """The third seat's colour (3 players)."""
    seed: Annotated[int, Field(ge=0, le=MAX_ID)] | None = None
    """Client to server only: a reproducible deal. Never sent by a server."""

    @field_validator("players", mode="before")
    @classmethod
    def _players_is_an_integer(cls, value: Any) -> Any:
        """A literal 2 or 3 matches the float 2.0 too (equal numbers): integers only,
        as for every other number of the protocol."""
        if type(value) is not int:
            raise ValueError("must be the integer 2 or 3")
        return value


class CardInfo(_Model):
    """One ingredient card (RULES.md section 1)."""

    id: str
    """``<ingredient>-<value>``, e.g. ``pumpkin-4``: how every message names a card."""
    ingredient: str
    """The ingredient key, e.g. ``pumpkin``."""
    colour: str
    value: int
    plant: bool
    symbol: str | None = None
    """``explode``, ``wand``, or absent."""


class RecipeInfo(_Model):
    """One recipe card (RULES.md section 8); ``colour`` or ``measure`` parameterise it."""

    id: str
    kind: str
    """``both_of_colour``, ``one_of_colour``, ``last_card``, ``fewer`` or ``plants``."""
    bonus: int
    three_players: bool
    """Used in three-player games."""
    colour: str | None = None
    measure: str | None = None
    """For ``fewer``: ``explode``, ``wand``, ``cards`` or ``fours``."""


class Catalogue(_Model):
    """The whole card set, so a client needs nothing but the protocol."""

    colours: tuple[str, ...]
    """All seven colours."""
    player_colours: tuple[str, ...]
    """``white`` and ``black``: seats 0 and 1."""
    third_colours: tuple[str, ...]
    """The colours seat 2 may have."""
    cards: tuple[CardInfo, ...]
    recipes: tuple[RecipeInfo, ...]


class SeatInfo(_Model):
    """One seat of a table as everyone may see it."""

    seat: int
    name: str | None = None
    """Absent while the seat is empty."""
    connected: bool = False
    """A person (or bot) is connected for this seat now."""
    bot: str | None = None
    """The bot level, when a bot plays this seat."""
    ready: bool = False
    """Ready to start (lobby)."""
    resigned: bool = False
    """The seat resigned the game."""
    absent: bool = False
    """1.1: the seat's person is away (disconnected past the grace period, or its time
    ran out several moves in a row)."""
    computer: bool = False
    """1.1: a computer player plays this person's seat now (absent, or resigned with
    three players)."""
    rematch: bool = False
    """1.1: after the end, this seat asked for a rematch."""


class TableSummary(_Model):
    """A table as listed in ``tables``."""

    id: str
    """The table id to ``join`` or ``watch``."""
    name: str
    private: bool
    """Joining or watching needs the invite code."""
    state: TableState
    options: TableOptions
    """The table options (never the seed)."""
    seats: tuple[SeatInfo, ...]
    spectators: int
    """Connections watching."""
    seeded: bool = False
    """The creator chose the deal's seed (``options.seed``), so may know every card of
    it: ``join`` needs ``seeded`` to sit down here."""
    timing: Timing | None = None
    """1.1: the table's clock and grace period."""


class BotSeat(_Model):
    """A seat to fill with a bot."""

    seat: SeatNo
    level: BotLevel
    """One of ``welcome.bot_levels``."""


# --------------------------------------------------------------------- game state
class KettleState(_Model):
    """One seat's kettle as you may see it."""  # mirrors shared.view.KettleView

    seat: int
    colour: str
    count: int
    """Cards in the kettle."""
    top: str | None = None
    """The top card, visible to all; absent for an empty kettle."""
    cards: tuple[str, ...] | None = None
    """Every card, bottom first: only your own under ``memory=casual``, everyone's at the end."""


class TakeChoice(_Model):
    """A card the player to move may take."""  # mirrors shared.view.TakeChoice

    card: str
    row: int
    """Grid row 0..5 (top to bottom)."""
    col: int
    """Grid column 0..5 (left to right)."""
    symbol: str | None = None
    """``explode`` or ``wand`` if the symbol would act; absent otherwise."""
    ends_game: bool = False
    """Taking it ends the game: ``keep`` decides keep or discard."""


class IngredientScore(_Model):
    """One ingredient of a kettle at the end."""  # mirrors shared.scoring.IngredientScore

    ingredient: str
    colour: str
    cards: tuple[str, ...]
    points: int
    """Card points, doubled in the seat's own colour."""
    doubled: bool
    bonus: int
    """+5 for all four cards, never doubled."""
    total: int
    """``points + bonus``."""


class RecipeScore(_Model):
    """One recipe card of a seat at the end."""

    id: str
    met: bool
    bonus: int
    """The bonus earned: the card's bonus if met, else 0."""


class Score(_Model):
    """One seat's final score with its breakdown."""  # mirrors shared.scoring.Score

    seat: int
    colour: str
    kettle: tuple[str, ...]
    """Every kettle card, bottom first."""
    ingredients: tuple[IngredientScore, ...]
    value_ones: int
    """Value-1 cards held."""
    value_one_bonus: int
    """5 for the one seat with strictly the most value-1 cards."""
    recipes: tuple[RecipeScore, ...]
    total: int


class ResultInfo(_Model):
    """1.1: how a game ended (RULES.md section 12)."""  # mirrors shared.result.GameResult

    ending: Ending
    winners: tuple[int, ...]
    """The seats that won (none for an abandoned game)."""
    places: tuple[int, ...]
    """Each seat's place: 1 for the winners, ties share a place."""
    totals: tuple[int, ...]
    """Each seat's score of the final position (scored as it stands)."""
    resigned: tuple[int, ...] = ()
    """Seats that resigned, in order."""
    replaced: tuple[int, ...] = ()
    """Seats a computer player played for at some point."""
    timed_out: tuple[int, ...] = ()
    """Seats taken over after time-outs in a row."""
    claimed_by: int | None = None
    """The seat that claimed the win (``ending`` ``claimed``)."""


class ClockInfo(_Model):
    """1.1: a clocked table's times, as of when the view was made."""

    # mirrors shared.clock.ClockView

    move_ms: int
    """Milliseconds per move."""
    running: int | None = None
    """The seat whose time is running; absent between moves and once over."""
    left_ms: tuple[int, ...]
    """Per seat: milliseconds left (for ``running``, until a computer moves for it)."""
    reserve_ms: tuple[int, ...]
    """Per seat: milliseconds of reserve left."""


class TakeOption(_Model):
    """1.1: one legal decision, exactly the fields of a ``take`` that makes it."""

    card: str
    special: bool = True
    targets: tuple[int, ...] | None = None
    keep: bool = True


class GameView(_Model):
    """The game as one seat (or a spectator, ``seat`` absent) may see it (RULES.md
    section 9)."""  # mirrors shared.view.View

    seat: int | None = None
    """Your seat; absent for a spectator."""
    players: int
    options: TableOptions
    """The public table options."""
    colours: tuple[str, ...]
    """Each seat's colour, in turn order."""
    grid: tuple[tuple[str | None, ...], ...]
    """6 rows of 6 card ids; null for a corner or an empty slot."""
    pawns: tuple[int, ...]
    """Each seat's pawn space 0..19, clockwise from the top-left corner."""
    deck_size: int
    """Cards left in the deck (never their order)."""
    kettles: tuple[KettleState, ...]
    recipes: tuple[tuple[str, ...] | None, ...]
    """Per seat: its recipe ids, or null where hidden from you."""
    recipe_counts: tuple[int, ...]
    """Recipe cards each seat holds."""
    removed: tuple[str, ...]
    """Cards out of the game (discarded, exploded into an empty deck)."""
    ply: int
    """Takes applied so far."""
    to_move: int | None = None
    """The seat to take now; absent once the game is over."""
    turn_in_row: int
    """1, or 2 during a wand's extra turn."""
    line: str | None = None
    """The line the player to move takes from (``col1``..``col4``, ``row1``..``row4``)."""
    choices: tuple[TakeChoice, ...]
    """The cards the player to move may take."""
    explodable: tuple[int, ...]
    """Seats an explosion would hit now (kettles of 2+ cards)."""
    game_over: bool
    ended_by: int | None = None
    """The seat that took the last card (game over only)."""
    winners: tuple[int, ...]
    """Seats with the highest total (ties share the win)."""
    scores: tuple[Score, ...] | None = None
    """The full breakdown per seat, once the game is over."""
    result: ResultInfo | None = None
    """1.1: how the game ended, in the final view (every ending)."""
    clock: ClockInfo | None = None
    """1.1: the times of a clocked table."""
    takes: tuple[TakeOption, ...] | None = None
    """1.1, the seat to move only: every distinct legal decision (send one as ``take``)."""


class MovedEvent(_Tagged):
    """A pawn moved clockwise (forced: movement is not an action)."""

    kind: Literal["moved"] = "moved"
    seat: int
    from_space: int
    to_space: int
    skipped: tuple[int, ...]
    """Occupied spaces passed over, not counted."""


class PassedCornerEvent(_Tagged):
    """The pawn stopped next to a corner: the turn ends with nothing taken."""

    kind: Literal["passed_corner"] = "passed_corner"
    seat: int
    space: int


class TookEvent(_Tagged):
    """A card was taken from the grid."""

    kind: Literal["took"] = "took"
    seat: int
    card: str
    line: str
    row: int
    col: int
    special: bool
    """Whether the card's symbol was used."""
    ends_game: bool


class ExplodedEvent(_Tagged):
    """An exploding kettle sent ``target``'s top kettle card away."""

    kind: Literal["exploded"] = "exploded"
    seat: int
    """The seat that exploded."""
    target: int
    """The seat whose top kettle card went."""
    card: str
    to: ExplodedTo
    """``deck`` (under it) or ``removed`` (the deck was empty: out of the game, listed
    in ``view.removed``)."""


class ExtraTurnEvent(_Tagged):
    """A wand: ``seat`` plays again at once."""

    kind: Literal["extra_turn"] = "extra_turn"
    seat: int


class RefilledEvent(_Tagged):
    """The deck's top card filled the slot at ``row``, ``col``."""

    kind: Literal["refilled"] = "refilled"
    row: int
    col: int
    card: str
    """The deck's top card, now in the slot just emptied."""


class DiscardedEvent(_Tagged):
    """The game-ending card was discarded instead of kept."""

    kind: Literal["discarded"] = "discarded"
    seat: int
    card: str


class TurnPassedEvent(_Tagged):
    """It is now ``seat``'s turn."""

    kind: Literal["turn_passed"] = "turn_passed"
    seat: int
    """The seat whose turn it now is."""


class TimedOutEvent(_Tagged):
    """1.1: ``seat``'s time ran out; a computer player made its move (the events that
    follow)."""

    kind: Literal["timed_out"] = "timed_out"
    seat: int


class GameOverEvent(_Tagged):
    """The game ended: every kettle and recipe revealed with the scores."""

    kind: Literal["game_over"] = "game_over"
    ended_by: int
    """The seat that took the last card."""
    winners: tuple[int, ...]
    scores: tuple[Score, ...]


GameEvent = Annotated[
    MovedEvent
    | PassedCornerEvent
    | TookEvent
    | ExplodedEvent
    | ExtraTurnEvent
    | RefilledEvent
    | DiscardedEvent
    | TurnPassedEvent
    | GameOverEvent
    | TimedOutEvent,
    Field(discriminator="kind"),
]


# --------------------------------------------------------------------- client -> server
class _ClientMsg(_Tagged):
    id: MsgId
    """Chosen by the client (unique per connection, e.g. 1, 2, 3...); echoed as ``re``."""


class HelloMsg(_ClientMsg):
    """First message of every connection."""

    type: Literal["hello"] = "hello"
    protocol: Version
    """``[major, minor]`` the client speaks."""
    client: Name
    """The client program's name, e.g. ``kupferkessel-tui``."""
    client_version: ClientVersion = ""
    combined: bool = False
    """1.1: one ``update`` message per new state instead of ``events``, ``view`` and
    ``ack`` frames."""


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
    """1.1: a clock and the grace period; absent: no clock, the default grace."""


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
    """Give up: the game ends at once for everyone (``presence`` shows the table
    ``finished`` and your seat ``resigned``); nobody plays your seat any more."""

    type: Literal["resign"] = "resign"


class ClaimMsg(_ClientMsg):
    """1.1: with two players, end the game and take the win while your opponent is
    absent. Answered by ``ack``; the final ``view`` carries the result."""

    type: Literal["claim"] = "claim"


class BackMsg(_ClientMsg):
    """1.1: take your seat back from the computer player that plays it while you were
    absent (after your time ran out several moves in a row). Answered by ``ack``.
    Resuming after a disconnect takes the seat back by itself."""

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
    | RematchMsg,
    Field(discriminator="type"),
]


# --------------------------------------------------------------------- server -> client
class _ServerMsg(_Tagged):
    seq: int = 0
    """1, 2, 3, ... per connection with no gaps (``welcome`` is 1)."""
    re: int | None = None
    """The ``id`` of the client message this answers; absent when unsolicited."""


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
    """The answer to ``create_table`` (followed by ``joined``). ``invite`` is the code
    others need to join or watch a private table."""

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
    """You watch ``table``; ``presence`` and, once playing, ``view`` follow."""

    type: Literal["watching"] = "watching"
    table: str


class LeftMsg(_ServerMsg):
    """You left ``table`` (the answer to ``leave``)."""

    type: Literal["left"] = "left"
    table: str


class ResumedMsg(_ServerMsg):
    """You have ``seat`` back (the answer to ``resume``); ``presence`` and ``view`` follow."""

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
    events: tuple[GameEvent, ...]


class UpdateMsg(_ServerMsg):
    """1.1, asked for with ``hello.combined``: one new state in one message, in place of
    ``events``, ``view`` and (for your own take) ``ack``. With ``re`` it answers your
    ``take``."""

    type: Literal["update"] = "update"
    state_version: int
    events: tuple[GameEvent, ...] = ()
    """The public events that led here (possibly none)."""
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
    """Your ``take`` was applied; the game is now at ``state_version``."""

    type: Literal["ack"] = "ack"
    state_version: int


class ErrorMsg(_ServerMsg):
    """Your message (``re``) was refused, or the connection broke a rule. Nothing
    changed. ``detail`` refines ``code``: for ``illegal_move`` the engine's reason
    (``not_in_line``, ``bad_target``, ``unknown_card``, ``bad_action``, ...)."""

    type: Literal["error"] = "error"
    code: str
    """A stable error code (see ErrorCode)."""
    message: str
    """For humans; may change between versions."""
    detail: str | None = None
    """Refines ``code``: the engine's reason for ``illegal_move``."""


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
    | RematchedMsg,
    Field(discriminator="type"),
]


def _by_tag(union: Any, tag: str) -> dict[str, type[BaseModel]]:
    members: tuple[type[BaseModel], ...] = get_args(get_args(union)[0])
    return {m.model_fields[tag].default: m for m in members}


CLIENT_MESSAGES: dict[str, type[BaseModel]] = _by_tag(ClientMessage, "type")
"""Client message models by ``type``."""
SERVER_MESSAGES: dict[str, type[BaseModel]] = _by_tag(ServerMessage, "type")
"""Server message models by ``type``."""
EVENT_MODELS: dict[str, type[BaseModel]] = _by_tag(GameEvent, "kind")
"""Event models by ``kind``."""
