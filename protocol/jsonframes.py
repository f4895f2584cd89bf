"""The JSON subprotocol (``kupferkessel.v1+json``): the very messages of the msgpack
protocol, as text frames of JSON.

One set of models and one encoder: a frame is made as msgpack (``protocol.wire``) and,
for a JSON connection, written as the same map in JSON (``to_json``: ASCII, keys in
their order); a JSON text read from a client is packed back to msgpack (``from_json``)
and decoded by ``protocol.codec.decode_client`` like any frame, with the same errors.
So both encodings carry the same messages, field for field, and are held to the same
golden frames. No I/O here.
"""

from __future__ import annotations

import json
from typing import Any

import msgpack  # type: ignore[import-untyped]

from .codec import ProtocolError
from .messages import ErrorCode

__all__ = ["from_json", "to_json"]


def to_json(frame: bytes) -> str:
    """A server frame (msgpack) as the JSON text of the same message."""
    data = msgpack.unpackb(frame, raw=False, strict_map_key=False)
    return json.dumps(data, ensure_ascii=True, separators=(",", ":"))


def from_json(text: str) -> bytes:
    """A client's JSON text as the msgpack frame of the same message; ``ProtocolError``
    (``malformed``) if it is not JSON or not a map."""
    try:
        data: Any = json.loads(text)
    except (ValueError, RecursionError) as e:
        raise ProtocolError(ErrorCode.MALFORMED, "not JSON text") from e
    if not isinstance(data, dict):
        raise ProtocolError(ErrorCode.MALFORMED, "a message is a JSON object")
    try:
        packed: bytes = msgpack.packb(data)
    except (OverflowError, ValueError, TypeError) as e:
        raise ProtocolError(ErrorCode.MALFORMED, "a number out of range or nesting too deep") from e
    return packed
