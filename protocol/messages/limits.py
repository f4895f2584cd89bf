"""The limits a server enforces and announces in ``welcome``.

``DEFAULT_LIMITS`` are this package's; the bounded field types of client messages
(``protocol.messages.fields``) take their bounds from them.
"""

from __future__ import annotations

from .base import Model

__all__ = ["DEFAULT_LIMITS", "Limits"]


class Limits(Model):
    """What the server enforces, announced in ``welcome`` (``DEFAULT_LIMITS`` are this
    package's). Fields are required: a client must see every figure."""

    max_frame: int
    """Bytes of one client frame."""
    max_name: int
    """Characters of a player name."""
    max_table_name: int
    """Characters of a table name."""
    max_chat: int
    """Characters of one chat line."""
    rate_messages: int
    """Client messages allowed per ``rate_window`` seconds, on average ..."""
    rate_window: int
    """Seconds."""
    rate_burst: int
    """... with bursts of up to this many; more are refused with ``rate_limited``."""
    chat_per_minute: int
    """Chat lines per minute."""
    idle_timeout: int
    """Seconds without any client message (``ping`` counts) before ``bye``."""


DEFAULT_LIMITS = Limits(
    max_frame=16384,
    max_name=32,
    max_table_name=48,
    max_chat=280,
    rate_messages=20,
    rate_window=1,
    rate_burst=40,
    chat_per_minute=20,
    idle_timeout=300,
)
