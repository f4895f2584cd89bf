"""The messages between nodes, one type each: the intents a session's node sends a
table's owner (``IntentFor``, carrying a ``server.core.intents`` intent as it is), and
what nodes tell each other (frames, replies, a table that moved, listings...).

One encoder and one decoder, keeping the bytes nodes have always sent (msgpack maps
with these short keys, ``k`` the kind), so that nodes of two versions understand each
other during a rolling upgrade. An intent's kind is its type's ``kind``; around its
fields the message carries the table (``t``), the id of the session's handle at its
node (``sid``: its ``RemoteTable.handle_id``), the protocol the session speaks
(``minor``, ``combined``), when it waits for an answer the request id (``rid``) and the
session's node (``front``), and for a ``Join`` or ``Watch`` the invite code the session
gave (``invite``). An intent's fields are written under their own names unless its row
in ``_FIELDS`` says otherwise. Two messages share the kind ``back`` (nodes of earlier
versions send both): the intent ``Back`` names its table, ``Reconnected`` does not.
``decode`` reads any message (None: a kind this node does not know).
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from shared.game import Take

from ..core import intents as i
from ..core.errors import TableError

__all__ = [
    "KINDS",
    "AdminAsk",
    "CloseTable",
    "FrameFor",
    "IntentFor",
    "Listed",
    "Moved",
    "NodeMessage",
    "Reconnected",
    "Refused",
    "Released",
    "Rematched",
    "Replaced",
    "Reply",
    "decode",
    "decode_intent",
    "encode",
    "encode_intent",
]

Fields = dict[str, Any]


def _take(raw: list[Any]) -> Take:
    card, special, targets, keep = raw
    return Take(card, special, None if targets is None else tuple(targets), keep)


_FIELDS: dict[type[Any], tuple[Callable[[Any], Fields], Callable[[Fields], i.Intent]]] = {
    i.Join: (  # a registered player's id only when there is one: older nodes' bytes
        lambda x: (
            {"player": x.player, "seat": x.seat, "seeded": x.seeded}
            | ({"pid": x.player_id} if x.player_id is not None else {})
        ),
        lambda m: i.Join(m["player"], m["seat"], m.get("seeded", False), m.get("pid")),
    ),
    i.Resume: (lambda x: {"th": x.token_hash}, lambda m: i.Resume(m["th"])),
    i.Play: (  # ``re`` first, where the sessions' nodes have always put it
        lambda x: {"re": x.re, "take": list(x.take), "v": x.state_version},
        lambda m: i.Play(_take(m["take"]), m["v"], m.get("re")),
    ),
}
"""The intents whose fields are written under other names than their own."""

_TYPES: dict[str, type[i.Intent]] = {t.kind: t for t in typing.get_args(i.Intent)}

KINDS = frozenset(_TYPES)
"""The kinds of message that carry an intent."""


def encode_intent(intent: i.Intent) -> tuple[str, Fields]:
    """The kind and the fields of the message carrying ``intent``."""
    custom = _FIELDS.get(type(intent))
    if custom is not None:
        return intent.kind, custom[0](intent)
    fields = dataclasses.fields(intent)
    return intent.kind, {f.name: getattr(intent, f.name) for f in fields}


def decode_intent(msg: Fields) -> i.Intent:
    """The intent a message of one of the ``KINDS`` carries (``KeyError``: another kind
    or a missing field)."""
    cls = _TYPES[msg["k"]]
    custom = _FIELDS.get(cls)
    if custom is not None:
        return custom[1](msg)
    fields = dataclasses.fields(cls)
    given = {f.name: msg[f.name] for f in fields if f.name in msg or _required(f)}
    return cls(**given)


def _required(f: dataclasses.Field[Any]) -> bool:
    return f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING


@dataclass(frozen=True, slots=True)
class IntentFor:
    """``intent`` of the session whose handle is ``handle_id`` at its node (``front``,
    when it waits for an answer to request ``rid``), for ``table`` at its owner; the
    session speaks protocol 1.``minor`` (None: not said), ``combined`` or not; a
    ``Join`` or ``Watch`` carries the ``invite`` code the session gave."""

    intent: i.Intent
    table: str
    handle_id: str
    rid: int | None = None
    front: str | None = None
    minor: int | None = None
    combined: bool = False
    invite: str | None = None


def _intent_for(m: Fields) -> IntentFor:
    return IntentFor(
        decode_intent(m),
        m["t"],
        m["sid"],
        m.get("rid"),
        m.get("front"),
        m.get("minor"),
        bool(m.get("combined", False)),
        m.get("invite"),
    )


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
    its refusal (``error``: code, message, detail; ``particulars``: its typed fields by
    name, ``TableError.particulars``), or ``moved`` (not served there); ``answered``:
    the combined update already answered the take."""

    rid: int
    result: Any = None
    error: tuple[str, str, str | None] | None = None
    moved: bool = False
    answered: bool | None = None
    particulars: dict[str, Any] = field(default_factory=dict)

    @staticmethod
    def refusing(rid: int, e: TableError) -> Reply:
        """The answer to request ``rid`` that the table refused with ``e``, whole."""
        return Reply(rid, error=(e.code, e.message, e.detail), particulars=e.particulars)


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
class Reconnected:
    """The sender is back on its channel: what was sent to it meanwhile was lost (the
    kind ``back``, which the intent ``Back`` shares: this one names no table)."""


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
    IntentFor
    | AdminAsk
    | FrameFor
    | Reply
    | Replaced
    | Rematched
    | Moved
    | Refused
    | Listed
    | Reconnected
    | Released
    | CloseTable
)


