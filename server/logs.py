"""Structured logs: one JSON object per line, with the ``extra`` fields of each record.

Every line the process writes to its log is one JSON object, whoever logs it: the
handler sits on the root logger, so the WebSocket library's own errors (a failed
handshake, with its traceback) and asyncio's (``socket.accept() out of system
resource``) come out as JSON too, the traceback as the ``exc`` string. Line separators
other than ``\\n`` that JSON leaves raw (U+2028, U+2029, U+0085) are escaped, so a name
a client chose cannot split a line for a line-based reader.

A peer cannot flood the log: each (client address, logger, message) has a token bucket
(``LogLimit``, 30 lines then 2 per second); lines beyond it are dropped and counted, and
the next line of that kind that passes carries ``suppressed``: how many were dropped.
The client address is the one the per-address quotas count by (``source_of``): behind a
trusted reverse proxy the forwarded client's, not the proxy's, which every client shares.
Lines without a peer are limited by (logger, message) alike.

Seat tokens and invite codes are never passed to the logger; as a second line of defence
any field whose name mentions a token or invite is masked. At debug, websockets logs
each request's and answer's headers: those that carry credentials (``Authorization``,
``Cookie``, ...) are masked (``NoCredentials``), and so is a request line's query.
"""

from __future__ import annotations

import json
import logging
import sys
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

__all__ = [
    "JsonFormatter",
    "LogLimit",
    "NoCredentials",
    "peer_fields",
    "peer_of",
    "set_level",
    "setup_logging",
    "source_of",
]

_STANDARD = set(vars(logging.makeLogRecord({}))) | {"message", "asctime", "taskName"}
_SECRET_WORDS = ("token", "invite", "secret")
# characters str.splitlines() breaks on that json.dumps(ensure_ascii=False) leaves raw
_LINE_BREAKS = str.maketrans({"\u2028": "\\u2028", "\u2029": "\\u2029", "\x85": "\\u0085"})


def peer_of(record: logging.LogRecord) -> str | None:
    """The peer address a record is about: our ``peer`` field ("host:port"), or the
    connection the WebSocket library logs with (its ``websocket`` extra)."""
    peer = getattr(record, "peer", None)
    if isinstance(peer, str):
        return peer
    ws = getattr(record, "websocket", None)
    if ws is not None:
        try:
            host, port = ws.remote_address[:2]
            return f"{host}:{port}"
        except Exception:
            return None
    return None


def peer_fields(peer: str, address: str) -> dict[str, str]:
    """The ``extra`` fields of a line about a connection: its ``peer`` ("host:port"),
    and its ``address``, the client address the quotas count by, when that is not the
    peer's host (behind a trusted proxy: the forwarded client)."""
    if address == peer.rsplit(":", 1)[0]:
        return {"peer": peer}
    return {"peer": peer, "address": address}


def source_of(record: logging.LogRecord) -> str | None:
    """The client a record is about, as the quotas count clients: its ``address``
    field, or the ``quota_address`` of the library's connection it is logged with, or
    else the host of its peer (``peer_of``)."""
    address = getattr(record, "address", None)
    if address is None:
        address = getattr(getattr(record, "websocket", None), "quota_address", None)
    if isinstance(address, str):
        return address
    peer = peer_of(record)
    return peer.rsplit(":", 1)[0] if peer else None


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        for key, value in vars(record).items():
            if key in _STANDARD or key.startswith("_"):
                continue
            if key == "websocket":  # the library's connection object: its peer
                key, value = "peer", peer_of(record)
            elif any(w in key.lower() for w in _SECRET_WORDS):
                value = "***"
            out[key] = value if isinstance(value, _PLAIN) else _plain(value)
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        elif record.exc_text:
            out["exc"] = record.exc_text
        if record.stack_info:
            out["stack"] = self.formatStack(record.stack_info)
        return json.dumps(out, ensure_ascii=False).translate(_LINE_BREAKS)


_PLAIN = str | int | float | bool | None


def _plain(value: Any) -> Any:
    """``value`` as JSON can hold it: a dict of plain values as an object (the settings
    line), anything else as its text."""
    if isinstance(value, dict) and all(isinstance(v, _PLAIN | list) for v in value.values()):
        return {
            str(k): v if isinstance(v, _PLAIN) else [str(i) for i in v] for k, v in value.items()
        }
    return str(value)


