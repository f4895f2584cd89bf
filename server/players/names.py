"""How player names are compared and which names are refused.

Why: names are unique per server, and two names a person cannot tell apart must count
as one, or anyone could pass for a registered player (``Ada`` and Cyrillic ``Аda``,
``Tom`` and ``Torn``); and a name must show what it is (no invisible or bidi
characters that hide a difference or reverse the rest of a line).

The key (``name_key``) follows Unicode's recipes: the skeleton of Unicode Technical
Standard #39 (each character replaced by the prototype it is taken for, from
``confusables.txt``, prototypes of several characters included: ``m`` is ``rn``),
default-ignorable code points removed, compatibility forms (NFKD) and case folded, in
rounds until nothing changes, so that the key of a key is itself. Three look-alikes
Unicode's data lacks are added (``EXTRA_CONFUSABLES``: ``d`` is ``cl``, ``w`` is
``vv``). Look-alikes and case can disagree: ``I`` looks like ``l`` but is ``i`` in
another case; such a letter keys as its capital does (``i``, ``I``, ``l`` and ``1`` are
one letter of the key), and a caseless look-alike of it follows it (``ᴛ`` is ``т``
is ``T``); but a small letter that looks like an ASCII letter or digit whose capital
does not (Cyrillic ``г`` like ``r``, ``Г`` like no Latin letter) keys with its
capital as the ASCII one (``г`` and ``Г`` are ``r``). The table made so (``key_table``,
built once: character -> its part of the key) keys each character's other case, NFKD
form and prototype as the character, but for a few: ``unsure`` ones, whose case forms
or NFKD form key apart (math letters and other symbols, modifier letters, long s),
refused in names; and ``loose`` ones, Latin, Cyrillic and Greek letters whose small
form and capital look like two different letters (Greek ``ν`` like ``v``, ``Ν`` like
``N``), allowed and keyed as their capital (so ``ν`` is not taken for ``v``). Spaces
are collapsed.

Refused (``name_refusal``; the ``detail`` of ``invalid_field``): control, format,
bidi, private-use, unassigned and default-ignorable characters and the braille blank
(``invisible``); ``unsure`` characters (``ambiguous``); more than ``MAX_MARKS``
combining marks on one character, or one first (``marks``); a name with nothing to
show (``blank``); and names mixing scripts beyond UTS #39's *Moderately Restrictive*
level (``mixed_script``): one script (Common and Inherited characters go with any;
Han with Hiragana and Katakana, or with Hangul, or with Bopomofo, counts as one), or
Latin with one other of UTS #39's Recommended scripts but Cyrillic and Greek.
"""

from __future__ import annotations

import json
import logging
import unicodedata
from functools import cache

from ..core.errors import TableError
from .unidata import confusables, data_text, is_default_ignorable, script_of

__all__ = [
    "EXTRA_CONFUSABLES",
    "MAX_MARKS",
    "TABLE_FILE",
    "KeyTable",
    "build_key_table",
    "check_name",
    "key_table",
    "name_key",
    "name_refusal",
    "table_json",
]

log = logging.getLogger("kupferkessel.players")

EXTRA_CONFUSABLES = {"d": "cl", "w": "vv", "W": "VV"}
"""Look-alikes of several letters that ``confusables.txt`` (15.0) lacks."""

MAX_MARKS = 3
"""The most combining marks one character may carry in a name."""

