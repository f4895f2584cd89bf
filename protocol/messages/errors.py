"""The stable error codes an ``error`` message carries.

One enumeration, so a server and every client name a refusal the same way.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["ErrorCode"]


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
    NAME_TAKEN = "name_taken"  # 1.2: ``register`` of a name taken (or one confusable)
    BAD_SECRET = "bad_secret"  # 1.2: ``sign_in`` with an unknown name or a wrong secret
    NOT_SIGNED_IN = "not_signed_in"  # 1.2: a player's message before ``sign_in``
    BAD_CODE = "bad_code"  # 1.2: ``redeem_code`` of an unknown, used or expired code
    NO_SUCH_PLAYER = "no_such_player"  # 1.2: no registered player of that name
    NO_SUCH_GAME = "no_such_game"  # 1.2: no finished game of that id you may see
    NO_SUCH_DEVICE = "no_such_device"  # 1.3: ``revoke_device`` of no device of yours
    SERVER_FULL = "server_full"  # no room for another table or connection
    BANNED = "banned"  # the operator banned this player name (or address) for a time
    MUTED = "muted"  # the operator muted this player name (or address): no chat for a time
    INTERNAL = "internal"  # a server bug; the message was not applied
