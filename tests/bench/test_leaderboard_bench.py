"""A tiny run of ``bench/leaderboard.py`` so that the leaderboard benchmark cannot rot
(it also checks that both ways give the same pages)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.e2e
def test_a_small_leaderboard_run() -> None:
    bench = ROOT / "bench" / "leaderboard.py"
    done = subprocess.run(
        [sys.executable, str(bench), "--players", "60", "--requests", "2"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    assert done.stdout.startswith("60 rated players"), done.stdout
    for page in ("first", "deep"):
        found = re.search(rf"{page} page of 20: median [0-9.]+ ms .* pages identical", done.stdout)
        assert found, done.stdout