_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
_BLANKS = frozenset({"\u2800"})  # braille pattern blank: a letter that shows nothing
_WITH_LATIN = frozenset(  # UTS #39 table 5's Recommended scripts, less Cyrillic, Greek
    {"Jpan", "Kore", "Hanb"}
    | {"Arabic", "Armenian", "Bengali", "Bopomofo", "Devanagari", "Ethiopic", "Georgian"}
    | {"Gujarati", "Gurmukhi", "Han", "Hangul", "Hebrew", "Hiragana", "Kannada", "Katakana"}
    | {"Khmer", "Lao", "Malayalam", "Myanmar", "Oriya", "Sinhala", "Tamil", "Telugu"}
    | {"Thaana", "Thai", "Tibetan"}
)
_LOOSE_SCRIPTS = frozenset({"Latin", "Cyrillic", "Greek"})
_ANY_SCRIPT = frozenset({"Common", "Inherited"})
_AUGMENTED = {  # UTS #39 section 5.1: the writing systems a script's letters belong to
    "Han": frozenset({"Han", "Hanb", "Jpan", "Kore"}),
    "Hiragana": frozenset({"Hiragana", "Jpan"}),
    "Katakana": frozenset({"Katakana", "Jpan"}),
    "Hangul": frozenset({"Hangul", "Kore"}),
    "Bopomofo": frozenset({"Bopomofo", "Hanb"}),
}
_SCANNED = (range(0x30000), range(0xE0000, 0xE1000))
"""Where a character may fold, decompose or have a prototype (a test holds every other
code point to keying to itself)."""


class KeyTable:
    """Character -> its part of the key, for every character that is not its own; the
    characters whose case forms or NFKD form key apart (``unsure``: refused in names);
    and the letters whose prototype keys apart (``loose``: see the module)."""

    def __init__(
        self,
        parts: dict[str, str],
        unsure: frozenset[str] = frozenset(),
        loose: frozenset[str] = frozenset(),
    ) -> None:
        self.parts = parts
        self.unsure = unsure
        self.loose = loose

    def apply(self, text: str) -> str:
        parts = self.parts
        return "".join([parts.get(c, c) for c in text])

    def mapped(self, text: str) -> str:
        """``text`` keyed character by character (NFC first, NFD at the end)."""
        return unicodedata.normalize("NFD", self.apply(unicodedata.normalize("NFC", text)))

    def key(self, text: str) -> str:
        """``text``'s key: ``mapped`` until it stays (a key's NFC may compose a
        character that keys further: ``a`` and a dot above are ``ȧ``, which is ``å``),
        spaces collapsed."""
        keyed = self.mapped(text)
        for _ in range(4):
            again = self.mapped(keyed)
            if again == keyed:
                break
            keyed = again
        return " ".join(keyed.split())


def _prototypes() -> dict[str, str]:
    return {**confusables(), **EXTRA_CONFUSABLES}


def _step(text: str, proto: dict[str, str]) -> str:
    """One round of the key: the skeleton (NFD, default-ignorables removed, each
    character its prototype), then compatibility and case folding (NFKD, casefold)."""
    out = []
    for c in unicodedata.normalize("NFC", text):  # a composed character's look-alikes
        if not is_default_ignorable(ord(c)):
            out.append(proto.get(c, c))
    decomposed = unicodedata.normalize("NFD", "".join(out))
    out = [proto.get(c, c) for c in decomposed]  # its parts' (UTS #39's own order)
    nfkd = unicodedata.normalize("NFKD", "".join(out))
    return unicodedata.normalize("NFKD", nfkd.casefold())


def _fixed_point(c: str, proto: dict[str, str]) -> str:
    text = c
    for _ in range(16):
        after = _step(text, proto)
        if after == text:
            return text
        text = after
    raise AssertionError(f"the key of U+{ord(c):04X} does not settle")


TABLE_FILE = "keytable.json"
"""``build_key_table()`` as written by ``python -m server.players.names`` into
``data/``, with the ``unicodedata`` version it was built with."""


@cache
def key_table() -> KeyTable:
    """The table of ``name_key``: the one shipped in ``data/`` (read in a few
    milliseconds) when it was built with this Python's ``unicodedata`` (a test holds it
    to ``build_key_table()``), else built now (about a second)."""
    shipped = json.loads(data_text(TABLE_FILE))
    if shipped["unicodedata"] != unicodedata.unidata_version:
        log.warning(
            "name key table built for another Unicode version: building it",
            extra={"shipped": shipped["unicodedata"], "here": unicodedata.unidata_version},
        )
        return build_key_table()
    return KeyTable(shipped["parts"], frozenset(shipped["unsure"]), frozenset(shipped["loose"]))


