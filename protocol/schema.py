"""The generated documents: docs/schema/ and the message reference in docs/PROTOCOL.md.

``python -m protocol.schema`` rewrites both; a test fails when either differs from what
the models generate. The output is deterministic (sorted keys), so a diff shows exactly
what changed. The schemas themselves come from ``protocol.json_schema``.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from .json_schema import dumps, message_schemas
from .messages import (
    CLIENT_MESSAGES,
    EVENT_MODELS,
    PROTOCOL_VERSION,
    SERVER_MESSAGES,
    SUBPROTOCOL,
    ErrorCode,
)
from .reference import update_protocol_doc

__all__ = ["SCHEMA_DIR", "dumps", "message_schemas", "schema_files"]

ROOT = Path(__file__).resolve().parent.parent
SCHEMA_DIR = ROOT / "docs" / "schema"


def _refs(models: dict[str, Any]) -> dict[str, str]:
    return {tag: f"#/$defs/{m.__name__}" for tag, m in sorted(models.items())}


def schema_files() -> dict[str, str]:
    """File name (in docs/schema/) -> its text."""
    schemas = message_schemas()
    index = {
        "protocol": list(PROTOCOL_VERSION),
        "subprotocol": SUBPROTOCOL,
        "encoding": "msgpack, one map per binary WebSocket frame",
        "client": {"schema": "client.schema.json", "messages": _refs(CLIENT_MESSAGES)},
        "server": {"schema": "server.schema.json", "messages": _refs(SERVER_MESSAGES)},
        "events": {"schema": "server.schema.json", "kinds": _refs(EVENT_MODELS)},
        "error_codes": sorted(c.value for c in ErrorCode),
    }
    return {
        "client.schema.json": dumps(schemas["client"]),
        "server.schema.json": dumps(schemas["server"]),
        "index.json": dumps(index),
    }


def main() -> int:
    """Rewrite docs/schema/ and the reference in docs/PROTOCOL.md from the models."""
    SCHEMA_DIR.mkdir(parents=True, exist_ok=True)
    files = schema_files()
    for stale in SCHEMA_DIR.glob("*.json"):
        if stale.name not in files:
            stale.unlink()
    for name, text in files.items():
        (SCHEMA_DIR / name).write_text(text, encoding="utf-8")
    changed = update_protocol_doc()
    print(
        f"wrote {len(files)} files to {SCHEMA_DIR}" + ("; updated PROTOCOL.md" if changed else "")
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
