"""A fresh ``npm ci && npm run build`` in ``web/`` reproduces the assets committed in
``server/webassets/`` byte for byte, so what is served is what the sources say, and the
protocol types it generates from ``docs/schema`` are the committed ``protocol.ts``."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from server.webui import ASSETS_DIR

pytestmark = pytest.mark.e2e  # runs Node (and npm) in processes of their own

WEB = Path(__file__).resolve().parents[2] / "web"


@pytest.mark.long
def test_a_fresh_build_reproduces_the_committed_assets(tmp_path: Path) -> None:
    npm = shutil.which("npm")
    if npm is None or shutil.which("node") is None:
        pytest.skip("npm is not installed: cannot rebuild the web client (needs Node 20+)")
    work = tmp_path / "web"
    # a copy of the sources: the tree's own node_modules and assets stay untouched
    shutil.copytree(WEB, work, ignore=shutil.ignore_patterns("node_modules", "dist"))
    (tmp_path / "docs").symlink_to(WEB.parent / "docs")  # the schema the types come from
    out = tmp_path / "assets"
    env = {**os.environ, "KK_WEB_OUT": str(out), "npm_config_fund": "false"}
    for cmd in ([npm, "ci", "--no-audit"], [npm, "run", "build"]):
        run = subprocess.run(
            cmd, cwd=work, env=env, capture_output=True, text=True, timeout=600, check=False
        )
        assert run.returncode == 0, f"{' '.join(cmd)}:\n{run.stdout}\n{run.stderr}"
    built = {p.name: p.read_bytes() for p in out.iterdir()}
    committed = {p.name: p.read_bytes() for p in ASSETS_DIR.iterdir() if p.name != "__init__.py"}
    assert sorted(built) == sorted(committed), "the built file names differ: run npm run build"
    for name, data in built.items():
        assert data == committed[name], f"{name} differs: run npm run build in web/"
    # the types (and their doc comments) say what docs/schema says now
    types = "src/lib/protocol.ts"
    assert (work / types).read_text() == (WEB / types).read_text(), (
        f"web/{types} is not what docs/schema generates: run npm run gen in web/"
    )