def table_json(table: KeyTable) -> str:
    """``table`` as ``TABLE_FILE`` holds it."""
    return json.dumps(
        {
            "unicodedata": unicodedata.unidata_version,
            "parts": dict(sorted(table.parts.items())),
            "unsure": "".join(sorted(table.unsure)),
            "loose": "".join(sorted(table.loose)),
        },
        ensure_ascii=False,
        indent=0,
    )


def build_key_table() -> KeyTable:
    """The table of ``name_key`` (see the module's docstring), built from Unicode's
    data and Python's ``unicodedata``."""
    proto = _prototypes()
    parts: dict[str, str] = {}
    related = []  # the characters with a case, a compatibility form or a prototype
    for cps in _SCANNED:
        for cp in cps:
            c = chr(cp)
            if is_default_ignorable(cp):
                parts[c] = ""
            elif _related(c, proto):
                related.append(c)
    for c in related:
        k = _fixed_point(c, proto)
        if k != c:
            parts[c] = k
    table = KeyTable(parts)
    for c in related:
        upper = table.mapped(c.upper())
        if table.mapped(c) != upper:
            parts[c] = upper
    for _ in range(8):
        table = _settled(parts)
        parts = table.parts
        moved = False
        for c in related:  # a look-alike of a letter keyed by its upper case follows
            target = proto.get(c)
            if target is None or len(target) != 1 or target < "\x80" or _cased(target):
                continue
            k = table.mapped(c)
            if target not in k and table.mapped(target) != k:
                parts[target], moved = k, True
        if not moved:
            break
    folds: dict[str, list[str]] = {}  # the letters of one case folding (σ, ς, Σ)
    for c in related:
        folds.setdefault(c.casefold(), []).append(c)
    for c in related:  # a small letter that looks like an ASCII one, its capital like
        target = proto.get(c, "")  # none: the capital keys as the small letter looks
        capital = proto.get(c.upper(), "")
        if not (_ascii(target) and script_of(c) in _LOOSE_SCRIPTS) or _ascii(capital):
            continue
        for x in {c, c.upper(), c.lower(), c.title(), *folds.get(c.casefold(), ())}:
            if len(x) == 1 and x >= "\x80":
                parts[x] = table.mapped(target)
    table = _settled(parts)
    parts = table.parts
    unsure: set[str] = set()
    loose: set[str] = set()
    for c in related:
        nfkd = unicodedata.normalize("NFKD", c)
        if not _sure(c, table, [c.casefold(), c.upper(), c.lower(), c.title(), nfkd]):
            unsure.add(c)
        elif c in proto and not _sure(c, table, [proto[c]]):
            (loose if script_of(c) in _LOOSE_SCRIPTS else unsure).add(c)
    return KeyTable(parts, frozenset(unsure), frozenset(loose))


def _ascii(text: str) -> bool:
    """Whether ``text`` is one ASCII letter or digit."""
    return len(text) == 1 and text < "\x80" and text.isalnum()


def _cased(c: str) -> bool:
    return c.upper() != c or c.lower() != c or c.casefold() != c


def _related(c: str, proto: dict[str, str]) -> bool:
    """Whether ``c`` has a prototype, another case or a compatibility form."""
    if c in proto or c.upper() != c or c.casefold() != c:
        return True
    return unicodedata.category(c) != "Cn" and unicodedata.normalize("NFKD", c) != c


def _settled(parts: dict[str, str]) -> KeyTable:
    """The table once what each character keys as is keyed again, until it stays."""
    table = KeyTable(parts)
    for _ in range(8):
        settled = {c: table.mapped(p) for c, p in parts.items()}
        if settled == parts:
            break
        parts = settled
        table = KeyTable(parts)
    return table


