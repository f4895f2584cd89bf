"""What a screen may ask of the application that shows it: the small interfaces the
lobby and the table screen are handed.

A screen never imports the application that owns it (that would be a cycle and a
reach up to its owner); it is given an object with these few members instead, and the
application is that object.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Protocol

from ..lib import Client

__all__ = ["Action", "LobbyHost", "PlayersHost", "ScreenHost", "TableHost"]

Action = Callable[[], Awaitable[None]]
"""A network action; the host runs it and turns its errors into the status line."""


class _Host(Protocol):
    """What every screen may ask."""

    @property
    def client(self) -> Client | None:
        """The connection in use, if any (the lobby may replace it)."""
        ...

    @property
    def conn(self) -> str:
        """The connection's state in words, for the header."""
        ...

    def act(self, action: Action) -> None:
        """Run ``action`` in the background; its errors end up in the status line."""
        ...

    def say(self, status: str) -> None:
        """Put ``status`` in the status line ("" clears it)."""
        ...


ScreenHost = _Host
"""What every screen may ask, by itself (the review asks only this)."""


class TableHost(_Host, Protocol):
    """What the table screen may ask."""

    @property
    def allow_lobby(self) -> bool:
        """Whether there is a lobby to go back to (``play`` has none)."""
        ...

    @property
    def server_stopped(self) -> bool:
        """The server said goodbye because it stops (the host quit)."""
        ...

    def quit(self) -> None:
        """``q``: quit, asking first when a seat or a hosted server is at stake."""
        ...

    def open_chat(self) -> None:
        """Start typing a chat line."""
        ...

    def to_lobby(self) -> None:
        """Leave the table for the lobby."""
        ...

    def turn_alert(self, mine: bool) -> None:
        """Our turn began (``mine``) or ended: the terminal may say so (bell, title)."""
        ...


class LobbyHost(_Host, Protocol):
    """What the lobby may ask."""

    def exit(self) -> None:
        """Quit the program at once."""
        ...

    def adopt(self, client: Client) -> None:
        """Use ``client``, newly connected, instead of the old connection."""
        ...

    def sat_down(self, client: Client) -> None:
        """``client`` now sits at, or watches, a table: show it."""
        ...

    def notice(self, status: str) -> None:
        """Put ``status`` in the status line until the game on the screen goes on (its
        next take), as the waiting screen's facts are old news by then."""
        ...


class PlayersHost(_Host, Protocol):
    """What the players' screens may ask: only what every screen may."""
