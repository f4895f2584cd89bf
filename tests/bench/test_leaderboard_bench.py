"""A tiny run of ``bench/leaderboard.py`` so that the leaderboard benchmark cannot rot
(it also checks that both ways give the same pages)."""

from __future__ import annotations

import re

import pytest

from .runner import run_bench


@pytest.mark.e2e
def test_a_small_leaderboard_run() -> None:
    out = run_bench("leaderboard.py", "--players", "60", "--requests", "2")
    assert out.startswith("60 rated players"), out
    for page in ("first", "deep"):
        found = re.search(rf"{page} page of 20: median [0-9.]+ ms .* pages identical", out)
        assert found, out
