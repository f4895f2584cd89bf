"""The refusal a table gives: one typed error with a protocol error code."""

from __future__ import annotations

__all__ = ["TableError", "same_player"]


class TableError(Exception):
    """A request a table refuses; ``code`` is a protocol error code, ``detail`` the
    engine's own code for an illegal move."""

    def __init__(self, code: str, message: str, detail: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.detail = detail


def same_player() -> TableError:
    """The refusal of a registered player's second seat at one table."""
    return TableError("not_allowed", "your player sits at this table already", "same_player")
