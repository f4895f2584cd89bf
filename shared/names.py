"""The card set's words in every language: ingredient names and colour words.

They live in ``shared/data/names.json`` beside the card set, once for every client: a
name (``Toad``, ``Kröte``), a short name of at most six letters for a card's cell
(``Pumpkn``, whose first three letters tell the ingredients apart in the smallest
cells), a colour word (``brown``) and its two-letter tag (``br``). The file is checked
against the card set when first imported; a mistake stops start-up with a
``CardSetError`` naming the entry. Formatting sentences around the words is the
clients' business (their message catalogues); this module only keeps and looks up.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

from .cards import COLOURS, INGREDIENTS, CardSetError

__all__ = [
    "LANGUAGES",
    "SHORT_MAX",
    "NameSet",
    "colour_name",
    "colour_tag",
    "ingredient_name",
    "ingredient_short",
    "load_names",
]

SHORT_MAX = 6
"""A short name's letters: a card's cell at 80x24 holds six and the symbol."""


@dataclass(frozen=True, slots=True)
class NameSet:
    languages: dict[str, str]
    """Language code -> the language's own name (``de`` -> ``Deutsch``), in order."""
    ingredients: dict[str, dict[str, tuple[str, str]]]
    """ingredient key -> language -> (name, short name)"""
    colours: dict[str, dict[str, tuple[str, str]]]
    """colour -> language -> (word, two-letter tag)"""


def _require(cond: bool, msg: str) -> None:
    if not cond:
        raise CardSetError(f"names.json: {msg}")


def _words(raw: Any, where: str, keys: tuple[str, str], langs: dict[str, str]) -> dict[str, Any]:
    _require(isinstance(raw, dict), f"{where}: must be an object")
    out: dict[str, tuple[str, str]] = {}
    for lang in langs:
        entry = raw.get(lang)
        _require(isinstance(entry, dict), f"{where}.{lang}: missing")
        words = tuple(entry.get(k) for k in keys)
        for k, w in zip(keys, words, strict=True):
            _require(isinstance(w, str) and w.strip() != "", f"{where}.{lang}.{k}: missing")
        out[lang] = (words[0], words[1])
    _require(set(raw) <= set(langs), f"{where}: a language not in 'languages'")
    return out


def load_names(raw: dict[str, Any]) -> NameSet:
    """Validate a names document against the card set; raises ``CardSetError``."""
    _require(raw.get("format") == "kupferkessel-names/1", "format: expected kupferkessel-names/1")
    langs = raw.get("languages")
    _require(isinstance(langs, dict) and "en" in langs, "languages: must name en and others")
    assert isinstance(langs, dict)
    ings, cols = raw.get("ingredients"), raw.get("colours")
    _require(isinstance(ings, dict), "ingredients: must be an object")
    _require(isinstance(cols, dict), "colours: must be an object")
    assert isinstance(ings, dict) and isinstance(cols, dict)
    keys = {g.key for g in INGREDIENTS}
    _require(set(ings) == keys, f"ingredients: need exactly {sorted(keys)}")
    _require(set(cols) == set(COLOURS), f"colours: need exactly {sorted(COLOURS)}")
    ingredients = {
        k: _words(ings[k], f"ingredients.{k}", ("name", "short"), langs) for k in sorted(keys)
    }
    colours = {c: _words(cols[c], f"colours.{c}", ("name", "tag"), langs) for c in COLOURS}
    for k, by_lang in ingredients.items():
        for lang, (_name, short) in by_lang.items():
            _require(len(short) <= SHORT_MAX, f"ingredients.{k}.{lang}.short: over 6 letters")
    for c, by_lang in colours.items():
        for lang, (_word, tag) in by_lang.items():
            _require(len(tag) == 2, f"colours.{c}.{lang}.tag: must be two letters")
    return NameSet(dict(langs), ingredients, colours)


def _load_default() -> NameSet:
    text = resources.files("shared").joinpath("data/names.json").read_text(encoding="utf-8")
    return load_names(json.loads(text))


NAMES = _load_default()
LANGUAGES: dict[str, str] = NAMES.languages
"""The languages the card data speaks, code -> the language's own name."""


def _lang(lang: str) -> str:
    return lang if lang in LANGUAGES else "en"


def ingredient_name(key: str, lang: str = "en") -> str:
    """``Kröte``; an unknown key reads as itself, spaced and capitalised."""
    words = NAMES.ingredients.get(key)
    return words[_lang(lang)][0] if words else key.replace("_", " ").capitalize()


def ingredient_short(key: str, lang: str = "en") -> str:
    """``Pumpkn``: at most six letters."""
    words = NAMES.ingredients.get(key)
    if words:
        return words[_lang(lang)][1]
    return key.replace("_", "")[:SHORT_MAX].capitalize()


def colour_name(colour: str, lang: str = "en") -> str:
    """``braun``, lower case as in running text."""
    words = NAMES.colours.get(colour)
    return words[_lang(lang)][0] if words else colour


def colour_tag(colour: str, lang: str = "en") -> str:
    """``br``: two letters, distinct within a language."""
    words = NAMES.colours.get(colour)
    return words[_lang(lang)][1] if words else colour[:2]
