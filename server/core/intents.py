"""The intents a seat or a spectator sends its table, one type each, and the one table
that applies them.

A session turns a client message into an ``Intent`` and hands it to its table's
``apply``. A ``Table`` applies it here (``apply``), whether the intent came from a
session of this process or, through the owner node, from a session of another node
(``server.cluster.owner``); a handle to a table another node serves forwards the same
intents (``server.cluster.remote``), written between nodes by
``server.cluster.messages``. So a new intent is a type here, a row of ``RULES``, its
client message's handler, and its row in the messages between nodes.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

from shared.game import Take

__all__ = [
    "RULES",
    "Back",
    "Chat",
    "Claim",
    "Detach",
    "Intent",
    "Join",
    "Leave",
    "Play",
    "Ready",
    "Rematch",
    "Resign",
    "Resume",
    "Watch",
    "apply",
]


@dataclass(frozen=True, slots=True)
class Join:
    """Sit down as ``player`` (at ``seat``, or the first free one); ``seeded``: knowing
    the table's creator chose the seed. Applied: (seat, token)."""

    player: str
    seat: int | None = None
    seeded: bool = False
    player_id: str | None = None
    """1.2: the registered player who sits down (None: anonymous)."""


@dataclass(frozen=True, slots=True)
class Watch:
    """Watch the table as a spectator."""


@dataclass(frozen=True, slots=True)
class Resume:
    """Take back the seat whose token hashes to ``token_hash``. Applied: the seat."""

    token_hash: str


@dataclass(frozen=True, slots=True)
class Leave:
    """Leave the table (before its game: give up the seat)."""


@dataclass(frozen=True, slots=True)
class Detach:
    """The connection went away: the seat stays its person's."""


@dataclass(frozen=True, slots=True)
class Ready:
    """Ready to start (or not any more)."""

    ready: bool = True


@dataclass(frozen=True, slots=True)
class Play:
    """Make ``take``, decided on state ``state_version``. Applied: the new state."""

    take: Take
    state_version: int


@dataclass(frozen=True, slots=True)
class Resign:
    """Resign (RULES.md section 12.1). Applied: the state version after it."""


@dataclass(frozen=True, slots=True)
class Claim:
    """Claim the win while the only opponent is absent. Applied: the state version."""


@dataclass(frozen=True, slots=True)
class Back:
    """Take the seat back from the computer player. Applied: the state version."""


@dataclass(frozen=True, slots=True)
class Rematch:
    """Vote for a rematch (``yes``) or withdraw the vote."""

    yes: bool = True


@dataclass(frozen=True, slots=True)
class Chat:
    """Say ``text`` to everyone at the table, as ``name``."""

    name: str
    text: str


Intent = (
    Join | Watch | Resume | Leave | Detach | Ready | Play | Resign | Claim | Back | Rematch | Chat
)


class Applies(Protocol):
    """What a table offers for intents (``Table`` has it all)."""

    version: int

    async def join(
        self,
        name: str,
        occupant: Any,
        seat: int | None = None,
        *,
        seeded: bool = False,
        player_id: str | None = None,
    ) -> tuple[int, str]: ...

    def watch(self, occupant: Any) -> None: ...

    def resume(self, token_hash: str, occupant: Any) -> int: ...

    async def leave(self, occupant: Any) -> None: ...

    def detach(self, occupant: Any) -> None: ...

    async def set_ready(self, occupant: Any, ready: bool = True) -> None: ...

    async def take(self, occupant: Any, take: Take, state_version: int) -> int: ...

    async def resign(self, occupant: Any) -> None: ...

    async def claim(self, occupant: Any) -> None: ...

    async def back(self, occupant: Any) -> None: ...

    async def vote_rematch(self, occupant: Any, yes: bool) -> None: ...

    def chat(self, occupant: Any, name: str, text: str) -> None: ...


async def _join(t: Applies, o: Any, i: Any) -> Any:
    return await t.join(i.player, o, i.seat, seeded=i.seeded, player_id=i.player_id)


async def _watch(t: Applies, o: Any, i: Any) -> Any:
    t.watch(o)


async def _resume(t: Applies, o: Any, i: Any) -> Any:
    return t.resume(i.token_hash, o)


async def _leave(t: Applies, o: Any, i: Any) -> Any:
    await t.leave(o)


async def _detach(t: Applies, o: Any, i: Any) -> Any:
    t.detach(o)


async def _ready(t: Applies, o: Any, i: Any) -> Any:
    await t.set_ready(o, i.ready)


async def _play(t: Applies, o: Any, i: Any) -> Any:
    return await t.take(o, i.take, i.state_version)


async def _resign(t: Applies, o: Any, i: Any) -> Any:
    await t.resign(o)
    return t.version


async def _claim(t: Applies, o: Any, i: Any) -> Any:
    await t.claim(o)
    return t.version


async def _back(t: Applies, o: Any, i: Any) -> Any:
    await t.back(o)
    return t.version


async def _rematch(t: Applies, o: Any, i: Any) -> Any:
    await t.vote_rematch(o, i.yes)


async def _chat(t: Applies, o: Any, i: Any) -> Any:
    t.chat(o, i.name, i.text)


RULES: dict[type[Any], Callable[[Applies, Any, Any], Awaitable[Any]]] = {
    Join: _join,
    Watch: _watch,
    Resume: _resume,
    Leave: _leave,
    Detach: _detach,
    Ready: _ready,
    Play: _play,
    Resign: _resign,
    Claim: _claim,
    Back: _back,
    Rematch: _rematch,
    Chat: _chat,
}
"""Intent type -> how a table applies it (and what it returns)."""


async def apply(table: Applies, occupant: Any, intent: Intent) -> Any:
    """Apply ``intent`` of ``occupant`` at ``table``; returns what its row says."""
    return await RULES[type(intent)](table, occupant, intent)
