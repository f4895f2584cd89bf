"""The JSON Schema of each direction's messages, generated from the models.

Both the published files (``protocol.schema``) and the message reference in
docs/PROTOCOL.md (``protocol.reference``) are built from it, so it sits below both.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import TypeAdapter

from .codec import CLIENT_ADAPTER, SERVER_ADAPTER
from .messages import PROTOCOL_VERSION

__all__ = ["DRAFT", "dumps", "message_schemas"]

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
