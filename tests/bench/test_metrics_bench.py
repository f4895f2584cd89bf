"""A tiny run of ``bench/metrics.py`` so that the metrics benchmark cannot rot."""

from __future__ import annotations

import re

import pytest

from .runner import run_bench


@pytest.mark.e2e
def test_a_small_metrics_run() -> None:
    out = run_bench("metrics.py", "--rounds", "2", "--tables", "5")
    assert re.search(r"5 tables: a scrape [0-9.]+ ms median", out), out
    assert re.search(r"a take's figure: \d+ ns median", out), out
