"""The web client's own checks, run by its locked dev packages (``web/package.json``):
no import cycle anywhere in ``web/src`` (madge, type-only imports counted: a screen
gets a small interface from ``host.ts`` instead of importing ``main.ts``), and every
source file as Prettier lays it out (``web/.prettierrc.json``), as ``ruff format``
decides the Python's layout; and no module of ``web/src`` over 600 lines, the rule
``scripts/check_architecture.py`` holds the Python to (the generator's own files, which
``web/.prettierignore`` lists, excepted: they are rewritten from ``docs/schema/``).

The first two need ``npm ci`` in ``web/`` (``.ci/run`` does it) and skip without it."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

WEB = Path(__file__).resolve().parents[2] / "web"
MAX_LINES = 600


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


@pytest.mark.e2e  # runs Node in a process of its own
def test_no_import_cycle_in_the_web_client() -> None:
    run = run_script("check-cycles", "madge")
    assert run.returncode == 0, f"an import cycle in web/src:\n{run.stdout}\n{run.stderr}"
    # every module was read (one it could not resolve would hide its imports)
    modules = len(list((WEB / "src").rglob("*.ts")))
    assert f"Processed {modules} files" in run.stdout, run.stdout
    assert "No circular dependency found" in run.stdout + run.stderr


@pytest.mark.e2e
def test_the_web_client_is_formatted() -> None:
    run = run_script("check-format", "prettier")
    assert run.returncode == 0, (
        f"not as Prettier lays it out: run npm run format in web/\n{run.stdout}\n{run.stderr}"
    )


def generated() -> set[Path]:
    """The files the generator writes (``web/.prettierignore`` lists them)."""
    lines = (WEB / ".prettierignore").read_text().splitlines()
    return {WEB / x.strip() for x in lines if x.strip() and not x.lstrip().startswith("#")}


def test_no_module_of_the_web_client_is_over_600_lines() -> None:
    modules = [p for p in sorted((WEB / "src").rglob("*.ts")) if p not in generated()]
    assert len(modules) > 10, modules  # the sources were found
    long = {
        str(p.relative_to(WEB)): n
        for p in modules
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert not long, f"over {MAX_LINES} lines (split by concept): {long}"
