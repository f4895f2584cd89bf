"""A small run of bench/analysis.py (a game per configuration, one sample a decision),
so that the analysis benchmark cannot rot unnoticed."""

from __future__ import annotations

import re

import pytest

from .runner import run_bench


@pytest.mark.e2e
def test_the_time_per_game_and_the_costs_by_level() -> None:
    out = run_bench("analysis.py", "--games", "1", "--budget", "1")
    assert "analysis at 1 samples a decision" in out
    for name in ("2 players, recipes off", "3 players, recipes on"):
        assert re.search(rf"{name} +1 games: median +[\d.]+ s CPU a game", out), out
    out = run_bench(
        "analysis.py",
        "--costs",
        "--games",
        "1",
        "--budget",
        "1",
        "--levels",
        "random,easy",
        "--workers",
        "1",
    )
    assert re.search(r"^random +\d+ ", out, re.M) and re.search(r"^easy +\d+ ", out, re.M), out
    assert "inaccuracy+" in out and "blunder+" in out
