"""The messages between nodes, one type each: the intents a session's node sends a
table's owner (``server.core.intents``), and what nodes tell each other (frames,
replies, a table that moved, listings...).

One encoder and one decoder, keeping the bytes nodes have always sent (msgpack maps
with these short keys, ``k`` the kind), so that nodes of two versions understand each
other during a rolling upgrade. Around an intent's fields every such message carries
the table (``t``), the id of the session's handle at its node (``sid``: its
``RemoteTable.handle_id``), the protocol the session speaks (``minor``, ``combined``),
and, when it waits for an answer, the request id (``rid``) and the session's node
(``front``). ``decode`` reads any message: a
``NodeMessage``, or None for an intent (read by ``decode_intent`` where it is served).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from shared.game import Take

from ..core import intents as i

__all__ = [
    "KINDS",
    "AdminAsk",
    "Back",
    "CloseTable",
    "FrameFor",
    "Listed",
    "Moved",
    "NodeMessage",
    "Refused",
    "Released",
    "Rematched",
    "Replaced",
    "Reply",
    "decode",
    "decode_intent",
    "encode",
    "encode_intent",
    "intent_message",
]

Fields = dict[str, Any]

_ENCODE: dict[type[Any], tuple[str, Callable[[Any], Fields]]] = {
    i.Join: (  # a registered player's id only when there is one: older nodes' bytes
        "join",
        lambda x: (
            {"player": x.player, "seat": x.seat, "seeded": x.seeded}
            | ({"pid": x.player_id} if x.player_id is not None else {})
        ),
    ),
    i.Watch: ("watch", lambda x: {}),
    i.Resume: ("resume", lambda x: {"th": x.token_hash}),
    i.Leave: ("leave", lambda x: {}),
    i.Detach: ("detach", lambda x: {}),
    i.Ready: ("ready", lambda x: {"ready": x.ready}),
    i.Play: ("take", lambda x: {"take": list(x.take), "v": x.state_version}),
    i.Resign: ("resign", lambda x: {}),
    i.Claim: ("claim", lambda x: {}),
    i.Back: ("back", lambda x: {}),
    i.Rematch: ("rematch", lambda x: {"yes": x.yes}),
    i.Chat: ("chat", lambda x: {"name": x.name, "text": x.text}),
}


def _take(raw: list[Any]) -> Take:
    card, special, targets, keep = raw
    return Take(card, special, None if targets is None else tuple(targets), keep)


_DECODE: dict[str, Callable[[Fields], i.Intent]] = {
    "join": lambda m: i.Join(m["player"], m["seat"], m.get("seeded", False), m.get("pid")),
    "watch": lambda m: i.Watch(),
    "resume": lambda m: i.Resume(m["th"]),
    "leave": lambda m: i.Leave(),
    "detach": lambda m: i.Detach(),
    "ready": lambda m: i.Ready(m["ready"]),
    "take": lambda m: i.Play(_take(m["take"]), m["v"]),
    "resign": lambda m: i.Resign(),
    "claim": lambda m: i.Claim(),
    "back": lambda m: i.Back(),
    "rematch": lambda m: i.Rematch(m["yes"]),
    "chat": lambda m: i.Chat(m["name"], m["text"]),
}

KINDS = frozenset(_DECODE)
"""The kinds of message that carry an intent."""


def encode_intent(intent: i.Intent) -> tuple[str, Fields]:
    """The kind and the fields of the message carrying ``intent``."""
    kind, fields = _ENCODE[type(intent)]
    return kind, fields(intent)


def decode_intent(msg: Fields) -> i.Intent:
    """The intent a message of one of the ``KINDS`` carries (``KeyError``: another kind
    or a missing field)."""
    return _DECODE[msg["k"]](msg)


def intent_message(intent: i.Intent, table: str, handle_id: str, **more: Any) -> Fields:
    """The whole message carrying ``intent`` of the session whose handle is ``handle_id``
    at ``table`` (``more``: the session's protocol, a request id, its node, an invite
    code...)."""
    kind, fields = encode_intent(intent)
    return {"k": kind, "t": table, "sid": handle_id, **more, **fields}


# ------------------------------------------------------------- what nodes tell each other
@dataclass(frozen=True, slots=True)
class FrameFor:
    """A frame the owner made (``seq`` 0) for the session of handle ``handle_id`` of the
    receiving node."""

    handle_id: str
    frame: bytes


@dataclass(frozen=True, slots=True)
class Reply:
    """The owner's answer to request ``rid``: what the table returned (``result``), or
    its refusal (``error``: code, message, detail), or ``moved`` (not served there);
    ``answered``: the combined update already answered the take."""

    rid: int
    result: Any = None
    error: tuple[str, str, str | None] | None = None
    moved: bool = False
    answered: bool | None = None


@dataclass(frozen=True, slots=True)
class Replaced:
    """Another connection resumed the seat of the session of handle ``handle_id``."""

    handle_id: str
    seat: int


@dataclass(frozen=True, slots=True)
class Rematched:
    """The session of handle ``handle_id`` follows to the rematch at ``table`` (made at
    ``created``), at ``seat`` (None: watching); ``seats``: each seat's (name, bot
    level)."""

    handle_id: str
    table: str
    created: float
    seat: int | None
    seats: list[list[Any]]


@dataclass(frozen=True, slots=True)
class Moved:
    """The sender does not serve ``table`` (any more)."""

    table: str


@dataclass(frozen=True, slots=True)
class Refused:
    """The owner of ``table`` refused to attach the session of handle ``handle_id`` again."""

    table: str
    handle_id: str
    code: str
    message: str


@dataclass(frozen=True, slots=True)
class Listed:
    """A change of the sender's listing to ``version``: the summaries to set and the
    tables gone, or ``full`` (read the whole listing again)."""

    version: int
    full: bool = False
    set: dict[str, bytes] = field(default_factory=dict)
    deleted: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Back:
    """The sender is back on its channel: what was sent to it meanwhile was lost."""


@dataclass(frozen=True, slots=True)
class Released:
    """The sender handed ``tables`` over (it stops): take them at once."""

    tables: list[str]


@dataclass(frozen=True, slots=True)
class CloseTable:
    """The operator closes ``table`` (``kupferkessel admin close`` at the sender):
    ``resign`` resigns that seat (None: abandoned); answered with ``Reply`` ``rid``
    (``result``: the ending and the winners) or ``moved`` (not served here)."""

    rid: int
    table: str
    resign: int | None


@dataclass(frozen=True, slots=True)
class AdminAsk:
    """The operator at the sender lists the cluster's ``action`` (``tables`` or
    ``players``): answered with ``Reply`` ``rid``, ``result`` this node's list; or
    (``enforce``) made or lifted ``sanction``: the receiver reads the sanctions again
    and a ban closes whom it concerns there, ``result`` the connections closed (a
    node of an older version refuses an action it does not know)."""

    rid: int
    action: str
    sanction: str | None = None


NodeMessage = (
    AdminAsk
    | FrameFor
    | Reply
    | Replaced
    | Rematched
    | Moved
    | Refused
    | Listed
    | Back
    | Released
    | CloseTable
)


def encode(msg: NodeMessage) -> Fields:
    """The map a node sends for ``msg``."""
    match msg:
        case FrameFor(handle_id, frame):
            return {"k": "frame", "sid": handle_id, "f": frame}
        case Reply(rid, result, error, moved, answered):
            out: Fields = {"k": "reply", "rid": rid}
            if moved:
                out["moved"] = True
            elif error is not None:
                out["error"] = list(error)
            else:
                out["r"] = result
                if answered is not None:
                    out["answered"] = answered
            return out
        case Replaced(handle_id, seat):
            return {"k": "replaced", "sid": handle_id, "seat": seat}
        case Rematched(handle_id, table, created, seat, seats):
            return {"k": "rematched", "sid": handle_id, "t": table, "c": created, "seat": seat,
                    "seats": seats}  # fmt: skip
        case Moved(table):
            return {"k": "moved", "t": table}
        case Refused(table, handle_id, code, message):
            return {"k": "refused", "t": table, "sid": handle_id, "e": [code, message]}
        case Listed(version, full, changed, deleted):
            if full:
                return {"k": "listed", "v": version, "full": True}
            return {"k": "listed", "v": version, "set": changed, "del": deleted}
        case Back():
            return {"k": "back"}
        case Released(tables):
            return {"k": "released", "tables": tables}
        case AdminAsk(rid, action, sanction):
            asked: Fields = {"k": "admin_ask", "rid": rid, "a": action}
            return asked if sanction is None else asked | {"s": sanction}
        case CloseTable(rid, table, resign):
            return {"k": "close", "rid": rid, "t": table, "seat": resign}
    raise TypeError(msg)


def _reply(m: Fields) -> Reply:
    error = m.get("error")
    return Reply(
        m["rid"],
        m.get("r"),
        None if error is None else (error[0], error[1], error[2]),
        bool(m.get("moved", False)),
        m.get("answered"),
    )


_READ: dict[str, Callable[[Fields], NodeMessage]] = {
    "frame": lambda m: FrameFor(m["sid"], m["f"]),
    "reply": _reply,
    "replaced": lambda m: Replaced(m["sid"], m["seat"]),
    "rematched": lambda m: Rematched(m["sid"], m["t"], m["c"], m["seat"], m["seats"]),
    "moved": lambda m: Moved(m["t"]),
    "refused": lambda m: Refused(m["t"], m["sid"], m["e"][0], m["e"][1]),
    "listed": lambda m: Listed(
        m["v"], bool(m.get("full", False)), m.get("set", {}), m.get("del", [])
    ),
    "back": lambda m: Back(),
    "released": lambda m: Released(list(m["tables"])),
    "close": lambda m: CloseTable(m["rid"], m["t"], m.get("seat")),
    "admin_ask": lambda m: AdminAsk(m["rid"], m["a"], m.get("s")),
}


def decode(m: Fields) -> NodeMessage | None:
    """What a node was told; None for an intent (``decode_intent`` reads those). A
    ``back`` naming a table is a person's intent, not a node that is back."""
    kind = m["k"]
    if kind == "back" and "t" in m:
        return None
    read = _READ.get(kind)
    return None if read is None else read(m)
