"""JSON Schema of every message, generated from the models (docs/schema/).

``python -m protocol.schema`` rewrites docs/schema/ and the generated message reference
in docs/PROTOCOL.md; a test fails when either differs from what the models generate.
The output is deterministic (sorted keys), so a diff shows exactly what changed.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter

from .codec import CLIENT_ADAPTER, SERVER_ADAPTER
from .messages import (
    CLIENT_MESSAGES,
    EVENT_MODELS,
    PROTOCOL_VERSION,
    SERVER_MESSAGES,
    SUBPROTOCOL,
    ErrorCode,
)

__all__ = ["SCHEMA_DIR", "dumps", "message_schemas", "schema_files"]

ROOT = Path(__file__).resolve().parent.parent
SCHEMA_DIR = ROOT / "docs" / "schema"
DRAFT = "https://json-schema.org/draft/2020-12/schema"


def dumps(obj: Any) -> str:
    """The one JSON form of generated files: sorted keys, two-space indent, newline."""
    return json.dumps(obj, sort_keys=True, indent=2, ensure_ascii=False) + "\n"


def message_schemas() -> dict[str, dict[str, Any]]:
    """The JSON Schema of each direction: ``client`` and ``server``."""
    version = f"{PROTOCOL_VERSION[0]}.{PROTOCOL_VERSION[1]}"
    out: dict[str, dict[str, Any]] = {}
    adapters: tuple[tuple[str, TypeAdapter[Any], str], ...] = (
        ("client", CLIENT_ADAPTER, "client to server"),
        ("server", SERVER_ADAPTER, "server to client"),
    )
    for name, adapter, title in adapters:
        schema = adapter.json_schema(mode="validation")
        schema["$schema"] = DRAFT
        schema["title"] = f"Kupferkessel Co. protocol {version}: {title}"
        schema["description"] = (
            "One msgpack map per binary WebSocket frame; its 'type' names the message. "
            "Fields at their default may be absent. Unknown fields must be ignored."
        )
        out[name] = schema
    return out


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
    from .reference import update_protocol_doc

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
