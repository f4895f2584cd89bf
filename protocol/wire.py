"""Wire bytes: every message is encoded by a dumper compiled from its protocol model.

``dumper(model)`` makes, once per model, a function from a *source* to exactly the dict
``model.model_dump(mode="json", exclude_defaults=True, exclude_none=True)`` of the model
built from that source. A source is an instance of the model, a dict of its fields, or
any object with its fields as attributes: the engine's views and events
(``shared.view``, ``shared.events``) have the models' field names, so the server sends
them without building models. The dumper's code is generated from the model's fields
(their wire order, defaults, nesting and tags; nested models' dumpers called
directly): nothing about a message is written here by hand, and a field added to a
model is on the wire at once.

``encode_as`` packs such a dict as msgpack (``packb``). It is the protocol's one
encoding path: ``protocol.codec.encode`` uses it for any model, and the server for
everything it sends. The tests hold it to the models' own ``model_dump``, for every
message type and over many random games.

One faster path, for a new state's frames (``encode_view``, ``encode_events``,
``encode_update``: what a take sends every seat and spectator), lives at the end of this
module: the same dumpers, but what the recipients share (the events, a spectator's
view, the public parts of the seats' views) dumped and packed once. A test
(tests/protocol/test_wire_splice.py, Hypothesis) holds its bytes to ``encode_as``'s.
"""

from __future__ import annotations

import itertools
import types
import typing
from collections.abc import Callable, Iterable
from functools import cache
from typing import Any

import msgspec
from pydantic import BaseModel

from shared.events import Event
from shared.view import View

from .messages import AckMsg, EventsMsg, GameView, UpdateMsg, ViewMsg

__all__ = ["dumper", "encode_ack", "encode_as", "encode_events", "encode_update", "encode_view"]

Dump = Callable[[Any], Any]

packb: Callable[[Any], bytes] = msgspec.msgpack.encode
"""The msgpack bytes of a dumped message (dicts, lists, tuples, strings, numbers, None):
``msgspec``'s encoder, which writes exactly the bytes ``msgpack.packb`` does for every
such value, the smallest encoding of each (tests/protocol/test_wire_packb.py holds it
to ``msgpack.packb`` over every value a message can hold), in a third of its time
(``bench/take.py``). Every frame the protocol writes is packed here; messages are
read with ``msgpack`` (``protocol.codec``, with its size limits)."""


def _tag(model: type[BaseModel]) -> str | None:
    """The model's tag field (``type`` of a message, ``kind`` of an event), if any."""
    for name in ("type", "kind"):
        info = model.model_fields.get(name)
        if info is not None and typing.get_origin(info.annotation) is typing.Literal:
            return name
    return None


class _Code:
    """The names a generated dumper refers to (``env``), and fresh local names."""

    def __init__(self) -> None:
        self.env: dict[str, Any] = {}
        self.names = itertools.count()

    def bind(self, value: Any) -> str:
        name = f"_{next(self.names)}"
        self.env[name] = value
        return name

    def local(self) -> str:
        return f"x{next(self.names)}"


def _expr(
    annotation: Any, var: str, code: _Code, *, nullable: bool = True, memo: bool = False
) -> str | None:
    """A Python expression dumping the value ``var`` of ``annotation`` (None: as it is;
    tuples pack as arrays). ``nullable``: ``var`` may be None here (a tuple's item; a
    field's value is tested for None before)."""
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return _expr(typing.get_args(annotation)[0], var, code, nullable=nullable, memo=memo)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        from_dict, from_attrs = _compiled(annotation, frozenset(), memo)
        fd, fa = code.bind(from_dict), code.bind(from_attrs)
        return f"({fd}({var}) if isinstance({var}, dict) else {fa}({var}))"
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        models = [a for a in args if isinstance(a, type) and issubclass(a, BaseModel)]
        if len(models) > 1:  # a union tagged by ``kind`` (the events)
            by_kind = {m.model_fields["kind"].default: _compiled(m) for m in models}
            d = code.bind({k: f[0] for k, f in by_kind.items()})
            a = code.bind({k: f[1] for k, f in by_kind.items()})
            by_dict, by_attr = f"{d}[{var}['kind']]({var})", f"{a}[{var}.kind]({var})"
            return f"({by_dict} if isinstance({var}, dict) else {by_attr})"
        inner = next(
            (e for x in args if (e := _expr(x, var, code, nullable=False, memo=memo))), None
        )
        if inner is None or not nullable or len(args) == len(typing.get_args(annotation)):
            return inner
        return f"(None if {var} is None else {inner})"
    if origin is tuple:
        items = typing.get_args(annotation)
        x = code.local()
        item = _expr(items[0], x, code) if items else None
        return None if item is None else f"[{item} for {x} in {var}]"
    return None