def _sure(c: str, table: KeyTable, others: list[str]) -> bool:
    k = table.mapped(c)
    return all(table.mapped(o) == k for o in others)


def name_key(name: str) -> str:
    """The key two names share exactly when a reader could take one for the other."""
    return key_table().key(name)


def _script_sets(name: str) -> list[frozenset[str]]:
    sets = []
    for c in name:
        s = script_of(c)
        if s not in _ANY_SCRIPT:
            sets.append(_AUGMENTED.get(s, frozenset({s})))
    return sets


def _restricted(name: str) -> bool:
    """Whether ``name`` is *Moderately Restrictive* (UTS #39 section 5.2) or better."""
    sets = _script_sets(name)
    if not sets or frozenset.intersection(*sets):
        return True  # one script (Japanese, Korean and Chinese writing count as one)
    others = [s for s in sets if "Latin" not in s]
    if not others:
        return True
    rest = frozenset.intersection(*others)
    return bool(rest & _WITH_LATIN)


def name_refusal(name: str, *, scripts: bool = True) -> tuple[str, str] | None:
    """Why ``name`` cannot be a name here (``detail``, message), or None. ``scripts``:
    hold it to the restriction level too (a name being taken; a name looked up is held
    to its characters only, so that a player registered before still signs in)."""
    marks = MAX_MARKS  # a mark first would sit on what is shown before the name
    for c in name:
        cat = unicodedata.category(c)
        if cat in _REFUSED_CATEGORIES or is_default_ignorable(ord(c)) or c in _BLANKS:
            return "invisible", (
                f"a name may not contain U+{ord(c):04X}: no control, format, bidi,"
                " invisible or unassigned characters"
            )
        if scripts and c in key_table().unsure:
            return "ambiguous", (
                f"a name may not contain U+{ord(c):04X}: its other case or its look-alikes"
                " read as other letters"
            )
        marks = marks + 1 if cat in ("Mn", "Me") else 0
        if marks > MAX_MARKS:
            return "marks", (
                f"a name may carry at most {MAX_MARKS} marks on one letter, and starts"
                " with a letter"
            )
    if not name_key(name):
        return "blank", "a name must show at least one character"
    if scripts and not _restricted(name):
        return "mixed_script", (
            "a name may not mix scripts (one script, or Latin with one other, not"
            " Cyrillic or Greek)"
        )
    return None


def check_name(name: str, *, scripts: bool = True, field: str = "name") -> None:
    """``invalid_field`` (``detail``: why) unless ``name``, the request's ``field``, may
    be a name here."""
    refused = name_refusal(name, scripts=scripts)
    if refused is not None:
        detail, message = refused
        raise TableError("invalid_field", message, detail, field=field)


BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Bidi embeddings, overrides and isolates: in text shown beside other text (a table's
name in the lobby, a chat line) they reorder what follows them, e.g. a name that shows
as another table's or a line that seems to be someone else's. The marks (U+200E, U+200F,
U+061C) only nudge neutral characters and stay allowed."""


def check_shown_text(text: str, what: str, field: str) -> None:
    """``invalid_field`` (``detail`` ``bidi``) for ``text`` shown to others (``what``:
    which field, for the message; ``field``: its name in the request) that carries a
    bidi embedding, override or isolate."""
    for c in text:
        if c in BIDI_CONTROLS:
            raise TableError(
                "invalid_field",
                f"{what} may not contain U+{ord(c):04X}: no bidi embeddings, overrides or isolates",
                "bidi",
                field=field,
            )


if __name__ == "__main__":  # python -m server.players.names: write TABLE_FILE anew
    from pathlib import Path

    Path(__file__).with_name("data").joinpath(TABLE_FILE).write_text(
        table_json(build_key_table()) + "\n", "utf-8"
    )
