"""What the client library hands back: the connection ``Status``, a ``Seated`` seat,
a ``TableCreated`` table, and ``Update``, everything ``Client.updates()`` yields.

Small frozen records, apart from the ``Client`` that makes them, so a caller can name
them in its own types without reading the connection's machinery.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeGuard, get_args

from protocol import messages as m

__all__ = ["Missed", "Seated", "Status", "TableCreated", "Update", "is_update"]


@dataclass(frozen=True)
class Status:
    """The connection's state, in the update stream: ``connected``, ``reconnecting``
    (``attempt`` counts tries, ``detail`` says why), ``resumed`` or ``closed``."""

    state: str
    detail: str = ""
    attempt: int = 0


@dataclass(frozen=True)
class Missed:
    """1.4, after the connection came back: ``steps`` states were missed since
    ``since``; their events follow in ``updates()`` (each an ``EventsMsg``, as if
    watched), then the fresh view. ``omitted``: earlier states left out (too many)."""

    since: int
    steps: int
    omitted: int = 0
    by_computer: int = 0  # of the steps, the takes a computer made for our seat


@dataclass(frozen=True)
class Seated:
    """You sit at ``seat`` of ``table`` (the seat token is kept by the client)."""

    table: str
    seat: int


@dataclass(frozen=True)
class TableCreated:
    table: m.TableSummary
    invite: str | None = None
    seated: Seated | None = None


Update = (
    m.ViewMsg
    | m.EventsMsg
    | m.PresenceMsg
    | m.ChatLineMsg
    | m.ErrorMsg
    | m.ByeMsg
    | m.RematchedMsg
    | Status
    | Missed
)
"""What ``Client.updates()`` yields."""
_UPDATE_TYPES: tuple[type, ...] = get_args(Update)


def is_update(msg: m.ServerMessage) -> TypeGuard[Update]:
    """Whether ``msg`` goes to ``updates()`` (when no request is waiting for it)."""
    return isinstance(msg, _UPDATE_TYPES)
