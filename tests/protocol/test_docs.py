"""The published schema and docs/PROTOCOL.md match the models, and every example the
document shows decodes to the JSON beside it."""

from __future__ import annotations

import json
import re
from pathlib import Path

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


# ------------------------------------------------------------ citations of RULES.md

ROOT = PROTOCOL_MD.parent.parent
RULES_MD = ROOT / "docs" / "RULES.md"
_NUM = r"\d+(?:\.\d+)*"
CITATION = re.compile(
    rf"(?:§\s?|\bsections?\s+|\bRULES\.md\s+)({_NUM}(?:\s*(?:,|and|to|-|–)\s*{_NUM})*)",
    re.I,
)
OTHER_DOCUMENT = re.compile(r"(?:RFC\s*\d+|\b(?!RULES\.md)[\w-]+\.md)\s*$", re.I)


def rules_sections() -> set[str]:
    """The numbers of docs/RULES.md: "4" for "## 4. A turn", "4.6" for "### 4.6 ..."."""
    text = RULES_MD.read_text(encoding="utf-8")
    return set(re.findall(r"^## (\d+)\. ", text, re.M)) | set(
        re.findall(r"^### (\d+\.\d+) ", text, re.M)
    )


def citations(text: str) -> list[tuple[int, str]]:
    """(line, number) of every section cited in ``text``. Throughout the project a bare
    "section N" (or §N) means RULES.md; one of another document ("RFC 6455 section 5.2",
    "PROTOCOL.md section 3") is left out."""
    found = []
    for m in CITATION.finditer(text):
        if OTHER_DOCUMENT.search(text[max(0, m.start() - 30) : m.start()]):
            continue
        line = text.count("\n", 0, m.start()) + 1
        found.extend((line, n) for n in re.findall(_NUM, m.group(1)))
    return found


def test_citation_finder_reads_lists_and_ranges() -> None:
    text = "(RULES.md sections 3, 4 and 7.2) see\nsection 4.3-4.5, §9, RFC 6455 section 5.2"
    assert [n for _, n in citations(text)] == ["3", "4", "7.2", "4.3", "4.5", "9"]
    assert citations("RULES.md section 12") == [(1, "12")]
    assert citations("PROTOCOL.md section 2; 3 sections of it") == []


def test_rules_md_has_its_numbered_sections() -> None:
    numbers = rules_sections()
    assert {str(n) for n in range(1, 13)} <= numbers
    assert {"3.6", "4.4", "4.6", "5.2", "6.5", "7.2", "8.1", "11.2", "11.4"} <= numbers


def test_every_rules_citation_names_a_section_that_exists() -> None:
    """Every "RULES.md section N", "section N.M" or "§N" in the code, tests and docs
    resolves to a numbered section of docs/RULES.md."""
    files = [ROOT / "README.md"] + [
        path
        for top in ("shared", "protocol", "server", "client", "tests", "bench", "docs", "scripts")
        for path in sorted((ROOT / top).rglob("*"))
        if path.suffix in (".py", ".md", ".json", ".sh") and "__pycache__" not in path.parts
    ]
    numbers = rules_sections()
    bad = []
    cited = 0
    for path in files:
        if path.resolve() == Path(__file__).resolve():
            continue  # this file's own examples of citations
        name = path.relative_to(ROOT)
        text = path.read_text(encoding="utf-8")
        for line, number in citations(text):
            cited += 1
            if number not in numbers:
                bad.append(f"{name}:{line}: section {number}")
    assert cited > 50, "the citation finder found almost nothing: is the pattern broken?"
    assert bad == [], "citations of sections docs/RULES.md does not have"


def _slug(heading: str) -> str:
    """The anchor a Markdown renderer gives a heading (lower case, punctuation dropped)."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_doc_links_stay_inside_the_checkout() -> None:
    """README.md and docs/*.md link only to files of the checkout that exist, and every
    #anchor names a heading of its target: the docs stand alone."""
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    for page in pages:
        text = page.read_text(encoding="utf-8")
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target):
                continue  # a URL (there should be none to rules or specs elsewhere)
            path, _, anchor = target.partition("#")
            file = (page.parent / path).resolve() if path else page
            assert file.is_relative_to(ROOT.resolve()), f"{page.name}: {target} leaves the checkout"
            assert file.exists(), f"{page.name}: {target} does not exist"
            if anchor and file.suffix == ".md":
                headings = re.findall(r"^#+ (.+)$", file.read_text(encoding="utf-8"), re.M)
                assert anchor in {_slug(h) for h in headings}, f"{page.name}: no #{anchor}"
        assert "../shared" not in text and "/work/" not in text, page.name
