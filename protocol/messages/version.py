"""The protocol's version and WebSocket subprotocol: what ``hello`` and ``welcome`` name.

A server accepts any minor version of a major it supports; minor versions only add.
"""

from __future__ import annotations

__all__ = [
    "ADDED_IN",
    "FIELD_ADDED_IN",
    "JSON_SUBPROTOCOL",
    "LIMIT_ADDED_IN",
    "MINOR_1_0",
    "MINOR_1_1",
    "PROTOCOL_VERSION",
    "SUBPROTOCOL",
    "SUPPORTED_MAJORS",
]

PROTOCOL_VERSION: tuple[int, int] = (1, 6)
"""The version this package speaks: (major, minor). Minor versions only add."""
MINOR_1_0: tuple[int, int] = (1, 0)
"""Protocol 1.0: a session that says it in ``hello`` gets exactly the 1.0 messages."""
MINOR_1_1: tuple[int, int] = (1, 1)
"""Protocol 1.1: a session that says it gets the 1.1 messages, none of 1.2's."""
ADDED_IN: dict[str, int] = {
    **dict.fromkeys(("claim", "back", "rematch"), 1),
    **dict.fromkeys(
        (
            "register",
            "sign_in",
            "new_device_code",
            "redeem_code",
            "rejoin",
            "show_profile",
            "list_games",
            "get_record",
            "show_leaderboard",
        ),
        2,
    ),
    **dict.fromkeys(("list_devices", "revoke_device"), 3),
    "catch_up": 4,
    **dict.fromkeys(("analyse_game", "ask_hint"), 5),
}
"""Client message type -> the minor version that added it (absent: 1.0). A connection
whose ``hello`` chose an older minor gets ``unknown_type`` for it, as that minor's
server answered it."""
FIELD_ADDED_IN = 5
"""The minor version from which an ``invalid_field`` error names its ``field``: an older
connection gets the error its minor's server sent (the golden frames hold it)."""
LIMIT_ADDED_IN = 6
"""The minor version from which a ``server_full`` error names the ``limit`` that refused
the new table: an older connection gets the error its minor's server sent."""
SUPPORTED_MAJORS: tuple[int, ...] = (1,)
"""Major versions a server built on this package accepts in ``hello``."""
SUBPROTOCOL = "kupferkessel.v1"
"""The WebSocket subprotocol (``Sec-WebSocket-Protocol``) of major version 1."""
JSON_SUBPROTOCOL = "kupferkessel.v1+json"
"""The same messages as text frames of JSON (``protocol.jsonframes``): for debugging in
a browser's devtools or with a command-line client, and for languages without msgpack."""
