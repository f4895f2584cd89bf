"""The Python client library of protocol v1: one ``Client`` per connection to a server.

``Client`` (``client.lib.connection``) holds the connection and its reconnection; its
requests are those of ``client.lib.requests`` (the lobby and the table) and
``client.lib.players`` (1.2's registered players). ``client.lib.errors`` holds the
typed errors, ``client.lib.results`` what the requests and ``Client.updates()`` hand
back, ``client.lib.address`` the reading of an address. This package names them all in
one place, so code imports ``from client.lib import Client, NotYourTurn``.
"""

from __future__ import annotations

import warnings
from typing import Any

from .address import DEFAULT_PORT, BadAddress, normalize_url
from .connection import Client
from .errors import (
    AlreadySeated,
    BadCode,
    BadInvite,
    BadOptions,
    BadSecret,
    BadToken,
    ClientError,
    ConnectionLost,
    GameIsOver,
    IllegalMoveError,
    NameTaken,
    NoSuchDevice,
    NoSuchGame,
    NoSuchPlayer,
    NoSuchTable,
    NotAllowed,
    NotInLobby,
    NotSeated,
    NotSignedIn,
    NotYourTurn,
    RateLimited,
    SeatTaken,
    ServerError,
    StaleState,
    TableFull,
)
from .results import Missed, Seated, Status, TableCreated, Update

__all__ = [
    "DEFAULT_PORT",
    "AlreadySeated",
    "BadAddress",
    "BadCode",
    "BadInvite",
    "BadOptions",
    "BadSecret",
    "BadToken",
    "Client",
    "ClientError",
    "ConnectionLost",
    "GameIsOver",
    "IllegalMoveError",
    "Missed",
    "NameTaken",
    "NoSuchDevice",
    "NoSuchGame",
    "NoSuchPlayer",
    "NoSuchTable",
    "NotAllowed",
    "NotInLobby",
    "NotSeated",
    "NotSignedIn",
    "NotYourTurn",
    "RateLimited",
    "SeatTaken",
    "Seated",
    "ServerError",
    "StaleState",
    "Status",
    "TableCreated",
    "TableFull",
    "Update",
    "normalize_url",
]


def __getattr__(name: str) -> Any:
    """``IllegalMove``: the old name of ``IllegalMoveError``, kept for code written
    against it (with a ``DeprecationWarning``)."""
    if name == "IllegalMove":
        warnings.warn(
            "client.lib.IllegalMove is now IllegalMoveError", DeprecationWarning, stacklevel=2
        )
        return IllegalMoveError
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
