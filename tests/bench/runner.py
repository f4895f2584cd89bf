"""Running a benchmark of ``bench/`` as its user does, for the tests that keep it from
rotting."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_bench(script: str, *args: str, timeout: float = 300) -> str:
    """``python bench/<script> <args>`` in the checkout: what it prints (it must end
    well; its standard error says why not)."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / script), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout
