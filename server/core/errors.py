"""The refusal a table gives: one typed error with a protocol error code."""

from __future__ import annotations

import logging
from typing import Any

from protocol import messages as m

from ..store import StoreUnavailable

__all__ = [
    "CLUSTER_UNAVAILABLE",
    "STORE_UNAVAILABLE",
    "TableError",
    "failed",
    "same_player",
    "unavailable",
]


class TableError(Exception):
    """A request a table refuses; ``code`` is a protocol error code, ``detail`` the
    engine's own code for an illegal move; ``retry_after`` the seconds to wait before
    asking again (``rate_limited`` of a sign-in, ``server.players.hashing``); ``field``
    the request's field ``invalid_field`` refuses; ``until`` when a ban or mute ends
    (Unix seconds; None with ``until_lifted``: when the operator lifts it); ``limit``
    which limit ``server_full`` met (``server.lobby.quotas.REFUSALS``)."""

    def __init__(
        self,
        code: str,
        message: str,
        detail: str | None = None,
        retry_after: int | None = None,
        *,
        field: str | None = None,
        until: int | None = None,
        until_lifted: bool = False,
        limit: str | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.detail = detail
        self.retry_after = retry_after
        self.field = field
        self.until = until
        self.until_lifted = until_lifted
        self.limit = limit

    @property
    def particulars(self) -> dict[str, Any]:
        """The typed particulars set (``retry_after``, ``field``, ``until``,
        ``until_lifted``, ``limit``), by name: what a refusal carries between nodes
        beside its code, message and detail (``TableError(..., **particulars)`` again)."""
        named = {
            "retry_after": self.retry_after,
            "field": self.field,
            "until": self.until,
            "until_lifted": self.until_lifted,
            "limit": self.limit,
        }
        return {k: v for k, v in named.items() if v is not None and v is not False}

    def answer(self, re: int | None, minor: int) -> m.ErrorMsg:
        """The ``error`` refusing message ``re`` on a connection speaking 1.``minor``:
        ``retry_after`` only from 1.3 on, ``field`` from 1.5 on, ``limit`` from 1.6 on
        (an older client gets exactly what it did); a ban's or mute's end in every
        version."""
        return m.ErrorMsg(
            code=self.code,
            message=self.message,
            re=re,
            detail=self.detail,
            retry_after=self.retry_after if minor >= 3 else None,
            field=self.field if minor >= m.FIELD_ADDED_IN else None,
            until=self.until,
            until_lifted=self.until_lifted,
            limit=self.limit if minor >= m.LIMIT_ADDED_IN else None,
        )


def same_player() -> TableError:
    """The refusal of a registered player's second seat at one table."""
    return TableError("not_allowed", "your player sits at this table already", "same_player")


STORE_UNAVAILABLE = "store_unavailable"
"""``detail`` of the ``internal`` error answering a request the store could not take
(the database cannot be reached now): nothing was done; try again in a moment."""
CLUSTER_UNAVAILABLE = "cluster_unavailable"
"""``detail`` of an error answering a request while Redis cannot be reached (a node of
a cluster): nothing was done, or (``stale_state`` for a take) it is not known; a fresh
view follows once Redis is back."""


def unavailable(detail: str = STORE_UNAVAILABLE) -> TableError:
    """The refusal of a request a part the server needs could not take now: ``internal``
    (the code every client knows for "not applied, try again") with a ``detail`` saying
    which part, so a client can tell it from a bug and try again."""
    what = "the game's store" if detail == STORE_UNAVAILABLE else "the cluster"
    return TableError("internal", f"{what} cannot be reached now: try again", detail)


def failed(e: Exception, log: logging.Logger, what: str, extra: dict[str, Any]) -> TableError:
    """The refusal of a request that failed with ``e``: the store out of reach is no
    bug (``unavailable``, a warning); anything else is one (``internal``, its traceback
    logged as ``what``)."""
    if isinstance(e, StoreUnavailable):
        log.warning("store unreachable: request refused", extra={**extra, "error": str(e)})
        return unavailable()
    log.exception(what, extra=extra)
    return TableError("internal", "the server failed to handle this message")
