"""Field types shared by the messages: ids, names, tokens, bounded numbers.

Client fields are bounded here once (lengths, patterns, ranges), so every message that
carries a name or a table id validates it the same way.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from .limits import DEFAULT_LIMITS

__all__ = [
    "MAX_ID",
    "MAX_PAGE",
    "PRINTABLE_PATTERN",
    "BotLevel",
    "CardId",
    "ChatText",
    "ClientVersion",
    "Invite",
    "ListCursor",
    "MsgId",
    "Name",
    "SeatNo",
    "SeatToken",
    "Seconds",
    "StateVersion",
    "TableId",
    "TableName",
    "TableState",
    "Version",
]

MAX_ID = 2**53 - 1
"""Largest client message id (and seed): exact in every language, JavaScript included."""
PRINTABLE_PATTERN = r"^[^\x00-\x1f\x7f-\x9f]*$"  # no control characters (no newlines either)
_TOKEN = r"^[A-Za-z0-9_-]+$"

MsgId = Annotated[int, Field(ge=0, le=MAX_ID)]
ListCursor = Annotated[str, Field(min_length=1, max_length=32, pattern=r"^[a-z][0-9]+$")]
MAX_PAGE = 500
"""The most tables ``list_tables.limit`` may ask for."""
SeatNo = Annotated[int, Field(ge=0, le=2)]
StateVersion = Annotated[int, Field(ge=0, le=MAX_ID)]
Name = Annotated[
    str, Field(min_length=1, max_length=DEFAULT_LIMITS.max_name, pattern=PRINTABLE_PATTERN)
]
TableName = Annotated[
    str, Field(min_length=1, max_length=DEFAULT_LIMITS.max_table_name, pattern=PRINTABLE_PATTERN)
]
ChatText = Annotated[
    str, Field(min_length=1, max_length=DEFAULT_LIMITS.max_chat, pattern=PRINTABLE_PATTERN)
]
ClientVersion = Annotated[str, Field(max_length=32, pattern=PRINTABLE_PATTERN)]
TableId = Annotated[str, Field(min_length=1, max_length=32, pattern=_TOKEN)]
Invite = Annotated[str, Field(min_length=1, max_length=64, pattern=_TOKEN)]
SeatToken = Annotated[str, Field(min_length=16, max_length=128, pattern=_TOKEN)]
CardId = Annotated[str, Field(min_length=1, max_length=40, pattern=r"^[a-z_]+-[1-4]$")]
BotLevel = Annotated[str, Field(min_length=1, max_length=32, pattern=r"^[a-z0-9_]+$")]
Version = tuple[
    Annotated[int, Field(ge=0, le=65535)],
    Annotated[int, Field(ge=0, le=65535)],
]
TableState = Literal["lobby", "playing", "finished"]
Seconds = Annotated[int, Field(ge=0, le=86400)]
