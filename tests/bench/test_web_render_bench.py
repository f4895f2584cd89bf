"""Tiny runs of ``bench/web_render.py`` and ``bench/web_trace.py`` so that the web page's
cost benchmarks cannot rot: one measured move and one traced move in Debian's Chromium,
at full speed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bench.browser import CHROMIUM

from .runner import run_bench


@pytest.mark.e2e
@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="no Chromium (apt-get install chromium)")
def test_a_small_web_render_run() -> None:
    out = run_bench("web_render.py", "--moves", "1", "--rates", "1", "--think", "0.2")
    assert re.search(r"^\s+this\s+1x\s+1\s+[0-9.]+\s", out, re.M), out


@pytest.mark.e2e
@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="no Chromium (apt-get install chromium)")
def test_a_small_web_trace_run() -> None:
    out = run_bench("web_trace.py", "--rate", "1", "--warm", "0", "--think", "0.2")
    assert re.search(r"^main-thread tasks: \d+, [0-9.]+ ms$", out, re.M), out
    assert re.search(r"^\s+Paint\s+[1-9]\d*\s", out, re.M), out
    assert re.search(r"^\s+\d+\.\d\s+390 x \d+\s", out, re.M), out
