"""The web client's own checks, run by its locked dev packages (``web/package.json``):
no import cycle anywhere in ``web/src`` (madge, type-only imports counted: a screen
gets a small interface from ``host.ts`` instead of importing ``main.ts``), and every
source file as Prettier lays it out (``web/.prettierrc.json``), as ``ruff format``
decides the Python's layout.

They need ``npm ci`` in ``web/`` (``.ci/run`` does it) and skip without it."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e  # runs Node in processes of its own

WEB = Path(__file__).resolve().parents[2] / "web"


def run_script(script: str, tool: str) -> subprocess.CompletedProcess[str]:
    npm = shutil.which("npm")
    if npm is None or shutil.which("node") is None:
        pytest.skip("npm is not installed: cannot run the web client's checks (needs Node 20+)")
    if not (WEB / "node_modules" / ".bin" / tool).exists():
        pytest.skip(f"{tool} is not installed in web/node_modules: run npm ci in web/")
    return subprocess.run(
        [npm, "run", "--silent", script],
        cwd=WEB,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_no_import_cycle_in_the_web_client() -> None:
    run = run_script("check-cycles", "madge")
    assert run.returncode == 0, f"an import cycle in web/src:\n{run.stdout}\n{run.stderr}"
    # every module was read (one it could not resolve would hide its imports)
    modules = len(list((WEB / "src").rglob("*.ts")))
    assert f"Processed {modules} files" in run.stdout, run.stdout
    assert "No circular dependency found" in run.stdout + run.stderr


def test_the_web_client_is_formatted() -> None:
    run = run_script("check-format", "prettier")
    assert run.returncode == 0, (
        f"not as Prettier lays it out: run npm run format in web/\n{run.stdout}\n{run.stderr}"
    )
