"""Typed errors of the engine. Each carries a stable ``code`` that clients can rely on."""

from __future__ import annotations

__all__ = ["IllegalMove", "RecordError", "RuleError", "SetupError"]


class RuleError(Exception):
    """Base of every error the engine raises on bad input; the state is left untouched."""

    code = "rule_error"

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code
        self.message = message

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"


class IllegalMove(RuleError):
    """An action that is not legal now. Codes: ``not_your_turn``, ``not_in_line``,
    ``game_over``, ``bad_target``, ``unknown_card``, ``bad_action``."""

    code = "illegal_move"


class SetupError(RuleError):
    """An explicit set-up or table options that cannot be played."""

    code = "bad_setup"


class RecordError(RuleError):
    """A game record that cannot be read or replayed; ``where`` names the field or action."""

    code = "bad_record"

    def __init__(self, message: str, where: str, code: str | None = None) -> None:
        super().__init__(f"{where}: {message}", code)
        self.where = where
