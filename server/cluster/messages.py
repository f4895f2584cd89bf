"""The intents between nodes: how a session's node writes an intent to the table's
owner, and how the owner reads it back (``server.core.intents``).

One encoder and one decoder, keeping the bytes nodes have always sent (msgpack maps
with these short keys, ``k`` the kind), so that nodes of two versions understand each
other during a rolling upgrade. Around an intent's fields every such message carries
the table (``t``), the session's id at its node (``sid``), the protocol the session
speaks (``minor``, ``combined``), and, when it waits for an answer, the request id
(``rid``) and the session's node (``front``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from shared.game import Take

from ..core import intents as i

__all__ = ["KINDS", "decode_intent", "encode_intent"]

Fields = dict[str, Any]

_ENCODE: dict[type[Any], tuple[str, Callable[[Any], Fields]]] = {
    i.Join: ("join", lambda x: {"player": x.player, "seat": x.seat, "seeded": x.seeded}),
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
    "join": lambda m: i.Join(m["player"], m["seat"], m.get("seeded", False)),
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
