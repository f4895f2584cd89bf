"""Protocol 1.2: registered players, their profiles, games, records and the leaderboard.

Why: a person who comes back is the same player from one game to the next (a name
kept by a secret only the player's devices hold), so a server can rate its regulars,
list their games and replay any finished one. Everything here is additive: a 1.0 or 1.1
connection never sees these messages and is answered ``unknown_type`` for them.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from shared.result import Ending

from .base import Model
from .envelope import ClientMsg as _ClientMsg
from .envelope import ServerMsg as _ServerMsg
from .fields import ListCursor, Name, TableId, TableState
from .lobby import TableOptions
from .view import ResultInfo

__all__ = [
    "MAX_BOARD_PAGE",
    "DeviceCodeMsg",
    "GameRecordInfo",
    "GameSummary",
    "GamesMsg",
    "GetRecordMsg",
    "LeaderEntry",
    "LeaderboardMsg",
    "ListGamesMsg",
    "NewDeviceCodeMsg",
    "PlayerInfo",
    "PlayerSeat",
    "PlayerSecret",
    "ProfileMsg",
    "RecordActionInfo",
    "RecordMsg",
    "RecordSetupInfo",
    "RedeemCodeMsg",
    "RegisterMsg",
    "RejoinMsg",
    "ShowLeaderboardMsg",
    "ShowProfileMsg",
    "SignInMsg",
    "SignedInMsg",
]

PlayerSecret = Annotated[str, Field(min_length=32, max_length=128, pattern=r"^[A-Za-z0-9_-]+$")]
"""A player's secret: made by the client (at least 32 characters of base64url, e.g. 32
random bytes), kept where only its user can read it; the server keeps only a hash."""
DeviceCode = Annotated[
    str, Field(min_length=8, max_length=9, pattern=r"^[0-9A-Za-z]{4}-?[0-9A-Za-z]{4}$")
]
MAX_BOARD_PAGE = 100
"""The most games or leaderboard entries one page may ask for."""
PageLimit = Annotated[int, Field(ge=1, le=MAX_BOARD_PAGE)]


# ------------------------------------------------------------------ client to server
class RegisterMsg(_ClientMsg):
    """1.2: register ``name`` on this server as your player, kept by ``secret`` (which
    you made and keep), and sign in as it (answered by ``signed_in``). Names are unique
    per server: one that equals a registered name once case, width and look-alike
    letters are set aside is refused with ``name_taken``."""

    type: Literal["register"] = "register"
    name: Name
    secret: PlayerSecret


class SignInMsg(_ClientMsg):
    """1.2: sign in as a registered player (answered by ``signed_in``); from then on
    ``create_table`` and ``join`` seat you as that player, and ``rejoin`` takes your
    seat back without its token. A wrong secret and an unknown name get the same
    ``bad_secret``."""

    type: Literal["sign_in"] = "sign_in"
    name: Name
    secret: PlayerSecret


class NewDeviceCodeMsg(_ClientMsg):
    """1.2, signed in: ask for a one-time code to sign in on another device (answered
    by ``device_code``). Show it to your user; it works once, until it expires."""

    type: Literal["new_device_code"] = "new_device_code"


class RedeemCodeMsg(_ClientMsg):
    """1.2: on a new device, sign in with a code from ``device_code`` (answered by
    ``signed_in`` carrying this device's own ``secret``: keep it as you keep yours)."""

    type: Literal["redeem_code"] = "redeem_code"
    code: DeviceCode
    """The code as shown (its letters in either case, the dash optional)."""


class RejoinMsg(_ClientMsg):
    """1.2, signed in: take back your player's seat at ``table`` (a game in progress,
    or one just finished), as ``resume`` does with a seat token: answered by
    ``resumed``, then the view."""

    type: Literal["rejoin"] = "rejoin"
    table: TableId


class ShowProfileMsg(_ClientMsg):
    """1.2: a player's profile (answered by ``profile``); ``name`` absent: your own."""

    type: Literal["show_profile"] = "show_profile"
    name: Name | None = None


class ListGamesMsg(_ClientMsg):
    """1.2: a player's finished games, newest first, one page at a time (answered by
    ``games``); ``name`` absent: your own."""

    type: Literal["list_games"] = "list_games"
    name: Name | None = None
    cursor: ListCursor | None = None
    """The ``next`` of the previous page (absent: the first page)."""
    limit: PageLimit | None = None
    """At most this many games (the server may send fewer)."""


class GetRecordMsg(_ClientMsg):
    """1.2: the record of a finished game, to replay it (answered by ``record``). A
    private table's game is shown only to its players."""

    type: Literal["get_record"] = "get_record"
    table: TableId


class ShowLeaderboardMsg(_ClientMsg):
    """1.2: the leaderboard of rated players, best first, one page at a time (answered
    by ``leaderboard``)."""

    type: Literal["show_leaderboard"] = "show_leaderboard"
    cursor: ListCursor | None = None
    """The ``next`` of the previous page (absent: the first page)."""
    limit: PageLimit | None = None
    """At most this many entries (the server may send fewer)."""


# ------------------------------------------------------------------ structures
class PlayerInfo(Model):
    """1.2: a registered player as everyone may see it. Ratings are openskill's
    Plackett-Luce (``mu``, ``sigma``); ``rating`` is ``mu - 3 * sigma``, what the
    leaderboard orders by."""

    name: str
    """The name as registered."""
    since: int
    """When the player registered (Unix seconds)."""
    rating: float
    mu: float
    sigma: float
    provisional: bool = True
    """Fewer rated games than the server's threshold (10): the rating is still
    settling. Absent means ``true``, as everywhere ``provisional`` is."""
    rated_games: int = 0
    """Games that changed this player's rating (never an abandoned one, nor one that
    ended before each seat made its first takes and this player did not forfeit)."""
    games: int = 0
    """Finished games played as this player, rated or not (abandoned ones included)."""
    wins: int = 0
    """Games in which this player had place 1 (never an abandoned game)."""


class PlayerSeat(Model):
    """1.2: a seat your player holds at a table still on the server (``rejoin`` it)."""

    table: str
    seat: int
    state: TableState


class GameSummary(Model):
    """1.2: one finished game of a player, as ``games`` lists it."""

    table: str
    """The table's id: ``get_record`` fetches the game's record with it."""
    name: str
    """The table's name."""
    finished: int
    """When the game ended (Unix seconds)."""
    seat: int
    """The player's seat."""
    names: tuple[str | None, ...]
    """Each seat's name as seated."""
    ending: Ending
    places: tuple[int, ...]
    """Each seat's place (``result.places``)."""
    rated: bool = False
    rating_before: float | None = None
    """Rated games that changed the player's rating: the rating before the game ..."""
    rating_after: float | None = None
    """... and after it."""


class LeaderEntry(Model):
    """1.2: one line of the leaderboard."""

    rank: int
    """1 for the best; equal ratings share a rank."""
    name: str
    rating: float
    mu: float
    sigma: float
    rated_games: int
    provisional: bool
    """As in ``PlayerInfo``: always sent here (servers before 1.2's rating rules left
    it out when false)."""


class RecordSetupInfo(Model):
    """1.2: a record's explicit deal (RULES.md section 11): the whole start position."""

    grid: tuple[tuple[str | None, ...], ...]
    deck: tuple[str, ...]
    """The deck, top card first."""
    kettles: tuple[tuple[str, ...], ...]
    pawns: tuple[int, ...]
    recipes: tuple[tuple[str, ...], ...]
    to_move: int


class RecordActionInfo(Model):
    """1.2: one action of a record: a ``take`` without ``id`` and ``state_version``."""

    take: str
    """The card taken."""
    special: bool = True
    targets: tuple[int, ...] | None = None
    keep: bool = True


class GameRecordInfo(Model):
    """1.2: a finished game's record, the same as ``kupferkessel export`` writes: replay
    ``actions`` from ``setup`` with the rules (or with a client's own engine)."""

    format: str
    """``kupferkessel-record/1``."""
    options: TableOptions
    setup: RecordSetupInfo
    actions: tuple[RecordActionInfo, ...]
    result: ResultInfo | None = None


# ------------------------------------------------------------------ server to client
class SignedInMsg(_ServerMsg):
    """1.2: the answer to ``register``, ``sign_in`` and ``redeem_code``: this
    connection plays as ``player`` from now on."""

    type: Literal["signed_in"] = "signed_in"
    player: PlayerInfo
    seats: tuple[PlayerSeat, ...] = ()
    """Seats the player holds at tables still on the server: ``rejoin`` them."""
    secret: str | None = None
    """Only in the answer to ``redeem_code``: this device's secret, made by the server
    (which keeps only its hash). Keep it as the secret of ``register``."""


class DeviceCodeMsg(_ServerMsg):
    """1.2: the answer to ``new_device_code``: a code another device may redeem once
    with ``redeem_code``, within ``expires_in`` seconds."""

    type: Literal["device_code"] = "device_code"
    code: str
    """Eight letters and digits, shown as ``XXXX-XXXX``."""
    expires_in: int
    """Seconds it stays valid."""


class ProfileMsg(_ServerMsg):
    """1.2: the answer to ``show_profile``."""

    type: Literal["profile"] = "profile"
    player: PlayerInfo


class GamesMsg(_ServerMsg):
    """1.2: the answer to ``list_games``: one page of a player's finished games."""

    type: Literal["games"] = "games"
    player: str
    games: tuple[GameSummary, ...] = ()
    next: str | None = None
    """A cursor for the following page; absent on the last."""
    total: int = 0
    """The player's finished games on every page."""


class RecordMsg(_ServerMsg):
    """1.2: the answer to ``get_record``."""

    type: Literal["record"] = "record"
    table: str
    name: str
    """The table's name."""
    names: tuple[str | None, ...]
    """Each seat's name as seated."""
    rated: bool = False
    record: GameRecordInfo


class LeaderboardMsg(_ServerMsg):
    """1.2: the answer to ``show_leaderboard``: one page, best rating first."""

    type: Literal["leaderboard"] = "leaderboard"
    entries: tuple[LeaderEntry, ...] = ()
    next: str | None = None
    """A cursor for the following page; absent on the last."""
    total: int = 0
    """Rated players on every page."""
