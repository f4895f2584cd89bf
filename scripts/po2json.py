#!/usr/bin/env python3
"""Write the message catalogues and the card data's words as one JSON file per language,
for a client that cannot read ``.po`` files (the browser client's build step).

Why: one source of each string. The translators edit ``client/i18n/locales/<lang>/
LC_MESSAGES/messages.po`` and ``shared/data/names.json`` only; a browser build runs
this script and bundles its output, so a sentence both clients show (a log event, a
refusal, a score line) is translated once. Plural forms: gettext numbers a message's
forms by the catalogue's ``Plural-Forms`` expression, the browser picks a CLDR category
with ``Intl.PluralRules``; the file maps each category to its form
(``plural_index``), worked out here by asking the compiled catalogue itself, so no C
expression is parsed twice.

Output, ``OUT/<lang>.json`` for every language (English too: its messages are the ids):

    {"language": "de", "plural_index": {"one": 0, "other": 1},
     "messages": {"{n} card": ["{n} Karte", "{n} Karten"], "Game over": "Spiel vorbei"},
     "contexts": {"at most 3 letters": {"col": "Sp."}},
     "ingredients": {"toad": {"name": "Kröte", "short": "Kröte"}, ...},
     "colours": {"brown": {"name": "braun", "tag": "br"}, ...}}

A message with a plural is keyed by its singular. Placeholders stay as written
(``{who}``): the browser fills them by name.

The pseudo-locale ``xx`` (``client/i18n/pseudo.py``: every letter accented, each message
about 40 % longer) is written too, from the template, as the terminal client makes it.

Usage: ``python scripts/po2json.py OUT [--only GLOB ...]``. ``--only`` keeps the messages
that Babel's ``javascript`` extractor finds in those files (``web/src/app/*.ts``: a
browser fetches only its own sentences, not the terminal's). Exit status 0, or 1 when
a catalogue does not translate every message of the template (the test of
docs/CLIENT.md, "Languages").
"""

from __future__ import annotations

import argparse
import io
import json
import sys
from pathlib import Path
from typing import Any

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

ROOT = Path(__file__).resolve().parents[1]
LOCALES = ROOT / "client" / "i18n" / "locales"
NAMES = ROOT / "shared" / "data" / "names.json"
sys.path.insert(0, str(ROOT))  # the pseudo-locale is the terminal client's own

from client.i18n.pseudo import PSEUDO, pseudo, pseudo_word  # noqa: E402

FIXED = "at most "
"""A message context beginning so (``at most 8 letters``) fixes the word's width
(``client.i18n.FIXED``)."""


def plural_index(lang: str) -> dict[str, int]:
    """Each CLDR plural category of ``lang`` -> the gettext form it takes, found by
    compiling a catalogue whose one message names its forms by number."""
    catalog = Catalog(locale=lang)
    forms = tuple(str(i) for i in range(catalog.num_plurals))
    catalog.add(("one", "many"), forms)
    buf = io.BytesIO()
    write_mo(buf, catalog)
    buf.seek(0)
    compiled = Translations(buf)
    locale = Locale.parse(lang)
    index: dict[str, int] = {}
    for n in range(0, 1001):
        category = locale.plural_form(n)
        form = int(compiled.ngettext("one", "many", n))
        if index.setdefault(category, form) != form:
            raise SystemExit(f"po2json: {lang}: category {category} takes two forms")
    return index


def _pseudo(text: Any, fixed: bool = False) -> Any:
    """A message (or its plural forms) in the pseudo-locale."""
    said = pseudo_word if fixed else pseudo
    return [said(t) for t in text] if isinstance(text, list) else said(text)


def used_by(patterns: list[str]) -> set[tuple[str | None, str]]:
    """The messages (context, id) that Babel's javascript extractor finds in the files
    ``patterns`` name (relative to the project)."""
    found: set[tuple[str | None, str]] = set()
    for pattern in patterns:
        for path in sorted(ROOT.glob(pattern)):
            # as client/i18n/babel.cfg reads them: inside template strings too
            options = {"parse_template_string": True}
            for _line, message, _comments, context in extract_from_file(
                "javascript", path, options=options
            ):
                found.add((context, message if isinstance(message, str) else message[0]))
    return found


def language_file(
    lang: str, names: dict[str, Any], only: set[tuple[str | None, str]] | None = None
) -> dict[str, Any]:
    messages: dict[str, Any] = {}
    contexts: dict[str, dict[str, Any]] = {}
    if lang == PSEUDO:
        data = language_file("en", names, only)
        data["language"] = PSEUDO
        data["messages"] = {k: _pseudo(v) for k, v in data["messages"].items()}
        data["contexts"] = {  # a word of a fixed width keeps it, as in the terminal
            c: {k: _pseudo(v, c.startswith(FIXED)) for k, v in ms.items()}
            for c, ms in data["contexts"].items()
        }
        for kind in ("ingredients", "colours"):
            data[kind] = {
                k: {f: pseudo_word(w) for f, w in v.items()} for k, v in data[kind].items()
            }
        return data
    if lang == "en":
        with (LOCALES / "messages.pot").open("rb") as f:
            catalog = read_po(f, locale="en")
    else:
        with (LOCALES / lang / "LC_MESSAGES" / "messages.po").open("rb") as f:
            catalog = read_po(f, locale=lang)
    for msg in catalog:
        if not msg.id:
            continue
        if lang == "en":  # the ids are the English
            text: Any = list(msg.id) if isinstance(msg.id, tuple) else msg.id
        else:
            text = list(msg.string) if isinstance(msg.string, tuple) else msg.string
            if not text or msg.fuzzy or (isinstance(text, list) and not all(text)):
                raise SystemExit(f"po2json: {lang}: not translated: {msg.id!r}")
        key = msg.id[0] if isinstance(msg.id, tuple) else msg.id
        if only is not None and (msg.context, key) not in only:
            continue
        (contexts.setdefault(msg.context, {}) if msg.context else messages)[key] = text
    return {
        "language": lang,
        "plural_index": plural_index(lang),
        "messages": messages,
        "contexts": contexts,
        "ingredients": {k: dict(v[lang]) for k, v in names["ingredients"].items()},
        "colours": {k: dict(v[lang]) for k, v in names["colours"].items()},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="the folder to write <lang>.json into")
    parser.add_argument(
        "--only", action="append", metavar="GLOB", help="keep the messages these files use"
    )
    args = parser.parse_args(argv)
    names = json.loads(NAMES.read_text("utf-8"))
    only = used_by(args.only) if args.only else None
    args.out.mkdir(parents=True, exist_ok=True)
    for lang in [*names["languages"], PSEUDO]:
        data = language_file(lang, names, only)
        path = args.out / f"{lang}.json"
        path.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", "utf-8")
        print(f"{path}: {len(data['messages'])} messages")
    return 0


if __name__ == "__main__":
    sys.exit(main())
