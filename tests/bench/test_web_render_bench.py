"""A tiny run of ``bench/web_render.py`` so that the web page's cost benchmark cannot rot:
one measured move in Debian's Chromium, at full speed."""

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
