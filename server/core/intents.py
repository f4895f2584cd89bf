"""The intents a seat or a spectator sends its table, one type each.

A session turns a client message into an ``Intent`` and hands it to its table's
``apply``: a ``Table`` matches on the intent's type (``Table.apply``), whether the
intent came from a session of this process or, through the owner node, from a session
of another node (``server.cluster.owner``); a handle to a table another node serves
forwards the intent as it is (``server.cluster.remote``), written between nodes by
``server.cluster.messages``. So a new intent is a type here, its case in
``Table.apply`` (mypy names a missing one), and its client message's handler; its
message between nodes follows from its fields.

What each type says of itself: ``kind``, the kind of the message carrying it between
nodes (the client message's type); ``seat_only``, whether only a seat may send it (from
a session the owner does not know, it is answered ``moved``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, NamedTuple

from shared.game import Take

__all__ = [
    "Back",
    "CatchUp",
    "Chat",
    "Claim",
    "Detach",
    "Hint",
    "Intent",
    "Join",
    "Leave",
    "Play",
    "Ready",
    "Rematch",
    "Resign",
    "Resume",
    "Taken",
    "Watch",
]


class _Intent:
    """What every intent type says of itself (see the module's docstring)."""

    __slots__ = ()
    kind: ClassVar[str]
    seat_only: ClassVar[bool] = False


@dataclass(frozen=True, slots=True)
class Join(_Intent):
    """Sit down as ``player`` (at ``seat``, or the first free one); ``seeded``: knowing
    the table's creator chose the seed. Applied: (seat, token)."""

    kind: ClassVar[str] = "join"

    player: str
    seat: int | None = None
    seeded: bool = False
    player_id: str | None = None
    """1.2: the registered player who sits down (None: anonymous)."""


@dataclass(frozen=True, slots=True)
class Watch(_Intent):
    """Watch the table as a spectator."""

    kind: ClassVar[str] = "watch"


@dataclass(frozen=True, slots=True)
class Resume(_Intent):
    """Take back the seat whose token hashes to ``token_hash``. Applied: the seat."""

    kind: ClassVar[str] = "resume"

    token_hash: str


@dataclass(frozen=True, slots=True)
class Leave(_Intent):
    """Leave the table (before its game: give up the seat)."""

    kind: ClassVar[str] = "leave"


@dataclass(frozen=True, slots=True)
class Detach(_Intent):
    """The connection went away: the seat stays its person's."""

    kind: ClassVar[str] = "detach"


@dataclass(frozen=True, slots=True)
class Ready(_Intent):
    """Ready to start (or not any more)."""

    kind: ClassVar[str] = "ready"
    seat_only: ClassVar[bool] = True

    ready: bool = True


@dataclass(frozen=True, slots=True)
class Play(_Intent):
    """Make ``take``, decided on state ``state_version``. Applied: the new state."""

    kind: ClassVar[str] = "take"
    seat_only: ClassVar[bool] = True

    take: Take
    state_version: int
    re: int | None = None
    """The id of the client message a combined update answers (None: an ack will)."""


@dataclass(frozen=True, slots=True)
class Resign(_Intent):
    """Resign (RULES.md section 12.1). Applied: the state version after it."""

    kind: ClassVar[str] = "resign"
    seat_only: ClassVar[bool] = True


@dataclass(frozen=True, slots=True)
class Claim(_Intent):
    """Claim the win while the only opponent is absent. Applied: the state version."""

    kind: ClassVar[str] = "claim"
    seat_only: ClassVar[bool] = True


@dataclass(frozen=True, slots=True)
class Back(_Intent):
    """Take the seat back from the computer player. Applied: the state version."""

    kind: ClassVar[str] = "back"
    seat_only: ClassVar[bool] = True


@dataclass(frozen=True, slots=True)
class Rematch(_Intent):
    """Vote for a rematch (``yes``) or withdraw the vote."""

    kind: ClassVar[str] = "rematch"
    seat_only: ClassVar[bool] = True

    yes: bool = True


@dataclass(frozen=True, slots=True)
class Chat(_Intent):
    """Say ``text`` to everyone at the table, as ``name``."""

    kind: ClassVar[str] = "chat"

    name: str
    text: str


@dataclass(frozen=True, slots=True)
class CatchUp(_Intent):
    """1.4: the steps after state ``since``, answered (``missed``, carrying ``re``) to
    the occupant, a seat's or a spectator's. Only from an occupant the table knows: a
    session the owner does not know is answered ``moved`` and attaches first, as for a
    seat's intent."""

    kind: ClassVar[str] = "catch_up"
    seat_only: ClassVar[bool] = True
    since: int
    re: int


@dataclass(frozen=True, slots=True)
class Hint(_Intent):
    """1.5: the expert's suggestion for the occupant's seat on its turn, at a table
    whose options allow hints, answered (``hint``, carrying ``re``) to it alone."""

    kind: ClassVar[str] = "ask_hint"
    seat_only: ClassVar[bool] = True
    re: int


class Taken(NamedTuple):
    """What a ``Play`` comes to: the new state ``version``; ``answered``: the update
    of that state carried the take's ``re`` (so no ack follows it)."""

    version: int
    answered: bool = False


Intent = (
    Join
    | Watch
    | Resume
    | Leave
    | Detach
    | Ready
    | Play
    | Resign
    | Claim
    | Back
    | Rematch
    | Chat
    | CatchUp
    | Hint
)
