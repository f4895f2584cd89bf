"""The refusal a table gives: one typed error with a protocol error code."""

from __future__ import annotations

__all__ = ["TableError"]


class TableError(Exception):
    """A request a table refuses; ``code`` is a protocol error code, ``detail`` the
    engine's own code for an illegal move."""

    def __init__(self, code: str, message: str, detail: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.detail = detail
