"""Unicode's own data the name rules read, shipped in ``data/`` beside this module.

Why: Python's ``unicodedata`` has no confusables and no scripts. ``data/`` holds
Unicode's files unchanged, at one version (15.0.0), so that every node of a cluster
computes the same key for a name whatever is installed on it:

- ``confusables.txt``: UTS #39's confusable mappings (every source character with the
  prototype it is taken for, one or several characters), as ICU 72.1 ships it;
- ``Scripts.txt``: the Script property of every code point (UCD);
- ``LICENSE``: Unicode's licence for both.

``data/README.md`` says where each came from and its SHA-256, which a test holds the
files to. ``DEFAULT_IGNORABLE`` is the ``Default_Ignorable_Code_Point`` property of
``DerivedCoreProperties.txt`` 15.0.0, written out here (a few ranges).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator
from functools import cache
from importlib import resources

__all__ = [
    "DEFAULT_IGNORABLE",
    "UNICODE_VERSION",
    "confusables",
    "data_text",
    "is_default_ignorable",
    "script_of",
]

UNICODE_VERSION = "15.0.0"

DEFAULT_IGNORABLE: tuple[tuple[int, int], ...] = (
    (0x00AD, 0x00AD),  # soft hyphen
    (0x034F, 0x034F),  # combining grapheme joiner
    (0x061C, 0x061C),  # Arabic letter mark
    (0x115F, 0x1160),  # Hangul choseong and jungseong fillers
    (0x17B4, 0x17B5),  # Khmer inherent vowels
    (0x180B, 0x180F),  # Mongolian free variation selectors, vowel separator
    (0x200B, 0x200F),  # zero width space, ZWNJ, ZWJ, LRM, RLM
    (0x202A, 0x202E),  # bidi embeddings and overrides
    (0x2060, 0x206F),  # word joiner, invisible operators, isolates, deprecated formats
    (0x3164, 0x3164),  # Hangul filler
    (0xFE00, 0xFE0F),  # variation selectors
    (0xFEFF, 0xFEFF),  # zero width no-break space (BOM)
    (0xFFA0, 0xFFA0),  # halfwidth Hangul filler
    (0xFFF0, 0xFFF8),  # reserved
    (0x1BCA0, 0x1BCA3),  # shorthand format controls
    (0x1D173, 0x1D17A),  # musical symbol formats
    (0xE0000, 0xE0FFF),  # tags, variation selectors supplement, reserved
)
_DI_STARTS = [a for a, _ in DEFAULT_IGNORABLE]


def is_default_ignorable(cp: int) -> bool:
    i = bisect_right(_DI_STARTS, cp) - 1
    return i >= 0 and cp <= DEFAULT_IGNORABLE[i][1]


def data_text(name: str) -> str:
    """The text of the file ``name`` in ``data/``."""
    return resources.files(__package__).joinpath("data", name).read_text("utf-8")


def _records(name: str) -> Iterator[list[str]]:
    """The fields of each data line of a UCD-style file (comments dropped)."""
    for line in data_text(name).splitlines():
        fields = line.split("#", 1)[0].strip()
        if fields:
            yield [f.strip() for f in fields.split(";")]


def _chars(hexes: str) -> str:
    return "".join(chr(int(h, 16)) for h in hexes.split())


@cache
def confusables() -> dict[str, str]:
    """Each source character of ``confusables.txt`` -> its prototype (NFD, one or
    several characters)."""
    return {_chars(f[0]): _chars(f[1]) for f in _records("confusables.txt")}


@cache
def _scripts() -> tuple[list[int], list[int], list[str]]:
    spans = []
    for f in _records("Scripts.txt"):
        first, _, last = f[0].partition("..")
        spans.append((int(first, 16), int(last or first, 16), f[1]))
    spans.sort()
    return [s[0] for s in spans], [s[1] for s in spans], [s[2] for s in spans]


def script_of(c: str) -> str:
    """The Script property of ``c`` (``Latin``, ``Cyrillic``, ``Common``, ...);
    ``Unknown`` for a code point ``Scripts.txt`` does not list."""
    starts, ends, names = _scripts()
    cp = ord(c)
    i = bisect_right(starts, cp) - 1
    return names[i] if i >= 0 and cp <= ends[i] else "Unknown"
