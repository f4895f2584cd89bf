"""``scripts/po2json.py``: the catalogues as the browser would bundle them, one JSON per
language with every message, each CLDR plural category mapped to its gettext form,
and the card data's words."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from babel import Locale

from tests.helpers.languages import template

ROOT = Path(__file__).resolve().parents[2]


def test_every_language_is_written_whole(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("po2json", ROOT / "scripts" / "po2json.py")
    assert spec is not None and spec.loader is not None
    po2json = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(po2json)
    assert po2json.main([str(tmp_path)]) == 0
    ids = {(m.context, m.id[0] if isinstance(m.id, tuple) else m.id) for m in template() if m.id}
    for lang in ("en", "de", "fr", "es"):
        data = json.loads((tmp_path / f"{lang}.json").read_text("utf-8"))
        got = {(None, k) for k in data["messages"]}
        got |= {(c, k) for c, ms in data["contexts"].items() for k in ms}
        assert got == ids, lang
        locale = Locale.parse(lang)
        categories = {locale.plural_form(n) for n in range(1001)}
        assert set(data["plural_index"]) == categories, lang
        forms = data["messages"]["{n} card"]
        assert {forms[i] for i in data["plural_index"].values()} == set(forms), lang
        assert data["ingredients"]["toad"]["name"] and data["colours"]["brown"]["tag"]
    de = json.loads((tmp_path / "de.json").read_text("utf-8"))
    assert de["ingredients"]["toad"]["name"] == "Kröte"
    assert de["messages"]["{n} card"][de["plural_index"]["one"]] == "{n} Karte"
