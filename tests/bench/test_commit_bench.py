"""A tiny run of ``bench/commit.py`` so that the store's benchmark cannot rot: both
stores play, the SQLite one through its writer thread, and the figures are printed."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.e2e
def test_a_small_commit_run() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "commit.py"), "--tables", "4", "--takes", "60",
         "--rounds", "2"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )  # fmt: skip
    figure = r"[0-9.]+ us CPU per take \(best [0-9.]+\), [0-9.]+ context switches per take"
    assert re.search(r"memory: +" + figure + "\n", done.stdout), done.stdout
    assert re.search(r"sqlite: +" + figure + r", [0-9.]+ writes per commit", done.stdout)
