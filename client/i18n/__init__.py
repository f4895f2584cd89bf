"""The terminal client in the player's language: gettext catalogues read with Babel.

Every word the client shows goes through ``_`` (``ngettext`` where a number decides the
form, ``N_`` to mark a string kept in a table and translated when shown). The
catalogues are the data files ``locales/<lang>/LC_MESSAGES/messages.po`` beside this
module, written by translators, extracted from the code into ``locales/messages.pot``
with Babel (docs/CLIENT.md, "Languages"). They are compiled when first used, in
memory, with Babel's own reader and writer: the ``.po`` files are the only source, so
nothing is built on a fresh machine and no compiled file can go stale.

The card set's words (ingredient names, colour words and tags) come from the card data
(``shared.names``), the same for every client; numbers, lists and dates are formatted
by Babel for the language. ``xx`` is the pseudo-locale (``client.i18n.pseudo``).

One language at a time for the whole process (``use``): the terminal client is one
person's screen.
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime, timedelta
from functools import cache
from gettext import NullTranslations
from importlib import resources
from typing import ClassVar, Literal

from babel import Locale
from babel.dates import format_date, format_datetime, format_timedelta
from babel.lists import format_list
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
from babel.support import Translations

from shared import names as card_names

from .pseudo import PSEUDO, pseudo, pseudo_word

__all__ = [
    "DOMAIN",
    "FIXED",
    "LANGUAGES",
    "N_",
    "PSEUDO",
    "_",
    "colour_tag",
    "colour_word",
    "detect",
    "fmt_date",
    "fmt_datetime",
    "fmt_duration",
    "fmt_list",
    "fmt_number",
    "ingredient",
    "ingredient_short",
    "language",
    "language_name",
    "ngettext",
    "ordinal",
    "pgettext",
    "pick",
    "translations",
    "use",
]

DOMAIN = "messages"
FIXED = "at most "
"""A message context beginning so (``at most 3 letters``) fixes the word's width."""
LANGUAGES: tuple[str, ...] = tuple(card_names.LANGUAGES)
"""The languages a player may choose (``en`` first); ``xx`` is chosen the same way."""


