"""The connection's states and what each accepts: the whole state table, in one place.

In the manner of h11, everything that decides whether a client message is handled in
the state its connection is in lives here: ``Phase``, the states; ``ACCEPTS``, for
every client message type of every minor version, per phase, either ``OK`` or the
error code refusing it; and ``MOVES``, the messages that move a connection on.
``Session.dispatch`` asks ``refusal`` before it runs a handler; the phase changes only
in ``Session._enter``. Refusals the table's own state decides (``not_in_lobby``,
``not_started``, ``game_over``) come from ``Table``, and those of a handler's own
checks (a ``resume`` or ``rejoin`` of another table, a request needing a signed-in
player) from the handler. docs/PROTOCOL.md ("Session states") shows the same tables; a
test holds them equal.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping

from ..core.errors import TableError

__all__ = ["ACCEPTS", "MOVES", "OK", "Phase", "refusal"]


class Phase(enum.Enum):
    """Where a connection is (docs/PROTOCOL.md, "Session states")."""

    CONNECTED = "connected"  # the WebSocket is open; only hello
    LOBBY = "lobby"  # after welcome, or after left
    SEATED = "seated"  # joined or resumed: playing a seat of ``Session.table``
    WATCHING = "watching"  # watching ``Session.table``


OK = "ok"
"""In ``ACCEPTS``: the message is handled in that phase."""

_C, _L, _S, _W = Phase.CONNECTED, Phase.LOBBY, Phase.SEATED, Phase.WATCHING
_HELLO = "hello_required"
_NOT = "not_allowed"
_AWAY = "already_seated"  # leave your table first
_NOT_SEATED = "not_seated"

_ONLY_HELLO: Mapping[Phase, str] = {_C: OK, _L: _NOT, _S: _NOT, _W: _NOT}
_ANYWHERE: Mapping[Phase, str] = {_C: _HELLO, _L: OK, _S: OK, _W: OK}  # once welcomed
_IN_THE_LOBBY: Mapping[Phase, str] = {_C: _HELLO, _L: OK, _S: _AWAY, _W: _AWAY}
# seated: its own seat again (the handler checks that)
_TAKING_A_SEAT: Mapping[Phase, str] = {_C: _HELLO, _L: OK, _S: OK, _W: _AWAY}
_AT_THE_TABLE: Mapping[Phase, str] = {_C: _HELLO, _L: _NOT_SEATED, _S: OK, _W: OK}
_IN_A_SEAT: Mapping[Phase, str] = {_C: _HELLO, _L: _NOT_SEATED, _S: OK, _W: _NOT_SEATED}

ACCEPTS: Mapping[str, Mapping[Phase, str]] = {
    "hello": _ONLY_HELLO,
    "ping": _ANYWHERE,
    "list_tables": _ANYWHERE,
    "create_table": _IN_THE_LOBBY,
    "join": _IN_THE_LOBBY,
    "watch": _IN_THE_LOBBY,
    "resume": _TAKING_A_SEAT,
    "ready": _IN_A_SEAT,
    "take": _IN_A_SEAT,
    "resign": _IN_A_SEAT,
    "chat": _AT_THE_TABLE,
    "catch_up": _AT_THE_TABLE,  # 1.4
    "leave": _AT_THE_TABLE,
    # 1.1
    "claim": _IN_A_SEAT,
    "back": _IN_A_SEAT,
    "rematch": _IN_A_SEAT,
    # 1.2: registered players (their handlers: ``server.players.account``)
    "register": _IN_THE_LOBBY,
    "sign_in": _IN_THE_LOBBY,
    "redeem_code": _IN_THE_LOBBY,
    "rejoin": _TAKING_A_SEAT,
    "new_device_code": _ANYWHERE,
    "show_profile": _ANYWHERE,
    "list_games": _ANYWHERE,
    "get_record": _ANYWHERE,
    "show_leaderboard": _ANYWHERE,
    # 1.3: a registered player's devices
    "list_devices": _ANYWHERE,
    "revoke_device": _ANYWHERE,
    # 1.5: a finished game's analysis (its handler: ``server.players.account``), a hint
    "analyse_game": _ANYWHERE,
    "ask_hint": _IN_A_SEAT,
}
"""Client message type -> phase -> ``OK`` or the error code refusing it. A ``resume``
or ``rejoin`` while seated is refused by its handler unless it names this connection's
own table."""

MOVES: tuple[tuple[Phase, str, str, Phase], ...] = (
    # from  client message    its answer   to
    (_C, "hello", "welcome", _L),
    (_L, "create_table", "joined", _S),  # with a ``player``
    (_L, "join", "joined", _S),
    (_L, "watch", "watching", _W),
    (_L, "resume", "resumed", _S),
    (_L, "rejoin", "resumed", _S),  # 1.2
    (_S, "leave", "left", _L),
    (_W, "leave", "left", _L),
)
"""How a connection moves between phases: from a phase, the client message it accepts
there, the answer that says the move happened, and the phase it is in from then on
(``Session._enter``). The server moves a connection on its own too: 1.1's
``rematched`` seats it (or lets it watch) at the new table, and a closing connection
(``bye`` ``replaced`` or ``moved``) is in the lobby, with nothing left to accept."""

_REFUSALS = {
    _HELLO: "send hello first",
    _NOT: "{} is not allowed now",
    _AWAY: "leave your current table first",
    _NOT_SEATED: "you are not at a table",
}


def refusal(kind: str, phase: Phase) -> TableError | None:
    """The error refusing a ``kind`` message in ``phase`` (None: it is handled)."""
    verdict = ACCEPTS[kind][phase]
    if verdict == OK:
        return None
    return TableError(verdict, _REFUSALS[verdict].format(kind))
