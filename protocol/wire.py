"""The fast path from the engine's views and events to wire bytes, for the server.

``encode(view_message(view, n), seq=s)`` builds pydantic models and dumps them again: about
45 microseconds for a view, paid for every seat on every take. The dumpers here are
compiled once from the same models (their fields, order, defaults and nesting; generated
as straight code) and walk the engine's dataclasses directly. On top of them:

- ``encode_view`` puts a view message together from msgpack pieces: the runs of fields
  every seat of a take shares are packed once for all of them, and recurring values and
  the engine's interned parts (a kettle's public face, a choice) keep their packed bytes;
- ``encode_events`` and ``encode_payload`` pack a message once for every connection it
  goes to, adding only each connection's ``seq``;
- ``encode_message`` sends any server message through its compiled dumper.

Every cache is bounded and checked by identity or by value: a miss costs time, never
wrong bytes. Tests check byte equality with the model path over many random games and
for every server message type, so the models stay the single definition of the wire
format.
"""

from __future__ import annotations

import operator
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
    "encode_message",
    "encode_payload",
    "encode_view",
    "events_payload",
    "message_payload",
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

        return lambda v: [item(x) for x in v]
    return None


Field = tuple[str, Any, "Dump | None"]


@cache
def _fields(model: type[BaseModel]) -> tuple[tuple[str, Any] | None, tuple[Field, ...]]:
    """The model's tag (name, value) if it has one, and its other fields in wire order:
    (name, default or ``_MISSING`` if required, how to dump the value)."""
    fields: list[Field] = []
    tag = None
    for name, info in model.model_fields.items():
        if name in ("type", "kind") and typing.get_origin(info.annotation) is typing.Literal:
            tag = (name, info.default)  # a message's or event's tag: always sent
            continue
        default = _MISSING if info.is_required() else info.default
        fields.append((name, default, _converter(info.annotation)))
    return tag, tuple(fields)


