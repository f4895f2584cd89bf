"""Bytes in, validated models out, and back: the msgpack codec of protocol v1.

``decode_client`` and ``decode_server`` raise only ``ProtocolError``, whatever the
input: the size is checked before unpacking, msgpack runs with tight limits, and every
failure of unpacking or validation becomes an error with a stable ``code``. A server
answers it with ``err.to_message()``; a client skips ``unknown_type`` (a newer server's
message) and treats anything else as a broken server.
"""

from __future__ import annotations

from typing import Any

import msgpack  # type: ignore[import-untyped]
from pydantic import BaseModel, TypeAdapter, ValidationError

from .messages import (
    CLIENT_MESSAGES,
    DEFAULT_LIMITS,
    FIELD_ADDED_IN,
    MAX_ID,
    PROTOCOL_VERSION,
    SERVER_MESSAGES,
    SUPPORTED_MAJORS,
    ClientMessage,
    ErrorCode,
    ErrorMsg,
    HelloMsg,
    ServerMessage,
)
from .wire import encode_as

__all__ = [
    "CLIENT_ADAPTER",
    "MAX_CLIENT_FRAME",
    "MAX_SERVER_FRAME",
    "SERVER_ADAPTER",
    "ProtocolError",
    "check_version",
    "decode_client",
    "decode_server",
    "encode",
    "error_message",
    "spoken_version",
]

MAX_CLIENT_FRAME = DEFAULT_LIMITS.max_frame
"""Largest client frame ``decode_client`` accepts by default (bytes)."""
MAX_SERVER_FRAME = 1 << 20
"""Largest server frame ``decode_server`` accepts by default (bytes)."""

CLIENT_ADAPTER: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)
SERVER_ADAPTER: TypeAdapter[ServerMessage] = TypeAdapter(ServerMessage)


class ProtocolError(Exception):
    """A frame that cannot be read as a valid message. ``code`` is an ``ErrorCode``
    value (``too_large``, ``malformed``, ``unknown_type``, ``invalid_field``),
    ``message`` says what is wrong for a human, and ``id`` is the client message id when
    it could be read (so the error can answer it)."""

    def __init__(
        self, code: ErrorCode, message: str, id: int | None = None, field: str | None = None
    ) -> None:
        super().__init__(f"{code.value}: {message}")
        self.code = code
        self.message = message
        self.id = id
        self.field = field
        """With ``invalid_field``: the path of the first field at fault (``options.players``)."""

    def to_message(self, minor: int = PROTOCOL_VERSION[1]) -> ErrorMsg:
        """The ``error`` message a server sends back for this error, on a connection
        speaking 1.``minor`` (``field`` from 1.5 on)."""
        field = self.field if minor >= FIELD_ADDED_IN else None
        return ErrorMsg(code=self.code.value, message=self.message, re=self.id, field=field)


def error_message(
    code: ErrorCode,
    message: str,
    re: int | None = None,
    detail: str | None = None,
    versions: tuple[tuple[int, int], ...] = (),
) -> ErrorMsg:
    """An ``error`` message answering client message ``re``."""
    return ErrorMsg(code=code.value, message=message, re=re, detail=detail, versions=versions)


def encode(msg: BaseModel, *, seq: int | None = None) -> bytes:
    """The wire form of ``msg``: a msgpack map, fields at their default omitted
    (``protocol.wire``, the one encoding path). For a server message, ``seq`` (if given)
    replaces the model's sequence number, so one model can be sent on several
    connections."""
    return encode_as(type(msg), msg, seq=seq)


_UNPACK_ERRORS = (
    ValueError,  # msgpack's FormatError, StackError, ExtraData; bad UTF-8; limits
    OverflowError,
    RecursionError,
    msgpack.UnpackException,
)


def _unpack(data: bytes, limit: int) -> dict[str, Any]:
    if not isinstance(data, bytes | bytearray | memoryview):
        raise ProtocolError(ErrorCode.MALFORMED, "a frame must be binary (msgpack)")
    if len(data) > limit:
        raise ProtocolError(ErrorCode.TOO_LARGE, f"frame of {len(data)} bytes; limit {limit}")
    try:
        obj = msgpack.unpackb(
            data,
            raw=False,
            use_list=False,
            strict_map_key=True,
            max_str_len=limit,
            max_bin_len=limit,
            max_array_len=limit,
            max_map_len=limit,
            max_ext_len=0,  # no extension types at all (timestamps included)
        )
    except _UNPACK_ERRORS as e:
        raise ProtocolError(ErrorCode.MALFORMED, f"not a msgpack value ({type(e).__name__})") from e
    if not isinstance(obj, dict):
        raise ProtocolError(ErrorCode.MALFORMED, "a message must be a map")
    return obj


