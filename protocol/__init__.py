"""Protocol v1 of Kupferkessel Co.: versioned msgpack messages (docs/PROTOCOL.md).

Sans-I/O: models and encoding only, no sockets. The public API:

- Constants: ``PROTOCOL_VERSION`` (1, 1), ``SUBPROTOCOL`` "kupferkessel.v1",
  ``SUPPORTED_MAJORS``, ``MAX_CLIENT_FRAME``, ``MAX_SERVER_FRAME``, ``Limits``.
- ``encode(msg, seq=None) -> bytes``: any message to its wire form. A server sets
  ``seq`` per connection at encode time (1 for ``welcome``, then 2, 3, ...). All
  encoding goes through ``protocol.wire``: dumpers compiled from the models, which
  also encode the engine's views and events without building models
  (``encode_view``, ``encode_events``, ``encode_as``).
- ``decode_client(data) -> ClientMessage`` / ``decode_server(data) -> ServerMessage``:
  validated models; they raise only ``ProtocolError`` (``.code`` an ``ErrorCode``,
  ``.message``, ``.id`` the client id if readable). A server answers with
  ``err.to_message()``; a client skips ``unknown_type``.
- ``check_version(hello) -> ErrorMsg | None`` and ``error_message(code, text, re,
  detail)`` for every other refusal.
- ``view_message(view, state_version)``, ``events_message(events, state_version)``,
  ``catalogue()``, ``options_to_shared``/``options_from_shared``: models from the
  engine's public outputs (``shared.view``, ``shared.events``, ``shared.options``).

A server's loop, in short::

    try:
        msg = decode_client(frame)
    except ProtocolError as err:
        await ws.send(encode(err.to_message(), seq=next_seq()))
    else:
        match msg:
            case HelloMsg(): ...
            case TakeMsg(card=card, state_version=v): ...
"""

from .codec import (
    MAX_CLIENT_FRAME,
    MAX_SERVER_FRAME,
    ProtocolError,
    check_version,
    decode_client,
    decode_server,
    encode,
    error_message,
)
from .convert import (
    catalogue,
    event_model,
    events_message,
    options_from_shared,
    options_to_shared,
    view_message,
    view_model,
)
from .messages import *  # noqa: F403
from .messages import __all__ as _messages_all

__kupferkessel__ = True  # ours, not another distribution's (client.packages)

__all__ = [
    "MAX_CLIENT_FRAME",
    "MAX_SERVER_FRAME",
    "ProtocolError",
    "catalogue",
    "check_version",
    "decode_client",
    "decode_server",
    "encode",
    "error_message",
    "event_model",
    "events_message",
    "options_from_shared",
    "options_to_shared",
    "view_message",
    "view_model",
    *_messages_all,
]
