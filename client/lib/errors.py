"""The errors the client library raises: ``ClientError`` and one ``ServerError``
subclass per protocol error code.

A caller catches the case it can handle (``except NotYourTurn``) instead of comparing
codes; ``ServerError.from_message`` picks the class for an ``error`` reply.
"""

from __future__ import annotations

from protocol import messages as m

__all__ = [
    "AlreadySeated",
    "BadCode",
    "BadInvite",
    "BadOptions",
    "BadSecret",
    "BadToken",
    "ClientError",
    "ConnectionLost",
    "GameIsOver",
    "IllegalMoveError",
    "NameTaken",
    "NoSuchGame",
    "NoSuchPlayer",
    "NoSuchTable",
    "NotAllowed",
    "NotInLobby",
    "NotSeated",
    "NotSignedIn",
    "NotYourTurn",
    "RateLimited",
    "SeatTaken",
    "ServerError",
    "StaleState",
    "TableFull",
]


class ClientError(Exception):
    """Base of every error this library raises."""


class ConnectionLost(ClientError):
    """The connection closed before the reply came (the client may be reconnecting)."""


class ServerError(ClientError):
    """An ``error`` reply. ``code`` is the protocol's error code, ``detail`` refines it
    (for ``illegal_move``: the engine's reason)."""

    code = "error"

    def __init__(
        self, code: str, message: str, detail: str | None = None, *, reply: m.ErrorMsg | None = None
    ) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.detail = detail
        self.reply = reply or m.ErrorMsg(code=code, message=message, detail=detail)
        """The ``error`` this was raised for, particulars and all (to pass it on)."""

    @staticmethod
    def from_message(msg: m.ErrorMsg) -> ServerError:
        cls = ERROR_CLASSES.get(msg.code, ServerError)
        return cls(msg.code, msg.message, msg.detail, reply=msg)

    @property
    def retry_after(self) -> int | None:
        """1.3, with ``rate_limited`` of a sign-in: seconds to wait before asking again."""
        return self.reply.retry_after

    @property
    def field(self) -> str | None:
        """1.5, with ``invalid_field``: the request's field refused (``options.players``)."""
        return self.reply.field

    @property
    def until(self) -> int | None:
        """With ``banned`` and ``muted``: when the sanction ends (Unix seconds)."""
        return self.reply.until

    @property
    def until_lifted(self) -> bool:
        """With ``banned`` and ``muted``: the sanction lasts until the operator lifts it."""
        return self.reply.until_lifted

    @property
    def versions(self) -> tuple[tuple[int, int], ...]:
        """With ``version_unsupported``: the newest version of each major the server speaks."""
        return self.reply.versions

    @property
    def limit(self) -> str | None:
        """1.6, with ``server_full``: the limit that refused a new table (``unattended``,
        ``lobby``, ``bots``, ``tables``)."""
        return self.reply.limit


class IllegalMoveError(ServerError):
    """The server refused a take as illegal (``.detail``: the engine's reason). Named
    apart from ``shared.errors.IllegalMove``, the engine's own exception."""

    code = "illegal_move"


class NotYourTurn(ServerError):
    code = "not_your_turn"


class StaleState(ServerError):
    code = "stale_state"


class BadToken(ServerError):
    code = "bad_token"


class NoSuchTable(ServerError):
    code = "no_such_table"


class TableFull(ServerError):
    code = "table_full"


class SeatTaken(ServerError):
    code = "seat_taken"


class BadInvite(ServerError):
    code = "bad_invite"


class BadOptions(ServerError):
    code = "bad_options"


class NotAllowed(ServerError):
    code = "not_allowed"


class NotInLobby(ServerError):
    code = "not_in_lobby"


class AlreadySeated(ServerError):
    code = "already_seated"


class NotSeated(ServerError):
    code = "not_seated"


class RateLimited(ServerError):
    code = "rate_limited"


class GameIsOver(ServerError):
    code = "game_over"


class NameTaken(ServerError):
    """1.2: ``register`` of a name registered already (or one that looks the same)."""

    code = "name_taken"


class BadSecret(ServerError):
    """1.2: ``sign_in`` with a wrong secret, or a name nobody registered."""

    code = "bad_secret"


class NotSignedIn(ServerError):
    """1.2: a message that needs a signed-in player, before ``sign_in``."""

    code = "not_signed_in"


class BadCode(ServerError):
    """1.2: ``redeem_code`` of a device code unknown, used already or expired."""

    code = "bad_code"


class NoSuchPlayer(ServerError):
    code = "no_such_player"


class NoSuchGame(ServerError):
    code = "no_such_game"


class NoSuchDevice(ServerError):
    """1.3: ``revoke_device`` of an id that is none of your player's devices."""

    code = "no_such_device"


ERROR_CLASSES: dict[str, type[ServerError]] = {
    c.code: c
    for c in (
        IllegalMoveError,
        NotYourTurn,
        StaleState,
        BadToken,
        NoSuchTable,
        TableFull,
        SeatTaken,
        BadInvite,
        BadOptions,
        NotAllowed,
        NotInLobby,
        AlreadySeated,
        NotSeated,
        RateLimited,
        GameIsOver,
        NameTaken,
        BadSecret,
        NotSignedIn,
        BadCode,
        NoSuchPlayer,
        NoSuchGame,
        NoSuchDevice,
    )
}
