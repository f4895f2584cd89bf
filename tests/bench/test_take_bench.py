"""A tiny run of ``bench/take.py`` so that the in-process benchmark of a take cannot
rot: every kind prints its figure, the 1.1 take its parts, and a load client's game
its frames by type."""

from __future__ import annotations

import re

import pytest

from .runner import run_bench


@pytest.mark.e2e
def test_a_small_take_run() -> None:
    out = run_bench("take.py", "--games", "2", "--rounds", "1")
    for kind in ("1.0, 0", "1.1 combined, 0", "1.0, 3", "1.1 combined, 3"):
        assert re.search(rf"{kind} spectator\(s\): +[0-9.]+ us per take", out), out
    parts = re.search(r"the rules ([0-9.]+), the views ([0-9.]+), the frames ([0-9.]+) us", out)
    assert parts is not None and all(float(x) > 0 for x in parts.groups()), out
    assert "refused" not in out, out  # every message the bench sends is accepted
    assert re.search(r"its frames: update \d+, presence 12", out), out
