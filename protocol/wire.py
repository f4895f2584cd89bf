"""Wire bytes: every message is encoded by a dumper compiled from its protocol model.

``dumper(model)`` makes, once per model, a function from a *source* to exactly the dict
``model.model_dump(mode="json", exclude_defaults=True, exclude_none=True)`` of the model
built from that source. A source is an instance of the model, a dict of its fields, or
any object with its fields as attributes: the engine's views and events
(``shared.view``, ``shared.events``) have the models' field names, so the server sends
them without building models, about four times faster. The dumper's code is generated
from the model's fields (their wire order, defaults, nesting and tags): nothing about a
message is written here by hand, and a field added to a model is on the wire at once.

``encode_as`` packs such a dict with msgpack. It is the protocol's one encoding path:
``protocol.codec.encode`` uses it for any model, and the server for everything it
sends. The tests hold it to the models' own ``model_dump``, for every message type and
over many random games.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable, Iterable
from functools import cache
from typing import Any

import msgpack  # type: ignore[import-untyped]
from pydantic import BaseModel

from shared.events import Event
from shared.view import View

from .messages import AckMsg, EventsMsg, UpdateMsg, ViewMsg

__all__ = ["dumper", "encode_ack", "encode_as", "encode_events", "encode_update", "encode_view"]

Dump = Callable[[Any], Any]
_REQUIRED = object()
"""The default of a required field (it is always dumped, even when None would be)."""


def _tag(model: type[BaseModel]) -> str | None:
    """The model's tag field (``type`` of a message, ``kind`` of an event), if any."""
    for name in ("type", "kind"):
        info = model.model_fields.get(name)
        if info is not None and typing.get_origin(info.annotation) is typing.Literal:
            return name
    return None


def _get(obj: Any, name: str) -> Any:
    return obj[name] if isinstance(obj, dict) else getattr(obj, name)


def _converter(annotation: Any) -> Dump | None:
    """How to dump a value of ``annotation`` (None: as it is; tuples pack as arrays)."""
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return _converter(typing.get_args(annotation)[0])
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return dumper(annotation)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        models = [a for a in args if isinstance(a, type) and issubclass(a, BaseModel)]
        if len(models) > 1:  # a union tagged by ``kind`` (the events)
            by_kind = {m.model_fields["kind"].default: dumper(m) for m in models}
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


@cache
def dumper(model: type[BaseModel]) -> Dump:
    """The compiled dumper of ``model`` (see the module's docstring): generated code,
    one statement per field, in the model's field order. A field is left out when it is
    None or equals its default; the tag is always written first."""
    tag = _tag(model)
    env: dict[str, Any] = {}
    head = f"    out = {{{tag!r}: {model.model_fields[tag].default!r}}}" if tag else "    out = {}"
    by_key = ["def from_dict(obj):", head]
    by_attr = ["def from_attrs(obj):", head]
    for i, (name, info) in enumerate(model.model_fields.items()):
        if name == tag:
            continue
        test = "v is not None"
        if info.is_required():
            by_key.append(f"    v = obj[{name!r}]")
        else:
            env[f"d{i}"] = info.default
            test += f" and v != d{i}"
            by_key.append(f"    v = obj.get({name!r}, d{i})")
        by_attr.append(f"    v = obj.{name}")
        value = "v"
        conv = _converter(info.annotation)
        if conv is not None:
            env[f"c{i}"] = conv
            value = f"c{i}(v)"
        for lines in (by_key, by_attr):
            lines += [f"    if {test}:", f"        out[{name!r}] = {value}"]
    by_key.append("    return out")
    by_attr.append("    return out")
    exec("\n".join(by_key + by_attr), env)  # our own code, generated from the model
    from_dict, from_attrs = env["from_dict"], env["from_attrs"]

    def dump(obj: Any) -> dict[str, Any]:
        return from_dict(obj) if isinstance(obj, dict) else from_attrs(obj)  # type: ignore[no-any-return]

    return dump


def encode_as(
    model: type[BaseModel], source: Any, *, seq: int | None = None, re: int | None = None
) -> bytes:
    """The wire form of the ``model`` message built from ``source``: a msgpack map with
    the tag first, fields at their default left out. ``seq`` and ``re``, if given,
    replace the source's (so one message can go to many connections)."""
    data: dict[str, Any] = dumper(model)(source)
    if seq is not None or re is not None:
        tag = data.pop("type")
        old_seq, old_re = data.pop("seq", None), data.pop("re", None)
        seq, re = old_seq if seq is None else seq, old_re if re is None else re
        head: dict[str, Any] = {"type": tag}
        if seq is not None:
            head["seq"] = seq
        if re is not None:
            head["re"] = re
        head.update(data)
        data = head
    packed: bytes = msgpack.packb(data)
    return packed


def encode_view(view: View, state_version: int, seq: int) -> bytes:
    """The ``view`` message of one seat's (or a spectator's) view."""
    return encode_as(ViewMsg, {"state_version": state_version, "view": view}, seq=seq)


def encode_events(events: Iterable[Event], state_version: int, seq: int) -> bytes:
    """The ``events`` message of public events leading to ``state_version``."""
    return encode_as(EventsMsg, {"state_version": state_version, "events": events}, seq=seq)


def encode_ack(state_version: int, re: int, seq: int) -> bytes:
    """The ``ack`` answering the take ``re``."""
    return encode_as(AckMsg, {"state_version": state_version}, seq=seq, re=re)


def encode_update(
    events: Iterable[Event], view: View, state_version: int, seq: int, re: int | None = None
) -> bytes:
    """Protocol 1.1's ``update`` message: one new state (its events and the view) in one
    message, answering the take ``re`` for the mover."""
    source = {"state_version": state_version, "events": tuple(events), "view": view}
    return encode_as(UpdateMsg, source, seq=seq, re=re)