@cache
def _compile(model: type[BaseModel]) -> Dump:
    """A dumper equal to ``model_dump(mode="json", exclude_defaults=True,
    exclude_none=True)`` of the model built from the same source object."""
    if model is TableOptions:
        return _options
    tag, fields = _fields(model)

    def dump_dict(obj: dict[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = {tag[0]: tag[1]} if tag is not None else {}
        for name, default, conv in fields:
            value = obj[name]
            if value is None or (default is not _MISSING and value == default):
                continue
            out[name] = value if conv is None else conv(value)
        return out

    # For the engine's dataclasses: the same loop unrolled into straight code.
    env: dict[str, Any] = {"dump_dict": dump_dict}
    lines = ["def dump(obj):", "    if isinstance(obj, dict):", "        return dump_dict(obj)"]
    lines.append(f"    out = {{{tag[0]!r}: {tag[1]!r}}}" if tag is not None else "    out = {}")
    for i, (name, default, conv) in enumerate(fields):
        test = "v is not None"
        if default is not _MISSING:
            env[f"d{i}"] = default
            test += f" and v != d{i}"
        value = "v"
        if conv is not None:
            env[f"c{i}"] = conv
            value = f"c{i}(v)"
        lines += [f"    v = obj.{name}", f"    if {test}:", f"        out[{name!r}] = {value}"]
    lines.append("    return out")
    exec("\n".join(lines), env)  # our own code, generated from the model
    dump: Dump = env["dump"]

    return dump


@lru_cache(maxsize=256)
def _options_dump(items: tuple[tuple[str, Any], ...]) -> dict[str, Any]:
    model = options_from_shared(dict(items))
    dumped: dict[str, Any] = model.model_dump(mode="json", exclude_defaults=True, exclude_none=True)
    return dumped


def _options(value: Any) -> dict[str, Any]:
    if isinstance(value, Options):
        value = value.to_dict(public=True)
    elif isinstance(value, BaseModel):  # a TableOptions in a message being sent
        return _model_options(value)
    key = tuple(value.items())
    found = _OPTIONS.get(key)
    if found is None:
        if len(_OPTIONS) >= 256:
            _OPTIONS.clear()
        found = _OPTIONS[key] = _options_dump(tuple(sorted(key)))
    return found


_OPTIONS: dict[tuple[tuple[str, Any], ...], dict[str, Any]] = {}
"""Dumped options by their items in order (the dicts are never mutated, only packed)."""


@lru_cache(maxsize=256)
def _model_options(value: BaseModel) -> dict[str, Any]:  # frozen models hash by value
    dumped: dict[str, Any] = value.model_dump(mode="json", exclude_defaults=True, exclude_none=True)
    return dumped


_VIEW = _compile(GameView)
_EVENTS = {kind: _compile(model) for kind, model in EVENT_MODELS.items()}


def message_payload(model: type[BaseModel], source: Any) -> dict[str, Any]:
    """The dict ``encode`` packs for ``model`` built from ``source`` (a dict, or an
    object with the model's fields as attributes), without building the model: for
    a message the server makes often from its own data (a test checks the bytes)."""
    payload: dict[str, Any] = _compile(model)(source)
    return payload


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


# ---------------------------------------------------------------- msgpack by pieces
# A msgpack map is a header followed by its keys and values, each packed on its own;
# packing ``[k1, v1, k2, v2]`` and cutting off the array's header gives exactly those
# bytes. So a message can be put together from pieces packed once and shared: the
# parts of a take's views that every seat sees, or an events payload sent to everyone.


def _body(flat: list[Any]) -> bytes:
    """The packed items of ``flat`` without the array header."""
    packed: bytes = msgpack.packb(flat)
    n = len(flat)
    return packed[1 if n < 16 else 3 if n < 0x10000 else 5 :]


def _header(fix: int, n: int) -> bytes:
    """A msgpack map (``fix`` 0x80) or array (0x90) header for ``n`` entries."""
    if n < 16:
        return bytes((fix | n,))
    code = 0xDE if fix == 0x80 else 0xDC  # 16-bit count; the 32-bit code is one more
    if n < 0x10000:
        return bytes((code,)) + n.to_bytes(2, "big")
    return bytes((code + 1,)) + n.to_bytes(4, "big")


def _map_header(n: int) -> bytes:
    return _header(0x80, n)


def _array_header(n: int) -> bytes:
    return _header(0x90, n)


def _int(n: int) -> bytes:
    """A non-negative int as msgpack packs it."""
    if n < 0x80:
        return _SMALL[n]
    packed: bytes = msgpack.packb(n)
    return packed


_SMALL = tuple(bytes((i,)) for i in range(0x80))


Enc = Callable[[Any], bytes]
_CACHE_MAX = 4096


def _by_value(key: bytes) -> Enc:
    """Key and value packed, kept by value (for values that recur: numbers, short
    tuples, a seat's recipes). One cache per field, so True and 1 never meet."""
    cache: dict[Any, bytes] = {}

    def enc(value: Any) -> bytes:
        found = cache.get(value)
        if found is None:
            if len(cache) >= _CACHE_MAX:
                cache.clear()
            found = cache[value] = key + msgpack.packb(value)
        return found

    return enc


def _by_item(key: bytes, dump: Dump) -> Enc:
    """A tuple of engine objects that ``shared.view`` interns (kettles, choices): each
    object packed once while it lives, kept by identity (with the object, so an id is
    never reused while it is here)."""
    cache: dict[int, tuple[Any, bytes]] = {}

    def item(x: Any) -> bytes:
        hit = cache.get(id(x))
        if hit is not None and hit[0] is x:
            return hit[1]
        packed: bytes = msgpack.packb(dump(x))
        if len(cache) >= _CACHE_MAX * 4:
            cache.clear()
        cache[id(x)] = (x, packed)
        return packed

    def enc(value: Any) -> bytes:
        return key + _array_header(len(value)) + b"".join(map(item, value))

    return enc


def _generic(key: bytes, conv: Dump | None) -> Enc:
    def enc(value: Any) -> bytes:
        packed: bytes = msgpack.packb(value if conv is None else conv(value))
        return key + packed

    return enc


def _field_encoder(field: Field) -> Enc:
    """Bytes of ``key, value`` for one ``GameView`` field."""
    name, _, conv = field
    key = _body([name])
    annotation = GameView.model_fields[name].annotation
    if name in ("grid", "removed"):  # too many different values to keep
        return _generic(key, conv)
    if name == "options":
        return lambda value: key + _options_packed(value)
    if name == "scores":  # once per game, and made of dicts
        return _generic(key, conv)
    if typing.get_origin(annotation) is tuple:
        model = typing.get_args(annotation)[0]
        if isinstance(model, type) and issubclass(model, BaseModel):
            return _by_item(key, _compile(model))
    return _by_value(key)


def _options_packed(value: Any) -> bytes:
    items = tuple(value.items())
    found = _OPTIONS_PACKED.get(items)
    if found is None:
        if len(_OPTIONS_PACKED) >= 256:
            _OPTIONS_PACKED.clear()
        found = _OPTIONS_PACKED[items] = msgpack.packb(_options(value))
    return found


_OPTIONS_PACKED: dict[tuple[tuple[str, Any], ...], bytes] = {}


class _Run:
    """A run of consecutive ``GameView`` fields that every view of one take shares. The
    last run packed is kept with the values it was packed from; a view whose values are
    the very same objects reuses the bytes (the check is by identity, so it can never
    be wrong, only miss)."""

    __slots__ = ("get", "last", "parts")

    def __init__(self, fields: Sequence[Field]) -> None:
        names = [f[0] for f in fields]
        self.get = operator.attrgetter(*names) if len(names) > 1 else _one(names[0])
        self.parts = _compile_parts(fields)
        self.last: tuple[tuple[Any, ...], int, bytes] | None = None

    def pack(self, view: View) -> tuple[int, bytes]:
        values = self.get(view)
        last = self.last
        if last is not None and all(map(operator.is_, values, last[0])):
            return last[1], last[2]
        parts = self.parts(values)
        body = b"".join(parts)
        self.last = (values, len(parts), body)
        return len(parts), body


def _compile_parts(fields: Sequence[Field]) -> Callable[[tuple[Any, ...]], list[bytes]]:
    """``values -> [key and value bytes of each field that goes on the wire]``, the loop
    over the fields unrolled into straight code (generated once per run at import)."""
    env: dict[str, Any] = {}
    lines = ["def parts(values):", "    out = []"]
    names = ", ".join(f"v{i}" for i in range(len(fields)))
    lines.append(f"    {names}{',' if len(fields) == 1 else ''} = values")
    for i, (_, default, _) in enumerate(fields):
        env[f"e{i}"] = _field_encoder(fields[i])
        test = f"v{i} is not None"
        if default is not _MISSING:
            env[f"d{i}"] = default
            test += f" and v{i} != d{i}"
        lines.append(f"    if {test}:")
        lines.append(f"        out.append(e{i}(v{i}))")
    lines.append("    return out")
    exec("\n".join(lines), env)  # our own code, generated from the model
    parts: Callable[[tuple[Any, ...]], list[bytes]] = env["parts"]
    return parts


def _one(name: str) -> Callable[[Any], tuple[Any]]:
    get = operator.attrgetter(name)
    return lambda v: (get(v),)


_PER_SEAT = frozenset({"seat", "recipes"})
"""``GameView`` fields that differ between the seats of one take (``kettles`` too under
casual memory: it is a run of its own, so the seat's own kettle just misses)."""


class _Single:
    """A field that differs between the seats of one take (the seat, its recipes): few
    values, each packed once (``_by_value``)."""

    __slots__ = ("default", "enc", "get")

    def __init__(self, field: Field) -> None:
        self.get = operator.attrgetter(field[0])
        self.default = field[1]
        self.enc = _field_encoder(field)

    def pack(self, view: View) -> tuple[int, bytes]:
        value = self.get(view)
        if value is None or (self.default is not _MISSING and value == self.default):
            return 0, b""
        return 1, self.enc(value)


def _view_plan() -> tuple[_Run | _Single, ...]:
    """The view's fields in wire order, cut into runs: the shared ones between the
    per-seat ones; ``kettles`` is a run of its own (per seat under casual memory)."""
    plan: list[_Run | _Single] = []
    run: list[Field] = []
    for f in _fields(GameView)[1]:
        if f[0] in _PER_SEAT or f[0] == "kettles":
            if run:
                plan.append(_Run(run))
                run = []
            plan.append(_Single(f) if f[0] in _PER_SEAT else _Run([f]))
        else:
            run.append(f)
    if run:
        plan.append(_Run(run))
    return tuple(plan)


_VIEW_PLAN = _view_plan()
_VIEW_HEAD = b"\x84" + _body(["type", "view", "seq"])
_K_STATE_VERSION = _body(["state_version"])
_K_VIEW = _body(["view"])


def encode_view(view: View, state_version: int, seq: int) -> bytes:
    """Same bytes as ``encode(view_message(view, state_version), seq=seq)``. The views
    of one take (``shared.view.views``) share their public parts, which are packed once
    for all of them when they are encoded one after the other."""
    if state_version < 0 or seq < 0:
        return _pack(view_payload(view, state_version), seq)
    parts = [_VIEW_HEAD, _int(seq), _K_STATE_VERSION, _int(state_version), _K_VIEW, b""]
    count = 0
    for run in _VIEW_PLAN:
        n, body = run.pack(view)
        count += n
        parts.append(body)
    parts[5] = _map_header(count)
    return b"".join(parts)


def _pack(payload: dict[str, Any], seq: int) -> bytes:
    data = {"type": payload["type"], "seq": seq}
    data.update(payload)
    out: bytes = msgpack.packb(data)
    return out


def encode_events(events: Sequence[Event], state_version: int, seq: int) -> bytes:
    """Same bytes as ``encode(events_message(events, state_version), seq=seq)``. The
    events of one update go to every seat and spectator one after the other: they are
    packed once (kept with the very list and version; the list must not change)."""
    global _last_events
    memo = _last_events
    if memo is None or memo[0] is not events or memo[1] != state_version or seq < 0:
        if seq < 0 or state_version < 0:
            return _pack(events_payload(events, state_version), seq)
        body = b"".join(
            (
                _K_STATE_VERSION,
                _int(state_version),
                _K_EVENTS,
                _pack_one([_EVENTS[e.kind](e) for e in events]),
            )
        )
        memo = _last_events = (events, state_version, body)
    return b"".join((_EVENTS_HEAD, _int(seq), memo[2]))


_last_events: tuple[Sequence[Event], int, bytes] | None = None
_EVENTS_HEAD = b"\x84" + _body(["type", "events", "seq"])
_K_EVENTS = _body(["events"])


def _pack_one(value: Any) -> bytes:
    packed: bytes = msgpack.packb(value)
    return packed


def encode_payload(payload: dict[str, Any], seq: int) -> bytes:
    """Pack a payload built once (e.g. the events of a take, for every seat) with this
    connection's seq. The payload is packed once for all the connections it goes to
    one after the other: it must not change after its first encoding."""
    global _last_payload
    memo = _last_payload
    if memo is None or memo[0] is not payload:
        flat: list[Any] = []
        for key, value in payload.items():
            if key != "type":
                flat += (key, value)
        head = _map_header(len(flat) // 2 + 2) + _body(["type", payload["type"], "seq"])
        memo = _last_payload = (payload, head, _body(flat))
    if seq < 0:
        return _pack(payload, seq)
    return b"".join((memo[1], _int(seq), memo[2]))


_last_payload: tuple[dict[str, Any], bytes, bytes] | None = None


def encode_message(msg: BaseModel, seq: int, re: int | None = None) -> bytes:
    """Same bytes as ``encode(msg.model_copy(update={"re": re}), seq=seq)`` (``re`` only
    if given), through the dumper compiled from the message's model: for the replies a
    server sends (a test compares every server message type with the model path)."""
    payload = _compile(type(msg))(msg)
    payload.pop("seq", None)
    if re is not None:  # ``re`` comes first after the tag (and seq), as in the model
        payload.pop("re", None)
        payload = {"type": payload.pop("type"), "re": re, **payload}
    return _pack(payload, seq)


def encode_ack(state_version: int, re: int, seq: int) -> bytes:
    """Same bytes as ``encode(AckMsg(state_version=..., re=re), seq=seq)``: the answer to
    every take, so it skips the model too."""
    out: bytes = msgpack.packb(
        {"type": "ack", "seq": seq, "re": re, "state_version": state_version}
    )
    return out
