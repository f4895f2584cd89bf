"""A small run of bench/analysis_load.py (three moves each way, analyses of two samples
a decision), so that the benchmark of a move beside analyses cannot rot unnoticed."""

from __future__ import annotations

import re

import pytest

from .runner import run_bench


@pytest.mark.e2e
def test_a_moves_time_alone_and_beside_analyses() -> None:
    out = run_bench("analysis_load.py", "--moves", "3", "--budget", "2", "--analysts", "1")
    for way in ("alone", "beside analyses at niceness 19", "beside analyses at niceness 0"):
        assert re.search(rf"^{way} +median +[\d.]+ ms +p90 +[\d.]+ ms", out, re.M), out