def encode(msg: NodeMessage) -> Fields:
    """The map a node sends for ``msg``."""
    match msg:
        case IntentFor(intent, table, handle_id, rid, front, minor, combined, invite):
            kind, fields = encode_intent(intent)
            sent: Fields = {"k": kind, "t": table, "sid": handle_id}
            if rid is not None:
                sent |= {"rid": rid, "front": front}
            if minor is not None:
                sent |= {"minor": minor, "combined": combined}
            if isinstance(intent, i.Join | i.Watch):
                sent["invite"] = invite
            return sent | fields
        case FrameFor(handle_id, frame):
            return {"k": "frame", "sid": handle_id, "f": frame}
        case Reply(rid, result, error, moved, answered, particulars):
            out: Fields = {"k": "reply", "rid": rid}
            if moved:
                out["moved"] = True
            elif error is not None:
                out["error"] = list(error)
                if particulars:  # a key of its own: older nodes read the error without it
                    out["why"] = particulars
            else:
                out["r"] = result
                if answered is not None:
                    out["answered"] = answered
            return out
        case Replaced(handle_id, seat):
            return {"k": "replaced", "sid": handle_id, "seat": seat}
        case Rematched(handle_id, table, created, seat, seats):
            return {
                "k": "rematched",
                "sid": handle_id,
                "t": table,
                "c": created,
                "seat": seat,
                "seats": seats,
            }
        case Moved(table):
            return {"k": "moved", "t": table}
        case Refused(table, handle_id, code, message):
            return {"k": "refused", "t": table, "sid": handle_id, "e": [code, message]}
        case Listed(version, full, changed, deleted):
            if full:
                return {"k": "listed", "v": version, "full": True}
            return {"k": "listed", "v": version, "set": changed, "del": deleted}
        case Reconnected():
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
        dict(m.get("why", {})),
    )


_READ: dict[str, Callable[[Fields], NodeMessage]] = {
    **dict.fromkeys(KINDS, _intent_for),
    "frame": lambda m: FrameFor(m["sid"], m["f"]),
    "reply": _reply,
    "replaced": lambda m: Replaced(m["sid"], m["seat"]),
    "rematched": lambda m: Rematched(m["sid"], m["t"], m["c"], m["seat"], m["seats"]),
    "moved": lambda m: Moved(m["t"]),
    "refused": lambda m: Refused(m["t"], m["sid"], m["e"][0], m["e"][1]),
    "listed": lambda m: Listed(
        m["v"], bool(m.get("full", False)), m.get("set", {}), m.get("del", [])
    ),
    "back": lambda m: _intent_for(m) if "t" in m else Reconnected(),
    "released": lambda m: Released(list(m["tables"])),
    "close": lambda m: CloseTable(m["rid"], m["t"], m.get("seat")),
    "admin_ask": lambda m: AdminAsk(m["rid"], m["a"], m.get("s")),
}


def decode(m: Fields) -> NodeMessage | None:
    """What a node was told (None: a kind this node does not know; ``KeyError``: a
    field missing)."""
    read = _READ.get(m["k"])
    return None if read is None else read(m)
