"""Structured logs: one JSON object per line, with the ``extra`` fields of each record.

Seat tokens and invite codes are never passed to the logger; as a second line of defence
any field whose name mentions a token or invite is masked.
"""

from __future__ import annotations

import json
import logging
import sys
import time
from typing import Any

__all__ = ["JsonFormatter", "setup_logging"]

_STANDARD = set(vars(logging.makeLogRecord({}))) | {"message", "asctime", "taskName"}
_SECRET_WORDS = ("token", "invite", "secret")


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
            if any(w in key.lower() for w in _SECRET_WORDS):
                value = "***"
            out[key] = value if isinstance(value, str | int | float | bool | None) else str(value)
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False)


def setup_logging(level: str = "info", stream: Any = None) -> None:
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger("kupferkessel")
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    root.propagate = False
