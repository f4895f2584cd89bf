"""What a session asks before it seats a player or passes on a chat line: whether the
operator banned or muted them (``Conduct``).

Why an interface: the sanctions are the operator's (``server.ops.moderation``, above
the sessions); a session is handed them as this, and never reaches up for them.
"""

from __future__ import annotations

from typing import Protocol

__all__ = ["UNMODERATED", "Conduct", "Unmoderated"]


class Conduct(Protocol):
    """The operator's sanctions as a session checks them; each check raises
    ``TableError`` (``banned``, ``muted``) to refuse."""

    def may_sit(self, name: str, address: str) -> None:
        """``name`` may take (or resume) a seat from ``address``."""

    def may_chat(self, name: str, address: str) -> None:
        """``name`` at ``address`` may send a chat line."""


class Unmoderated:
    """Everyone may sit and chat (a session made without an operator's sanctions)."""

    def may_sit(self, name: str, address: str) -> None:
        pass

    def may_chat(self, name: str, address: str) -> None:
        pass


UNMODERATED = Unmoderated()