class _Pseudo(NullTranslations):
    """English, accented and lengthened: what the catalogues would show untranslated.
    It notes every message asked for (``asked``), so a test can hold them to the
    extracted template: a message built where the extractor cannot see it shows."""

    asked: ClassVar[set[tuple[str | None, str]]] = set()

    def gettext(self, message: str) -> str:
        self.asked.add((None, message))
        return pseudo(message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        self.asked.add((None, msgid1))
        return pseudo(msgid1 if n == 1 else msgid2)

    def pgettext(self, context: str, message: str) -> str:
        """A word of a fixed width (context ``at most N letters``) is only accented."""
        self.asked.add((context, message))
        return pseudo_word(message) if context.startswith(FIXED) else pseudo(message)


@cache
def translations(lang: str) -> NullTranslations:
    """The compiled catalogue of ``lang``: English (the messages themselves), the
    pseudo-locale, or a ``.po`` file read and compiled in memory."""
    if lang == PSEUDO:
        return _Pseudo()
    if lang == "en" or lang not in LANGUAGES:
        return NullTranslations()
    path = resources.files(__name__).joinpath(f"locales/{lang}/LC_MESSAGES/{DOMAIN}.po")
    with path.open("rb") as f:
        catalog = read_po(f, locale=lang, domain=DOMAIN)
    buf = io.BytesIO()
    write_mo(buf, catalog)
    buf.seek(0)
    return Translations(buf, domain=DOMAIN)


_current: list[str] = ["en"]


def use(lang: str) -> str:
    """Speak ``lang`` from now on (an unknown code: English); returns the code used."""
    chosen = lang if lang in LANGUAGES or lang == PSEUDO else "en"
    translations(chosen)  # a broken catalogue fails here, at the choice
    _current[0] = chosen
    return chosen


def language() -> str:
    return _current[0]


def language_name(lang: str) -> str:
    """``Deutsch``: a language by its own name (the pseudo-locale's code for itself)."""
    return card_names.LANGUAGES.get(lang, lang)


def _(message: str) -> str:
    return translations(_current[0]).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return translations(_current[0]).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in its ``context``; a context ``at most N letters`` says the word has
    to fit N cells (a grid label, a card's cell), and the catalogue test holds it."""
    return translations(_current[0]).pgettext(context, message)


def N_(message: str) -> str:
    """Marks a string for the catalogue where it is kept; ``_`` translates it when shown."""
    return message


def pick(env: Mapping[str, str] | None = None) -> str:
    """The language the environment asks for, as gettext reads it: the first of
    ``LANGUAGE`` (a list, ``de:fr``), ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` that is set,
    a locale such as ``de_AT.UTF-8`` read for its language; English where none is one of
    ours (``C``, ``POSIX``, unset)."""
    env = os.environ if env is None else env
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var, "")
        if not value:
            continue
        for item in value.split(":"):
            code = item.split(".")[0].split("@")[0].split("_")[0].lower()
            if code in LANGUAGES or code == PSEUDO:
                return code
        if var != "LANGUAGE":
            return "en"  # the first locale variable set decides, as in C
    return "en"


def detect(setting: str | None, flag: str | None, env: Mapping[str, str] | None = None) -> str:
    """The language to speak: ``--lang`` first, then the one kept in the settings, then
    the locale."""
    for choice in (flag, setting):
        if choice and (choice in LANGUAGES or choice == PSEUDO):
            return choice
    return pick(env)


def _locale() -> Locale:
    """The language's CLDR locale; English is written the British way, as the project
    writes it ("colour", "A, B and C")."""
    lang = _current[0]
    return Locale.parse(lang if lang in LANGUAGES and lang != "en" else "en_GB")


def fmt_number(value: float, digits: int = 1) -> str:
    """``30,0`` in German: a number with ``digits`` decimals as the language writes it."""
    return format_decimal(value, format=f"0.{'0' * digits}" if digits else "0", locale=_locale())


def ordinal(n: int) -> str:
    """``1st``, ``1.``, ``1er``: a place, by the language's CLDR ordinal category."""
    form = _locale().ordinal_form(n)
    if form == "one":
        text = pgettext("ordinal, CLDR category one", "{n}st")
    elif form == "two":
        text = pgettext("ordinal, CLDR category two", "{n}nd")
    elif form == "few":
        text = pgettext("ordinal, CLDR category few", "{n}rd")
    else:
        text = pgettext("ordinal, CLDR category other", "{n}th")
    return text.format(n=n)


def fmt_list(items: Iterable[str], style: Literal["standard", "or"] = "standard") -> str:
    """``A, B und C``: a list as the language joins it (``or`` with style ``or``)."""
    said = list(items)
    if _current[0] == PSEUDO and len(said) > 1:
        word = pseudo_word("or" if style == "or" else "and")
        return f"{', '.join(said[:-1])} {word} {said[-1]}"
    return format_list(said, style=style, locale=_locale()) if said else ""


def fmt_datetime(when: datetime, form: str = "short") -> str:
    """A moment as the language writes it (``05.12.26, 14:03``)."""
    return format_datetime(when, format=form, locale=_locale())


def fmt_duration(seconds: float) -> str:
    """``2 Stunden``: a length of time, rounded to its largest unit as the language says
    it (the pseudo-locale's: the English, accented)."""
    said = format_timedelta(timedelta(seconds=seconds), locale=_locale())
    return pseudo_word(said) if _current[0] == PSEUDO else said


def fmt_date(when: datetime, form: str = "short") -> str:
    """A day as the language writes it (``05.12.26``)."""
    return format_date(when, format=form, locale=_locale())


def _card_word(lookup: Callable[[str, str], str], key: str) -> str:
    """A word of the card data in the language spoken (the pseudo-locale's: the
    English, accented, as wide as it was: cells have fixed widths)."""
    if _current[0] == PSEUDO:
        return pseudo_word(lookup(key, "en"))
    return lookup(key, _current[0])


def ingredient(key: str) -> str:
    """``Kröte``: an ingredient's name in the card data, in the language spoken."""
    return _card_word(card_names.ingredient_name, key)


def ingredient_short(key: str) -> str:
    """``Kürbis``: the short name for a card's cell (six letters at most)."""
    return _card_word(card_names.ingredient_short, key)


def colour_word(colour: str) -> str:
    """``braun``: a colour word, lower case."""
    return _card_word(card_names.colour_name, colour)


def colour_tag(colour: str) -> str:
    """``br``: a colour's two-letter tag."""
    return _card_word(card_names.colour_tag, colour)