@cache
def _compiled(
    model: type[BaseModel], skip: frozenset[str] = frozenset(), memo: bool = False
) -> tuple[Callable[..., Any], Callable[..., Any]]:
    """The generated dumpers of ``model``, one for a dict source and one for an object
    with the fields as attributes: straight code, one statement per field in the
    model's field order, nested models' dumpers called directly. A field is left out
    when it is None or equals its default; the tag is always written first. A model
    with ``seq`` and ``re`` fields (a message) takes them as arguments too: when given
    they replace the source's, and are written even at their default. Fields in
    ``skip`` are left to the caller (``_frame``). With ``memo`` (for the frame path's
    immutable views only), a field's dumped value is kept with the object it came from
    and reused while the next source has that very object (the views of one state
    share their public parts, ``shared.view.views``)."""
    tag = _tag(model)
    code = _Code()
    fields = model.model_fields
    head = f"    out = {{{tag!r}: {fields[tag].default!r}}}" if tag else "    out = {}"
    given = "seq" in fields and "re" in fields
    args = "(obj, seq=None, re=None)" if given else "(obj)"
    by_key = [f"def from_dict{args}:", head]
    by_attr = [f"def from_attrs{args}:", head]
    for name, info in fields.items():
        if name == tag or name in skip:
            continue
        test = "v is not None"
        if info.is_required():
            get_key = f"obj[{name!r}]"
        else:
            d = code.bind(info.default)
            test += f" and v != {d}"
            get_key = f"obj.get({name!r}, {d})"
        value = _expr(info.annotation, "v", code, nullable=False)
        for lines, get in ((by_key, get_key), (by_attr, f"obj.{name}")):
            pad = "    "
            if given and name in ("seq", "re"):
                lines += [f"    if {name} is not None:", f"        out[{name!r}] = {name}"]
                lines.append("    else:")
                pad = "        "
            lines += [f"{pad}v = {get}", f"{pad}if {test}:"]
            if value is None:
                lines.append(f"{pad}    out[{name!r}] = v")
            elif not memo:
                lines.append(f"{pad}    out[{name!r}] = {value}")
            else:  # the cell holds (the last object, its dumped value)
                cell = code.bind([(None, None)])
                lines += [
                    f"{pad}    last = {cell}[0]",
                    f"{pad}    if last[0] is v:",
                    f"{pad}        out[{name!r}] = last[1]",
                    f"{pad}    else:",
                    f"{pad}        out[{name!r}] = r = {value}",
                    f"{pad}        {cell}[0] = (v, r)",
                ]
    by_key.append("    return out")
    by_attr.append("    return out")
    exec("\n".join(by_key + by_attr), code.env)  # our own code, generated from the model
    return code.env["from_dict"], code.env["from_attrs"]


@cache
def _numbered(model: type[BaseModel]) -> bool:
    """Whether ``model`` is a message with ``seq`` and ``re`` fields (its dumpers take
    them as arguments), asked once per model: ``model_fields`` is a property of
    pydantic's that costs a microsecond a read."""
    fields = model.model_fields
    return "seq" in fields and "re" in fields


@cache
def dumper(model: type[BaseModel]) -> Dump:
    """The compiled dumper of ``model`` (see the module's docstring and ``_compiled``)."""
    from_dict, from_attrs = _compiled(model)

    def dump(obj: Any) -> dict[str, Any]:
        return from_dict(obj) if isinstance(obj, dict) else from_attrs(obj)  # type: ignore[no-any-return]

    return dump


def encode_as(
    model: type[BaseModel], source: Any, *, seq: int | None = None, re: int | None = None
) -> bytes:
    """The wire form of the ``model`` message built from ``source``: a msgpack map with
    the tag first, fields at their default left out. ``seq`` and ``re``, if given,
    replace the source's (so one message can go to many connections)."""
    from_dict, from_attrs = _compiled(model)
    if _numbered(model):
        data = (
            from_dict(source, seq, re) if isinstance(source, dict) else from_attrs(source, seq, re)
        )
    else:
        data = from_dict(source) if isinstance(source, dict) else from_attrs(source)
        if seq is not None or re is not None:  # not a message: a head of its own
            tag = data.pop("type")
            head: dict[str, Any] = {"type": tag}
            if seq is not None:
                head["seq"] = seq
            if re is not None:
                head["re"] = re
            head.update(data)
            data = head
    packed: bytes = packb(data)
    return packed


# ---------------------------------------------------------------- a new state's frames
# The frames of one new state (``view``, ``events``, ``update``) share most of their
# bytes between the recipients of a take: every seat and spectator gets the same events,
# spectators the same view. So those frames are spliced: the message's head (its tag,
# ``seq``, ``re``, ``state_version``) packed per frame, then its last fields, ``events``
# and ``view``, as bytes packed once per object. A msgpack map is its size's header and
# then its keys and values one after another, so the splice is byte for byte the
# message's ``encode_as`` (tests/protocol/test_wire_splice.py holds it to that).

_TAIL = ("events", "view")
"""The fields a state message ends with, packed once for every recipient."""


