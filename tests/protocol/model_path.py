"""The reference encoding the tests hold ``protocol.wire`` to: pydantic's own dump."""

from __future__ import annotations

import msgpack  # type: ignore[import-untyped]
from pydantic import BaseModel


def by_model(msg: BaseModel, seq: int | None = None, re: int | None = None) -> bytes:
    """The reference: pydantic's own dump of the model (the protocol's definition of
    the wire form: fields at their default left out, the tag always first)."""
    data = msg.model_dump(mode="json", exclude_defaults=True, exclude_none=True)
    if re is not None:
        data.pop("re", None)
        data = {"type": data.pop("type"), "re": re, **data}
    if seq is not None:
        data.pop("seq", None)
        data = {"type": data.pop("type"), "seq": seq, **data}
    out: bytes = msgpack.packb(data)
    return out