def _where(loc: tuple[int | str, ...], kind: str) -> str:
    """``options.players``: a field's path in message ``kind`` ("" for the whole)."""
    return ".".join(str(p) for p in (loc[1:] if loc[:1] == (kind,) else loc))


def _reasons(e: ValidationError, kind: str, limit: int = 3) -> str:
    parts = []
    for err in e.errors(include_url=False, include_input=False)[:limit]:
        parts.append(f"{_where(err['loc'], kind) or 'message'}: {err['msg']}")
    more = e.error_count() - limit
    return "; ".join(parts) + (f" (and {more} more)" if more > 0 else "")


def _decode(
    data: bytes, limit: int, adapter: TypeAdapter[Any], known: dict[str, type[BaseModel]]
) -> Any:
    obj = _unpack(data, limit)
    raw_id = obj.get("id")
    msg_id = raw_id if type(raw_id) is int and 0 <= raw_id <= MAX_ID else None
    kind = obj.get("type")
    if not isinstance(kind, str):
        raise ProtocolError(ErrorCode.MALFORMED, "a message needs a string 'type'", msg_id)
    if kind not in known:
        raise ProtocolError(ErrorCode.UNKNOWN_TYPE, f"unknown message type {kind[:40]!r}", msg_id)
    try:
        return adapter.validate_python(obj)
    except ValidationError as e:
        field = _where(e.errors(include_url=False, include_input=False)[0]["loc"], kind) or None
        message = f"{kind}: {_reasons(e, kind)}"
        raise ProtocolError(ErrorCode.INVALID_FIELD, message, msg_id, field) from e
    except Exception as e:
        raise ProtocolError(ErrorCode.INVALID_FIELD, f"{kind}: {type(e).__name__}", msg_id) from e


def decode_client(data: bytes, *, max_frame: int = MAX_CLIENT_FRAME) -> ClientMessage:
    """A client frame as a validated message; raises ``ProtocolError`` only."""
    msg: ClientMessage = _decode(data, max_frame, CLIENT_ADAPTER, CLIENT_MESSAGES)
    return msg


def decode_server(data: bytes, *, max_frame: int = MAX_SERVER_FRAME) -> ServerMessage:
    """A server frame as a validated message; raises ``ProtocolError`` only, with code
    ``unknown_type`` for a message type this version does not know (skip it)."""
    msg: ServerMessage = _decode(data, max_frame, SERVER_ADAPTER, SERVER_MESSAGES)
    return msg


def check_version(hello: HelloMsg) -> ErrorMsg | None:
    """None if the server speaks ``hello.protocol``, else the ``version_unsupported``
    error to send (then close). A client with a newer minor version is accepted: it
    must read ``welcome.protocol`` and use only what that minor version offers."""
    major, minor = hello.protocol
    if major in SUPPORTED_MAJORS:
        return None
    speaks = ", ".join(f"{m}.x" for m in SUPPORTED_MAJORS)
    have = f"{PROTOCOL_VERSION[0]}.{PROTOCOL_VERSION[1]}"
    major_now = PROTOCOL_VERSION[0]
    return error_message(
        ErrorCode.VERSION_UNSUPPORTED,
        f"protocol {major}.{minor} is not supported; this server speaks {speaks} (at {have})",
        re=hello.id,
        detail=",".join(str(m) for m in SUPPORTED_MAJORS),
        versions=tuple((m, PROTOCOL_VERSION[1] if m == major_now else 0) for m in SUPPORTED_MAJORS),
    )


def spoken_version(hello: HelloMsg) -> tuple[int, int]:
    """The version spoken on a connection whose ``hello`` passed ``check_version``: the
    lower of the client's and this package's (a 1.0 client gets 1.0, a 1.1 client 1.1,
    a client of a newer minor this package's). ``welcome.protocol`` names it."""
    major, minor = hello.protocol
    if major != PROTOCOL_VERSION[0]:
        return (major, 0)
    return (major, min(minor, PROTOCOL_VERSION[1]))
