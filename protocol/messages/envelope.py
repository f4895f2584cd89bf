"""What every message carries besides its own fields: a client message its ``id``, a
server message its ``seq`` and the ``re`` it answers. Each topic's module builds its
messages on these two bases."""

from __future__ import annotations

from .base import Tagged
from .fields import MsgId

__all__ = ["ClientMsg", "ServerMsg"]


class ClientMsg(Tagged):
    id: MsgId
    """Chosen by the client (unique per connection, e.g. 1, 2, 3...); echoed as ``re``."""


class ServerMsg(Tagged):
    seq: int = 0
    """1, 2, 3, ... per connection with no gaps (``welcome`` is 1)."""
    re: int | None = None
    """The ``id`` of the client message this answers; absent when unsolicited."""
