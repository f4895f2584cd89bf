"""Unicode's data the name rules read (``server/players/data``) is what it says it is:
Unicode's files of version 15.0.0, unchanged, and read whole."""

from __future__ import annotations

import hashlib
import unicodedata

import pytest

from server.players.names import _SCANNED, TABLE_FILE, build_key_table, key_table, table_json
from server.players.unidata import (
    DEFAULT_IGNORABLE,
    UNICODE_VERSION,
    confusables,
    data_text,
    is_default_ignorable,
    script_of,
)

FILES = {
    "confusables.txt": (
        "2b10130885c3370b101c52d7baedc452ab7f0e257b86c1e52ee657ecfc29ce64",
        ["# confusables.txt", "# Date: 2022-08-26, 16:49:08 GMT", "# Version: 15.0.0"],
    ),
    "Scripts.txt": (
        "cca85d830f46aece2e7c1459ef1249993dca8f2e46d51e869255be140d7ea4b0",
        ["# Scripts-15.0.0.txt", "# Date: 2022-04-26, 23:15:02 GMT"],
    ),
}


@pytest.mark.parametrize("name", sorted(FILES))
def test_the_files_are_unicodes(name: str) -> None:
    digest, header = FILES[name]
    text = data_text(name)
    assert hashlib.sha256(text.encode("utf-8")).hexdigest() == digest
    lines = text.splitlines()
    assert all(line in lines[:12] for line in header)
    assert UNICODE_VERSION == "15.0.0"
    assert "Unicode" in data_text("LICENSE") and "Permission is hereby granted" in data_text(
        "LICENSE"
    )


def test_every_mapping_is_read() -> None:
    lines = [x for x in data_text("confusables.txt").splitlines() if x[:1].isalnum()]
    table = confusables()
    assert len(table) == len(lines) == 6311  # each source once
    assert table["m"] == "rn" and table["I"] == "l" and table["\u0430"] == "a"
    assert table["\u01c4"] == "D\u017d"  # prototypes of several characters


def test_scripts() -> None:
    assert [script_of(c) for c in "aАαあア山한 ́\U0001f600"] == [
        "Latin",
        "Cyrillic",
        "Greek",
        "Hiragana",
        "Katakana",
        "Han",
        "Hangul",
        "Common",
        "Inherited",
        "Common",
    ]
    assert script_of("\U000e0100") == "Inherited" and script_of("\U0010fffd") == "Unknown"


def test_default_ignorables() -> None:
    """The ranges written out hold every format character Python knows but those
    Unicode does not ignore, as DerivedCoreProperties.txt says: prepended concatenation
    marks, interlinear annotation characters and Egyptian hieroglyph format controls
    (names refuse them all: they are format characters)."""
    formats = [cp for cp in range(0x110000) if unicodedata.category(chr(cp)) == "Cf"]
    shown = {cp for cp in formats if not is_default_ignorable(cp)}
    assert shown == {
        *range(0x600, 0x606),
        *(0x6DD, 0x70F, 0x890, 0x891, 0x8E2, 0x110BD, 0x110CD),
        *range(0xFFF9, 0xFFFC),
        *range(0x13430, 0x13439),
    }
    assert all(a <= b for a, b in DEFAULT_IGNORABLE)
    assert is_default_ignorable(0x200B) and not is_default_ignorable(0x20)


def test_nothing_outside_the_scanned_planes_folds() -> None:
    """The key's table looks where characters fold, decompose or have a prototype
    (``_SCANNED``); everywhere else a character keys as itself."""
    scanned = set().union(*(set(r) for r in _SCANNED))
    table = key_table()
    for cp in range(0x110000):
        if cp in scanned:
            continue
        c = chr(cp)
        assert c.casefold() == c == c.upper() and c not in confusables(), hex(cp)
        assert unicodedata.normalize("NFKD", c) == c and table.key(c) in (c, ""), hex(cp)


def test_the_shipped_table_is_the_one_built() -> None:
    """``data/keytable.json`` is what ``build_key_table`` makes of Unicode's data with
    this Python's ``unicodedata`` (``python -m server.players.names`` writes it)."""
    assert data_text(TABLE_FILE) == table_json(build_key_table()) + "\n"
    assert key_table().parts == build_key_table().parts
