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

The models live in one module per topic; import them from here:

- ``version``: ``PROTOCOL_VERSION``, ``SUBPROTOCOL`` and the majors a server accepts.
- ``errors``: ``ErrorCode``, the stable codes of ``error`` messages.
- ``limits``: ``Limits`` and ``DEFAULT_LIMITS``, announced in ``welcome``.
- ``fields``: the bounded field types (names, ids, tokens, ``MAX_ID``, ``MAX_PAGE``).
- ``catalogue``: the card set (``Catalogue``, ``CardInfo``, ``RecipeInfo``).
- ``lobby``: tables as listed (``TableOptions``, ``Timing``, ``SeatInfo``, ...).
- ``view``: ``GameView`` and its parts (kettles, scores, result, clock).
- ``events``: the public game events, ``GameEvent`` and ``EVENT_MODELS``.
- ``client``: client-to-server messages, ``ClientMessage`` and ``CLIENT_MESSAGES``.
- ``server``: server-to-client messages, ``ServerMessage`` and ``SERVER_MESSAGES``.
- ``players``: 1.2's registered players, profiles, games, records, leaderboard.
- ``devices``: 1.3's list of a player's devices and their revocation.
- ``missed``: 1.4's moves a client missed (``catch_up``, ``missed``).
- ``analysis``: 1.5's analysis of a finished game (``analyse_game``, ``analysis``) and
  hints (``ask_hint``, ``hint``).
- ``base``: the model bases they all share.

