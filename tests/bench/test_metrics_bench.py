"""A tiny run of ``bench/metrics.py`` so that the metrics benchmark cannot rot."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.e2e
def test_a_small_metrics_run() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "metrics.py"), "--rounds", "2", "--tables", "5"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    assert re.search(r"5 tables: a scrape [0-9.]+ ms median", done.stdout), done.stdout
    assert re.search(r"a take's figure: \d+ ns median", done.stdout), done.stdout
