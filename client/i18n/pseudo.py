"""The pseudo-locale ``xx``: every translated string accented and about 40 % longer.

A screen read in it shows at a glance what was never passed through the catalogue
(plain ASCII words) and what a longer language would clip; the placeholders of a
message (``{name}``) and the text inside them stay as they are.
"""

from __future__ import annotations

import re

__all__ = ["PSEUDO", "pseudo", "pseudo_word"]

PSEUDO = "xx"
"""The pseudo-locale's code, selectable like a language."""

_ACCENTED = str.maketrans(
    "abcdeghiklnorstuwyzABCDEGHIKLNORSTUWYZ",
    "àƀçđéĝĥîķĺñöŕšţûŵýžÀƁÇĐÉĜĤÎĶĹÑÖŔŠŢÛŴÝŽ",
)
_PIECES = re.compile(r"(\{[^{}]*\})")
_PAD = "·"


def pseudo_word(text: str) -> str:
    """``text`` accented, as long as it was (card names, tags: fixed widths)."""
    return text.translate(_ACCENTED)


def pseudo(text: str) -> str:
    """``text`` accented outside its ``{placeholders}``, with filler at the end of each
    string that makes it about 40 % longer (leading and trailing blanks stay where they
    were); a string of under four letters is only accented."""
    if not text.strip():
        return text
    accented = "".join(
        part if part.startswith("{") else part.translate(_ACCENTED) for part in _PIECES.split(text)
    )
    body = accented.rstrip()
    tail = accented[len(body) :]
    letters = sum(c.isalpha() for c in _PIECES.sub("", text))
    if letters < 4:
        return accented
    gap = " " if " " in text.strip() else ""
    return f"{body}{gap}{_PAD * max(1, (letters * 2) // 5)}{tail}"
