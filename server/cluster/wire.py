"""What crosses between nodes besides their messages: a frame's ``seq`` spliced in
place, the names of the Redis keys every node agrees on, and Redis's failure while
someone waits on it (``reachable``)."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator

import msgpack  # type: ignore[import-untyped]
from redis.exceptions import RedisError

from ..core.errors import CLUSTER_UNAVAILABLE, unavailable

__all__ = ["lease_key", "reachable", "text", "with_seq"]

log = logging.getLogger("kupferkessel.cluster")

_SEQ_ZERO = b"\xa3seq\x00"  # the key "seq" and the value 0, as msgpack packs them


def with_seq(frame: bytes, seq: int) -> bytes:
    """A frame made with ``seq`` 0 (by the owner of a table) with the connection's own
    ``seq`` instead: every server message is a map starting ``type``, ``seq``, so the
    value is spliced in place; the bytes are those a local session would have sent."""
    at = frame.find(_SEQ_ZERO, 0, 48)
    if at < 0:  # not our framing: unpack and pack again (the same map, the new seq)
        data = msgpack.unpackb(frame, raw=False, strict_map_key=False)
        data["seq"] = seq
        out: bytes = msgpack.packb(data)
        return out
    head = at + len(_SEQ_ZERO) - 1
    packed: bytes = msgpack.packb(seq)
    return frame[:head] + packed + frame[head + 1 :]


def text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def lease_key(table_id: str) -> str:
    """The Redis key of a table's lease: its value is the id of the node serving it."""
    return f"kk:lease:{table_id}"


@contextlib.asynccontextmanager
async def reachable(what: str) -> AsyncIterator[None]:
    """Redis's failure (a timeout, a lost connection) while a session (or the
    operator) waits on it: a typed ``internal`` error that tells the client to try
    again (``detail`` ``cluster_unavailable``), and a warning, never a traceback logged as a
    server bug."""
    try:
        yield
    except (RedisError, OSError) as e:
        log.warning("cluster unreachable", extra={"during": what, "error": repr(e)})
        raise unavailable(CLUSTER_UNAVAILABLE) from e
