"""A tiny run of ``bench/catalogues.py`` so that the catalogues' benchmark cannot rot."""

from __future__ import annotations

import re

import pytest

from .runner import run_bench


@pytest.mark.e2e
def test_a_small_catalogues_run() -> None:
    out = run_bench("catalogues.py", "--repeat", "1", "--calls", "10")
    for lang in ("de", "fr", "es"):
        found = re.search(rf"{lang}: read and compiled +[0-9.]+ ms, a message +[0-9.]+ us", out)
        assert found, out
