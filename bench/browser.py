"""Debian's Chromium as the benchmarks and the browser tests launch it (through
Playwright, never a browser it downloads): where it is (``KK_CHROMIUM`` names another)
and the flags of a headless run on a machine without a display or a GPU."""

from __future__ import annotations

import os

__all__ = ["CHROMIUM", "CHROMIUM_ARGS"]

CHROMIUM = os.environ.get("KK_CHROMIUM", "/usr/bin/chromium")

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
