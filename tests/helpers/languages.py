"""Reading a screen for words left in English: in the pseudo-locale every translated
letter is accented, so a plain word of three letters or more is one that never went
through the catalogue; in a language, a word that only the English messages use."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from shared.names import NAMES

LOCALES = Path(__file__).resolve().parents[2] / "client" / "i18n" / "locales"

KEEP = frozenset(
    {
        # the program's name and the keys as the keyboard labels them
        "Kupferkessel",
        "Co",
        "Enter",
        "Esc",
        "PgUp",
        "PgDn",
        "Tab",
        "Ctrl",
        "Home",
        "End",
        "hjkl",
    }
)
"""Words every language keeps as they are."""

_WORD = re.compile(r"(?<![\w/.:-])[A-Za-z]{3,}(?![\w/.:-])")
_URL = re.compile(r"\b[a-z][a-z0-9+.-]*://\S+")
_LETTERS = re.compile(r"[^\W\d_]{3,}")


def _words(text: str) -> set[str]:
    return {w.lower() for w in _LETTERS.findall(text)}


def template() -> Catalog:
    """The extracted messages, ``messages.pot``."""
    with (LOCALES / "messages.pot").open("rb") as f:
        return read_po(f)


def catalogue(lang: str) -> Catalog:
    with (LOCALES / lang / "LC_MESSAGES" / "messages.po").open("rb") as f:
        return read_po(f, locale=lang)


@cache
def english_only(lang: str) -> frozenset[str]:
    """Words of the English messages that the language's translations never use."""
    english: set[str] = set()
    translated: set[str] = set()
    for msg in catalogue(lang):
        if not msg.id:
            continue
        ids = msg.id if isinstance(msg.id, tuple) else (msg.id,)
        strings = msg.string if isinstance(msg.string, tuple) else (msg.string,)
        for text in ids:
            english |= _words(re.sub(r"\{\w*\}", " ", text))
        for text in strings:
            translated |= _words(text)
    return frozenset(english - translated - {w.lower() for w in KEEP})


@cache
def card_words(lang: str) -> frozenset[str]:
    """The card data's words in ``lang`` (a one-line cell shows three letters of a
    short name: ``Ran1``), which may look like English ones."""
    words: set[str] = set()
    for by_lang in (*NAMES.ingredients.values(), *NAMES.colours.values()):
        for word in by_lang.get(lang, ()):
            words |= {word[:3].lower(), *_words(word)}
    return frozenset(words)


def untranslated(screen: str, lang: str, names: set[str]) -> list[str]:
    """The words of ``screen`` left in English (``names``: the players', the table's,
    the server's, written as they were given)."""
    allowed = {w.lower() for w in (*KEEP, *names)} | card_words(lang)
    screen = _URL.sub(" ", screen)  # an address is no sentence ("/#/watch/6bd4b056")
    for name in sorted(filter(None, names), key=len, reverse=True):
        # a name is no word of the language, nor are the letters in it: a table's id
        # "bad92683" holds the English "bad"
        screen = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", " ", screen)
    if lang == "xx":
        return sorted({w for w in _WORD.findall(screen) if w.lower() not in allowed})
    words = {w for w in _LETTERS.findall(screen) if w.lower() not in allowed}
    return sorted(w for w in words if w.lower() in english_only(lang))
