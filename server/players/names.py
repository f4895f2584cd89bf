"""How player names are compared: one key per name as people read it.

Why: names are unique per server, and two names a person cannot tell apart must count
as one, or anyone could pass for a registered player (``Ada`` and Cyrillic ``Аda``).
The key is the name NFKC-normalized (full-width and compatibility forms folded) and
mapped to its skeleton in the manner of Unicode Technical Standard #39 (every
character replaced by the prototype of its class of look-alikes, from Unicode's
``confusables.txt`` as the ``confusable_homoglyphs`` package ships it), then
case-folded and mapped again, with spaces collapsed.
"""

from __future__ import annotations

import json
import unicodedata
from functools import cache
from importlib import resources

__all__ = ["name_key"]


@cache
def _representatives() -> dict[str, str]:
    """Character -> its prototype: the package lists, for each character, the ones it
    may be taken for, and a prototype (the character ``confusables.txt`` maps a class
    to) lists its whole class; so the prototype of ``c`` is the one of ``c`` and its
    look-alikes with the longest list (ties: the smallest code point). Single
    characters only."""
    text = resources.files("confusable_homoglyphs").joinpath("confusables.json").read_text("utf-8")
    data: dict[str, list[dict[str, str]]] = json.loads(text)
    likes = {
        c: [o for o in (x["c"].strip("\u200e\u200f") for x in v) if len(o) == 1]
        for c, v in data.items()
        if len(c) == 1
    }
    reps: dict[str, str] = {}
    for c, others in likes.items():
        reps[c] = min([c, *others], key=lambda x: (-len(likes.get(x, ())), x))
    return reps


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())


def name_key(name: str) -> str:
    """The key two names share exactly when a reader could take one for the other."""
    reps = _representatives()

    def skeleton(text: str) -> str:
        return "".join(reps.get(c, c) for c in text)

    # before case folding (``I`` looks like ``l``, ``i`` does not), and after it
    once = skeleton(unicodedata.normalize("NFKC", name))
    return " ".join(_fold(skeleton(_fold(once))).split())