The field types and the engine's value types the models use (``Name``, ``ThirdColour``,
...) are importable from here as well, though ``__all__`` does not list them.
"""

from __future__ import annotations

from shared.cards import ThirdColour as ThirdColour
from shared.events import ExplodedTo as ExplodedTo
from shared.options import Memory as Memory
from shared.options import StartCard as StartCard
from shared.result import Ending as Ending

from .analysis import (
    AnalyseGameMsg,
    AnalysisMsg,
    AskHintMsg,
    DecisionInfo,
    HintMsg,
    Mark,
    SeatAnalysis,
    Thresholds,
)
from .catalogue import CardInfo, Catalogue, RecipeInfo
from .client import (
    CLIENT_MESSAGES,
    BackMsg,
    ChatMsg,
    ClaimMsg,
    ClientMessage,
    CreateTableMsg,
    HelloMsg,
    JoinMsg,
    LeaveMsg,
    ListTablesMsg,
    PingMsg,
    ReadyMsg,
    RematchMsg,
    ResignMsg,
    ResumeMsg,
    TakeMsg,
    WatchMsg,
)
from .devices import DeviceInfo, DevicesMsg, ListDevicesMsg, RevokeDeviceMsg
from .errors import ErrorCode
from .events import (
    EVENT_MODELS,
    DiscardedEvent,
    ExplodedEvent,
    ExtraTurnEvent,
    GameEvent,
    GameOverEvent,
    MovedEvent,
    PassedCornerEvent,
    RefilledEvent,
    TimedOutEvent,
    TookEvent,
    TurnPassedEvent,
)
from .fields import MAX_ID, PRINTABLE_PATTERN
from .fields import MAX_PAGE as MAX_PAGE
from .fields import BotLevel as BotLevel
from .fields import CardId as CardId
from .fields import ChatText as ChatText
from .fields import ClientVersion as ClientVersion
from .fields import Invite as Invite
from .fields import ListCursor as ListCursor
from .fields import MsgId as MsgId
from .fields import Name as Name
from .fields import SeatNo as SeatNo
from .fields import SeatToken as SeatToken
from .fields import Seconds as Seconds
from .fields import StateVersion as StateVersion
from .fields import TableId as TableId
from .fields import TableName as TableName
from .fields import TableState as TableState
from .fields import Version as Version
from .limits import DEFAULT_LIMITS, Limits
from .lobby import BotSeat, SeatInfo, TableOptions, TableSummary, Timing
from .missed import MAX_MISSED_STEPS, CatchUpMsg, MissedMsg, MissedStep
from .players import (
    MAX_BOARD_PAGE,
    DeviceCodeMsg,
    GameRecordInfo,
    GamesMsg,
    GameSummary,
    GetRecordMsg,
    LeaderboardMsg,
    LeaderEntry,
    ListGamesMsg,
    NewDeviceCodeMsg,
    PlayerInfo,
    PlayerSeat,
    ProfileMsg,
    RecordActionInfo,
    RecordMsg,
    RecordSetupInfo,
    RedeemCodeMsg,
    RegisterMsg,
    RejoinMsg,
    ShowLeaderboardMsg,
    ShowProfileMsg,
    SignedInMsg,
    SignInMsg,
)
from .players import PlayerSecret as PlayerSecret
from .server import (
    SERVER_MESSAGES,
    AckMsg,
    ByeMsg,
    ChatLineMsg,
    ErrorMsg,
    EventsMsg,
    JoinedMsg,
    LeftMsg,
    PongMsg,
    PresenceMsg,
    RematchedMsg,
    ResumedMsg,
    ServerMessage,
    TableCreatedMsg,
    TablesMsg,
    UpdateMsg,
    ViewMsg,
    WatchingMsg,
    WelcomeMsg,
)
from .version import (
    ADDED_IN,
    FIELD_ADDED_IN,
    JSON_SUBPROTOCOL,
    LIMIT_ADDED_IN,
    MINOR_1_0,
    MINOR_1_1,
    PROTOCOL_VERSION,
    SUBPROTOCOL,
    SUPPORTED_MAJORS,
)
from .view import (
    ClockInfo,
    GameView,
    IngredientScore,
    KettleState,
    RecipeScore,
    ResultInfo,
    Score,
    TakeChoice,
    TakeOption,
)

__all__ = [
    "ADDED_IN",
    "CLIENT_MESSAGES",
    "DEFAULT_LIMITS",
    "EVENT_MODELS",
    "FIELD_ADDED_IN",
    "JSON_SUBPROTOCOL",
    "LIMIT_ADDED_IN",
    "MAX_BOARD_PAGE",
    "MAX_ID",
    "MAX_MISSED_STEPS",
    "MINOR_1_0",
    "MINOR_1_1",
    "PRINTABLE_PATTERN",
    "PROTOCOL_VERSION",
    "SERVER_MESSAGES",
    "SUBPROTOCOL",
    "SUPPORTED_MAJORS",
    "AckMsg",
    "AnalyseGameMsg",
    "AnalysisMsg",
    "AskHintMsg",
    "BackMsg",
    "BotSeat",
    "ByeMsg",
    "CardInfo",
    "Catalogue",
    "CatchUpMsg",
    "ChatLineMsg",
    "ChatMsg",
    "ClaimMsg",
    "ClientMessage",
    "ClockInfo",
    "CreateTableMsg",
    "DecisionInfo",
    "DeviceCodeMsg",
    "DeviceInfo",
    "DevicesMsg",
    "DiscardedEvent",
    "ErrorCode",
    "ErrorMsg",
    "EventsMsg",
    "ExplodedEvent",
    "ExtraTurnEvent",
    "GameEvent",
    "GameOverEvent",
    "GameRecordInfo",
    "GameSummary",
    "GameView",
    "GamesMsg",
    "GetRecordMsg",
    "HelloMsg",
    "HintMsg",
    "IngredientScore",
    "JoinMsg",
    "JoinedMsg",
    "KettleState",
    "LeaderEntry",
    "LeaderboardMsg",
    "LeaveMsg",
    "LeftMsg",
    "Limits",
    "ListDevicesMsg",
    "ListGamesMsg",
    "ListTablesMsg",
    "Mark",
    "MissedMsg",
    "MissedStep",
    "MovedEvent",
    "NewDeviceCodeMsg",
    "PassedCornerEvent",
    "PingMsg",
    "PlayerInfo",
    "PlayerSeat",
    "PongMsg",
    "PresenceMsg",
    "ProfileMsg",
    "ReadyMsg",
    "RecipeInfo",
    "RecipeScore",
    "RecordActionInfo",
    "RecordMsg",
    "RecordSetupInfo",
    "RedeemCodeMsg",
    "RefilledEvent",
    "RegisterMsg",
    "RejoinMsg",
    "RematchMsg",
    "RematchedMsg",
    "ResignMsg",
    "ResultInfo",
    "ResumeMsg",
    "ResumedMsg",
    "RevokeDeviceMsg",
    "Score",
    "SeatAnalysis",
    "SeatInfo",
    "ServerMessage",
    "ShowLeaderboardMsg",
    "ShowProfileMsg",
    "SignInMsg",
    "SignedInMsg",
    "TableCreatedMsg",
    "TableOptions",
    "TableSummary",
    "TablesMsg",
    "TakeChoice",
    "TakeMsg",
    "TakeOption",
    "Thresholds",
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
