"""A tiny run of ``bench/commit.py`` so that the store's benchmark cannot rot: both
stores play, the SQLite one through its writer thread, and the figures are printed."""

from __future__ import annotations

import re

import pytest

from .runner import run_bench


@pytest.mark.e2e
def test_a_small_commit_run() -> None:
    out = run_bench("commit.py", "--tables", "4", "--takes", "60", "--rounds", "2")
    figure = r"[0-9.]+ us CPU per take \(best [0-9.]+\), [0-9.]+ context switches per take"
    assert re.search(r"memory: +" + figure + "\n", out), out
    assert re.search(r"sqlite: +" + figure + r", [0-9.]+ writes per commit", out)
