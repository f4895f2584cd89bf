"""The fast path from the engine's views and events to wire bytes, for the server.

``encode(view_message(view, n), seq=s)`` builds pydantic models and dumps them again: about
45 microseconds for a view, paid for every seat on every take. The dumpers here are
compiled once from the same models (their fields, order, defaults and nesting) and
walk the engine's dataclasses directly, giving the same bytes several times faster. A
test checks byte equality with the model path over many random games, so the models
stay the single definition of the wire format.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable, Iterable, Sequence
from functools import cache, lru_cache
from typing import Any

import msgpack  # type: ignore[import-untyped]
from pydantic import BaseModel

from shared.events import Event
from shared.options import Options
from shared.view import View

from .convert import options_from_shared
from .messages import EVENT_MODELS, GameView, TableOptions

__all__ = [
    "encode_ack",
    "encode_events",
    "encode_payload",
    "encode_view",
    "events_payload",
    "view_payload",
]

_MISSING = object()
Dump = Callable[[Any], Any]


def _get(obj: Any, name: str) -> Any:
    return obj[name] if isinstance(obj, dict) else getattr(obj, name)


def _converter(annotation: Any) -> Dump | None:
    """How to dump a value of ``annotation`` (None: as it is; tuples pack as arrays)."""
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return _converter(typing.get_args(annotation)[0])
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return _compile(annotation)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        models = [a for a in args if isinstance(a, type) and issubclass(a, BaseModel)]
        if len(models) > 1:  # a tagged union of events
            by_kind = {m.model_fields["kind"].default: _compile(m) for m in models}
            return lambda v: by_kind[_get(v, "kind")](v)
        inner = [_converter(a) for a in args]
        conv = next((c for c in inner if c is not None), None)
        return None if conv is None else (lambda v: None if v is None else conv(v))
    if origin is tuple:
        items = typing.get_args(annotation)
        item = _converter(items[0]) if items else None
        if item is None:
            return None

        def dump_items(v: Any) -> list[Any]:
            # Views of one take share their public tuples (``shared.view.views``):
            # dump each shared tuple once.
            hit = _SHARED.get(id(v))
            if hit is not None and hit[0] is v:
                return hit[1]
            out = [item(x) for x in v]
            if len(_SHARED) >= _SHARED_MAX:
                _SHARED.clear()
            _SHARED[id(v)] = (v, out)
            return out

        return dump_items
    return None


_SHARED: dict[int, tuple[Any, list[Any]]] = {}
"""Recently dumped tuples by identity (each entry holds the tuple, so an id cannot be
reused while it is here); the dumped lists are never mutated, only packed."""
_SHARED_MAX = 64


@cache
def _compile(model: type[BaseModel]) -> Dump:
    """A dumper equal to ``model_dump(mode="json", exclude_defaults=True,
    exclude_none=True)`` of the model built from the same source object."""
    if model is TableOptions:
        return _options
    fields: list[tuple[str, Any, Dump | None]] = []
    tag = None
    for name, info in model.model_fields.items():
        if name in ("type", "kind"):
            tag = (name, info.default)
            continue
        default = _MISSING if info.is_required() else info.default
        fields.append((name, default, _converter(info.annotation)))

    def dump(obj: Any) -> dict[str, Any]:
        out: dict[str, Any] = {tag[0]: tag[1]} if tag is not None else {}
        get = obj.__getitem__ if isinstance(obj, dict) else obj.__getattribute__
        for name, default, conv in fields:
            value = get(name)
            if value is None or (default is not _MISSING and value == default):
                continue
            out[name] = value if conv is None else conv(value)
        return out

    return dump


@lru_cache(maxsize=256)
def _options_dump(items: tuple[tuple[str, Any], ...]) -> dict[str, Any]:
    model = options_from_shared(dict(items))
    dumped: dict[str, Any] = model.model_dump(mode="json", exclude_defaults=True, exclude_none=True)
    return dumped


def _options(value: Any) -> dict[str, Any]:
    if isinstance(value, Options):
        value = value.to_dict(public=True)
    return dict(_options_dump(tuple(sorted(value.items()))))


_VIEW = _compile(GameView)
_EVENTS = {kind: _compile(model) for kind, model in EVENT_MODELS.items()}


def view_payload(view: View, state_version: int) -> dict[str, Any]:
    """The ``view`` message for ``view`` as a plain dict, without ``seq``."""
    return {"type": "view", "state_version": state_version, "view": _VIEW(view)}


def events_payload(events: Iterable[Event], state_version: int) -> dict[str, Any]:
    """The ``events`` message as a plain dict, without ``seq``."""
    return {
        "type": "events",
        "state_version": state_version,
        "events": [_EVENTS[e.kind](e) for e in events],
    }


def _pack(payload: dict[str, Any], seq: int) -> bytes:
    data = {"type": payload["type"], "seq": seq}
    data.update(payload)
    out: bytes = msgpack.packb(data)
    return out


def encode_view(view: View, state_version: int, seq: int) -> bytes:
    """Same bytes as ``encode(view_message(view, state_version), seq=seq)``."""
    return _pack(view_payload(view, state_version), seq)


def encode_events(events: Sequence[Event], state_version: int, seq: int) -> bytes:
    """Same bytes as ``encode(events_message(events, state_version), seq=seq)``."""
    return _pack(events_payload(events, state_version), seq)


def encode_payload(payload: dict[str, Any], seq: int) -> bytes:
    """Pack a payload built once (e.g. events for every seat) with this connection's seq."""
    return _pack(payload, seq)


def encode_ack(state_version: int, re: int, seq: int) -> bytes:
    """Same bytes as ``encode(AckMsg(state_version=..., re=re), seq=seq)``: the answer to
    every take, so it skips the model too."""
    out: bytes = msgpack.packb(
        {"type": "ack", "seq": seq, "re": re, "state_version": state_version}
    )
    return out
