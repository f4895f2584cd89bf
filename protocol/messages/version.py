"""The protocol's version and WebSocket subprotocol: what ``hello`` and ``welcome`` name.

A server accepts any minor version of a major it supports; minor versions only add.
"""

from __future__ import annotations

__all__ = [
    "JSON_SUBPROTOCOL",
    "MINOR_1_0",
    "PROTOCOL_VERSION",
    "SUBPROTOCOL",
    "SUPPORTED_MAJORS",
]

PROTOCOL_VERSION: tuple[int, int] = (1, 1)
"""The version this package speaks: (major, minor). Minor versions only add."""
MINOR_1_0: tuple[int, int] = (1, 0)
"""Protocol 1.0: a session that says it in ``hello`` gets exactly the 1.0 messages."""
SUPPORTED_MAJORS: tuple[int, ...] = (1,)
"""Major versions a server built on this package accepts in ``hello``."""
SUBPROTOCOL = "kupferkessel.v1"
"""The WebSocket subprotocol (``Sec-WebSocket-Protocol``) of major version 1."""
JSON_SUBPROTOCOL = "kupferkessel.v1+json"
"""The same messages as text frames of JSON (``protocol.jsonframes``): for debugging in
a browser's devtools or with a command-line client, and for languages without msgpack."""
