"""The published schema and docs/PROTOCOL.md match the models, and every example the
document shows decodes to the JSON beside it."""

from __future__ import annotations

import json
import re

import msgpack
import pytest

from protocol import (
    CLIENT_MESSAGES,
    SERVER_MESSAGES,
    ErrorCode,
    decode_client,
    decode_server,
    encode,
)
from protocol.reference import BEGIN, END, PROTOCOL_MD, examples, render
from protocol.schema import SCHEMA_DIR, schema_files

DOC = PROTOCOL_MD.read_text(encoding="utf-8")
PAIRS = re.findall(r"```json\n(.*?)```\n\n```msgpack-hex\n(.*?)```", DOC, re.S)


@pytest.mark.parametrize("name", sorted(schema_files()))
def test_committed_schema_is_generated(name: str) -> None:
    path = SCHEMA_DIR / name
    assert path.read_text(encoding="utf-8") == schema_files()[name], (
        f"{path} is out of date: run `python -m protocol.schema`"
    )


def test_no_stale_schema_files() -> None:
    assert {p.name for p in SCHEMA_DIR.glob("*.json")} == set(schema_files())


def test_schema_lists_every_message_and_code() -> None:
    index = json.loads(schema_files()["index.json"])
    assert set(index["client"]["messages"]) == set(CLIENT_MESSAGES)
    assert set(index["server"]["messages"]) == set(SERVER_MESSAGES)
    assert set(index["error_codes"]) == {c.value for c in ErrorCode}


def test_doc_reference_is_generated() -> None:
    generated = DOC.split(BEGIN, 1)[1].split(END, 1)[0]
    assert generated.strip() == render().strip(), "run `python -m protocol.schema`"


def test_doc_has_an_example_of_every_message() -> None:
    shown = [json.loads(j) for j, _ in PAIRS]
    assert len(shown) == len(CLIENT_MESSAGES) + len(SERVER_MESSAGES)
    assert {m["type"] for m in shown} == set(CLIENT_MESSAGES) | set(SERVER_MESSAGES)


@pytest.mark.parametrize("index", range(len(PAIRS)))
def test_doc_hex_decodes_to_the_json_shown(index: int) -> None:
    """The client examples come first, then the server's."""
    shown, hexdump = PAIRS[index]
    data = bytes.fromhex("".join(hexdump.split()))
    assert msgpack.unpackb(data) == json.loads(shown)
    decode = decode_client if index < len(CLIENT_MESSAGES) else decode_server
    assert decode(data).type == json.loads(shown)["type"]


@pytest.mark.parametrize("key", sorted(examples()))
def test_examples_round_trip(key: str) -> None:
    msg = examples()[key]
    decode = decode_client if key.startswith("client:") else decode_server
    assert decode(encode(msg)) == msg


def test_doc_names_every_error_code() -> None:
    for code in ErrorCode:
        assert f"| `{code.value}` |" in DOC


def test_doc_has_the_required_sections() -> None:
    for heading in (
        "## Connecting",
        "## The handshake",
        "## Session states",
        "## Who sees what",
        "## Seat tokens",
        "## Errors",
        "## Versioning",
        "## Limits",
        "## Reference client",
    ):
        assert f"\n{heading}\n" in DOC
    assert "kupferkessel bot" in DOC and "client/bot_runner.py" in DOC