class LogLimit(logging.Filter):
    """Rate-limit repeated lines: a token bucket per (client address as the quotas
    count it, ``source_of``; logger; message template), ``burst`` lines then ``rate``
    per second. A dropped line is counted; the next line of its kind that passes
    carries ``suppressed`` (the count). At most ``max_keys`` kinds are tracked (the
    least recently seen is forgotten)."""

    def __init__(
        self,
        burst: float = 30,
        rate: float = 2.0,
        max_keys: int = 4096,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__()
        self.burst = burst
        self.rate = rate
        self.max_keys = max_keys
        self.clock = clock
        # key -> [tokens, last refill, dropped since the last line that passed]
        self._buckets: OrderedDict[tuple[str, str, str], list[float]] = OrderedDict()
        self.dropped = 0  # lines dropped since the start

    def filter(self, record: logging.LogRecord) -> bool:
        key = (source_of(record) or "-", record.name, str(record.msg))
        now = self.clock()
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = [self.burst, now, 0]
            self._buckets[key] = bucket
            if len(self._buckets) > self.max_keys:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(key)
            bucket[0] = min(self.burst, bucket[0] + (now - bucket[1]) * self.rate)
            bucket[1] = now
        if bucket[0] < 1:
            bucket[2] += 1
            self.dropped += 1
            return False
        bucket[0] -= 1
        if bucket[2]:
            record.suppressed = int(bucket[2])
            bucket[2] = 0
        return True


class NoFrames(logging.Filter):
    """Drops websockets' records of the frames a connection sends and receives.

    At debug, websockets logs every frame (``< %s``, ``> %s``), and a frame of the JSON
    subprotocol shows its text: a seat token, a player's secret. Everything else the
    library says at debug (handshakes, closes, failures) stays."""

    FRAME_RECORDS = ("< %s", "> %s")

    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.name.startswith("websockets") and record.msg in self.FRAME_RECORDS)


class NoCredentials(logging.Filter):
    """Masks the credentials in websockets' records of HTTP headers.

    At debug, websockets logs every header of a request and of its answer (``< %s:
    %s``): ``Authorization: Bearer TOKEN`` of a ``/metrics`` scrape, a cookie a browser
    sends. The value of a header whose name says it carries a credential is replaced
    by ``[masked]``, and the query of a request line (``< %s %s %s``) is cut."""

    HEADER_RECORDS = ("< %s: %s", "> %s: %s")
    REQUEST_LINES = ("< %s %s %s", "< GET %s HTTP/1.1", "> GET %s HTTP/1.1")
    CREDENTIALS = ("authorization", "cookie", "token", "secret", "api-key", "password", "auth")

    def filter(self, record: logging.LogRecord) -> bool:
        if not record.name.startswith("websockets") or not isinstance(record.args, tuple):
            return True
        args = record.args
        if record.msg in self.HEADER_RECORDS and len(args) == 2:
            name = str(args[0]).lower()
            if any(word in name for word in self.CREDENTIALS):
                record.args = (args[0], "[masked]")
        elif record.msg in self.REQUEST_LINES:
            record.args = tuple(
                a.split("?", 1)[0] if isinstance(a, str) and a.startswith("/") else a for a in args
            )
        return True


def setup_logging(level: str = "info", stream: Any = None) -> None:
    """JSON lines on ``stream`` (stderr) for every logger of the process: ours at
    ``level``, the libraries' (websockets, asyncio) at warning and above (at debug,
    everything but the frames clients send, ``NoFrames``), all through one
    ``LogLimit``."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonFormatter())
    handler.addFilter(NoFrames())
    handler.addFilter(NoCredentials())
    handler.addFilter(LogLimit())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    ours = logging.getLogger("kupferkessel")
    ours.handlers[:] = []
    ours.propagate = True
    set_level(level)
    # the start's lines (the settings in force, where it listens, a reload) whatever the level
    logging.getLogger("kupferkessel.start").setLevel("INFO")


def set_level(level: str) -> None:
    """Log ours at ``level``, the libraries' at warning (everything at debug)."""
    logging.getLogger().setLevel("DEBUG" if level.lower() == "debug" else "WARNING")
    logging.getLogger("kupferkessel").setLevel(level.upper())