@cache
def _framer(model: type[BaseModel]) -> tuple[Callable[..., Any], tuple[Any, ...]]:
    """How to frame the state message ``model``: the dumper of its head (every field
    but the tail) and, for each of its last fields in ``_TAIL``, its name, its packed
    key, its default (``_REQUIRED`` if none), its annotation and its value's dumper
    (``_tail_dump``, nothing left out)."""
    names = list(model.model_fields)
    tail = [n for n in names if n in _TAIL]
    assert names[len(names) - len(tail) :] == tail, f"{model.__name__}: tail fields last"
    out = []
    for name in tail:
        info = model.model_fields[name]
        default = _REQUIRED if info.is_required() else info.default
        annotation: Any = info.annotation
        out.append((name, packb(name), default, annotation, _tail_dump(annotation, _NONE)))
    return _compiled(model, frozenset(_TAIL))[0], tuple(out)


@cache
def _tail_dump(annotation: Any, lacks: frozenset[str]) -> Callable[[Any], Any]:
    """The dumper of a tail field's value of ``annotation``, a view's fields in
    ``lacks`` left out (as if None), the views' shared parts dumped once (``memo``)."""
    if annotation is GameView:
        return _compiled(GameView, lacks, memo=True)[1]
    assert not lacks
    code = _Code()
    expr = _expr(annotation, "v", code, nullable=False, memo=True) or "v"
    return eval(f"lambda v: {expr}", code.env)  # type: ignore[no-any-return]


_REQUIRED = object()
_packed: dict[Callable[[Any], Any], tuple[Any, bytes]] = {}
"""Per tail dumper, the last value packed and its bytes (the value kept alive, so that
``is`` can only match that very object)."""


def _pack(dump: Callable[[Any], Any], value: Any) -> bytes:
    """``value`` packed with ``dump``, once for consecutive recipients: a value that
    cannot change (a tuple of events, a frozen view) is packed again only when another
    one comes."""
    last = _packed.get(dump)
    if last is not None and last[0] is value:
        return last[1]
    packed: bytes = packb(dump(value))
    if isinstance(value, (tuple, View)):  # (a tuple of types: no union made per call)
        _packed[dump] = (value, packed)
    return packed


def _frame(
    model: type[BaseModel],
    state_version: int,
    seq: int,
    re: int | None,
    lacks: frozenset[str],
    by_computer: bool = False,
    **tail: Any,
) -> bytes:
    """The ``model`` message (a state message) of ``state_version`` and the ``tail``
    fields' values, exactly as ``encode_as`` makes it, its tail packed once (a view's
    fields in ``lacks`` left out; ``by_computer``: 1.4's mark of a computer's take)."""
    head_dump, tails = _framer(model)
    source = {"state_version": state_version, "by_computer": True} if by_computer else None
    head = packb(head_dump(source or {"state_version": state_version}, seq, re))
    parts = [b"", head[1:]]
    for name, key, default, annotation, dump in tails:
        value = tail[name]
        if value is not None and (default is _REQUIRED or value != default):
            if lacks and name == "view":
                dump = _tail_dump(annotation, lacks)
            parts += (key, _pack(dump, value))
    count = (head[0] & 0x0F) + (len(parts) - 2) // 2  # every head is a fixmap (< 16)
    parts[0] = bytes((0x80 | count,))
    return b"".join(parts)


_NONE: frozenset[str] = frozenset()


def encode_view(view: View, state_version: int, seq: int, lacks: frozenset[str] = _NONE) -> bytes:
    """The ``view`` message of one seat's (or a spectator's) view, without its fields
    in ``lacks`` (what an older minor version does not know: as if they were None)."""
    return _frame(ViewMsg, state_version, seq, None, lacks, view=view)


def encode_events(
    events: Iterable[Event], state_version: int, seq: int, by_computer: bool = False
) -> bytes:
    """The ``events`` message of public events leading to ``state_version``
    (``by_computer``: 1.4, a computer player made the take for a person's seat)."""
    return _frame(EventsMsg, state_version, seq, None, _NONE, by_computer, events=events)


def encode_ack(state_version: int, re: int, seq: int) -> bytes:
    """The ``ack`` answering the take ``re``."""
    return encode_as(AckMsg, {"state_version": state_version}, seq=seq, re=re)


def encode_update(
    events: Iterable[Event],
    view: View,
    state_version: int,
    seq: int,
    re: int | None = None,
    lacks: frozenset[str] = _NONE,
    by_computer: bool = False,
) -> bytes:
    """Protocol 1.1's ``update`` message: one new state (its events and the view) in one
    message, answering the take ``re`` for the mover (``lacks``: see ``encode_view``;
    ``by_computer``: see ``encode_events``)."""
    events = events if isinstance(events, tuple) else tuple(events)
    return _frame(UpdateMsg, state_version, seq, re, lacks, by_computer, events=events, view=view)
