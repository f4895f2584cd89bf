"""The message catalogues hold what a translator needs, and nothing stale.

Extracted from the code now (Babel, as a translator's ``pybabel extract`` does: the
terminal client's Python and the browser client's TypeScript), the messages are
exactly those of ``messages.pot``, so every message of either client is in every
language; every language's ``.po`` translates
each of them (no missing, no fuzzy, no stale entry), with the same placeholders and
every plural form; a word of a fixed width (context ``at most N letters``) fits. The
card data's words are there in every language, told apart in the smallest cells.
docs/CLIENT.md ("Languages") says how a translator keeps these true.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir

from client import i18n
from shared import names
from tests.helpers.languages import LOCALES, catalogue, template

ROOT = Path(__file__).resolve().parents[2]
TRANSLATED = [lang for lang in i18n.LANGUAGES if lang != "en"]

Key = tuple[str | None, str | tuple[str, ...]]


def _keys(catalog: Catalog) -> set[Key]:
    return {(msg.context, msg.id) for msg in catalog if msg.id}


def _extracted() -> set[Key]:
    """The messages in both clients' code, as Babel's extractors find them (the
    terminal's Python, the browser's TypeScript: ``client/i18n/babel.cfg``)."""
    found: set[Key] = set()
    for folder, method_map in (
        ("client", [("**.py", "python")]),
        ("web/src/app", [("*.ts", "javascript")]),
    ):
        # a message inside a template string's `${...}` counts too, as babel.cfg says
        options = {"*.ts": {"parse_template_string": True}}
        for _file, _line, message, _comments, context in extract_from_dir(
            str(ROOT / folder), method_map=method_map, options_map=options
        ):
            found.add((context, message if isinstance(message, str) else tuple(message)))
    return found


def test_the_template_is_what_the_code_says() -> None:
    """A message added, changed or removed in the code without extracting again
    (``pybabel extract``, docs/CLIENT.md) shows here, by name."""
    code, pot = _extracted(), _keys(template())
    assert not code - pot, f"in the code, not in messages.pot: {sorted(code - pot)}"
    assert not pot - code, f"in messages.pot, gone from the code: {sorted(pot - code)}"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_is_translated_and_none_is_stale(lang: str) -> None:
    pot, po = _keys(template()), catalogue(lang)
    keys = _keys(po)
    assert not pot - keys, f"{lang}: not translated yet: {sorted(pot - keys)}"
    assert not keys - pot, f"{lang}: stale (no longer in the code): {sorted(keys - pot)}"
    for msg in po:
        if not msg.id:
            continue
        strings = msg.string if isinstance(msg.string, tuple) else (msg.string,)
        assert not msg.fuzzy, f"{lang}: fuzzy: {msg.id!r}"
        assert all(s.strip() for s in strings), f"{lang}: empty: {msg.id!r}"
        if isinstance(msg.id, tuple):
            assert len(strings) == po.num_plurals, f"{lang}: plural forms of {msg.id!r}"


def _fields(text: str) -> set[str]:
    return set(re.findall(r"\{(\w*)\}", text))


@pytest.mark.parametrize("lang", TRANSLATED)
def test_translations_keep_the_placeholders_and_fixed_widths(lang: str) -> None:
    for msg in catalogue(lang):
        if not msg.id:
            continue
        ids = msg.id if isinstance(msg.id, tuple) else (msg.id,)
        strings = msg.string if isinstance(msg.string, tuple) else (msg.string,)
        wanted = set().union(*map(_fields, ids))
        for s in strings:
            # a plural form may leave out {n} (French "une carte"), nothing else
            assert _fields(s) <= wanted and wanted - _fields(s) <= {"n"}, (lang, msg.id, s)
        if msg.context and msg.context.startswith(i18n.FIXED):
            width = int(msg.context.split()[2])
            assert all(len(s) <= width for s in strings), (lang, msg.id, strings, width)


def test_a_broken_catalogue_fails_at_the_choice_not_mid_game(tmp_path: Path) -> None:
    """Each catalogue reads and compiles (the check ``use`` makes when a language is
    chosen), and speaks its language."""
    for lang in TRANSLATED:
        i18n.translations.cache_clear()
        assert i18n.use(lang) == lang
        assert i18n._("Your recipes") != "Your recipes"
    i18n.use("en")


@pytest.mark.parametrize("lang", [*i18n.LANGUAGES, i18n.PSEUDO])
def test_the_card_words_tell_every_card_apart_in_every_language(lang: str) -> None:
    """The one-line cell shows three letters of the short name and the colour's tag:
    they must differ between ingredients, and between colours."""
    i18n.use(lang)
    try:
        keys = list(names.NAMES.ingredients)
        shorts = [i18n.ingredient_short(k) for k in keys]
        assert all(0 < len(s) <= names.SHORT_MAX for s in shorts), shorts
        assert len({s[:3].lower() for s in shorts}) == len(keys), shorts
        tags = [i18n.colour_tag(c) for c in names.NAMES.colours]
        assert len(set(tags)) == len(tags), tags
        assert len({i18n.ingredient(k) for k in keys}) == len(keys)
    finally:
        i18n.use("en")


def test_every_language_of_the_card_data_has_a_catalogue() -> None:
    assert next(iter(names.LANGUAGES)) == "en"
    for lang in TRANSLATED:
        assert (LOCALES / lang / "LC_MESSAGES" / "messages.po").is_file(), lang
