"""``npm run build`` on a fresh copy of ``web/`` reproduces the assets committed in
``server/webassets/`` byte for byte, so what is served is what the sources say, and the
protocol types it generates from ``docs/schema`` are the committed ``protocol.ts``.

The copy's packages are the lock file's: the tree's own ``node_modules`` when ``npm ci``
put exactly those there (as ``.ci/run`` does; a fresh ``npm ci`` costs a minute on a
slow machine), else a fresh ``npm ci`` in the copy."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from server.net.webui import ASSETS_DIR

pytestmark = pytest.mark.e2e  # runs Node (and npm) in processes of their own

WEB = Path(__file__).resolve().parents[2] / "web"


def installed_as_locked(web: Path) -> bool:
    """Whether ``web/node_modules`` holds exactly the packages ``package-lock.json``
    names for this machine: npm's record of what it installed there
    (``node_modules/.package-lock.json``) has each of them at its locked version and
    integrity, and lacks none but those for other platforms (optional ones)."""
    try:
        locked = json.loads((web / "package-lock.json").read_text())["packages"]
        there = json.loads((web / "node_modules" / ".package-lock.json").read_text())["packages"]
    except (OSError, ValueError, KeyError):
        return False
    wanted = {k: v for k, v in locked.items() if k}  # "": the project itself
    key = ("version", "integrity")
    if any(
        k not in wanted or [v.get(f) for f in key] != [wanted[k].get(f) for f in key]
        for k, v in there.items()
    ):
        return False
    return all(k in there or v.get("optional") for k, v in wanted.items())


def test_a_copy_installed_otherwise_is_not_taken_for_the_lock_files(tmp_path: Path) -> None:
    web = tmp_path / "web"
    (web / "node_modules").mkdir(parents=True)
    lock = {
        "packages": {
            "": {},
            "node_modules/a": {"version": "1.0.0", "integrity": "x"},
            "node_modules/b": {"version": "2.0.0", "optional": True},
        }
    }
    (web / "package-lock.json").write_text(json.dumps(lock))
    hidden = web / "node_modules" / ".package-lock.json"
    assert not installed_as_locked(web)  # nothing installed
    hidden.write_text(
        json.dumps({"packages": {"node_modules/a": {"version": "1.0.0", "integrity": "x"}}})
    )
    assert installed_as_locked(web)  # the optional one may be missing
    hidden.write_text(
        json.dumps({"packages": {"node_modules/a": {"version": "1.0.1", "integrity": "y"}}})
    )
    assert not installed_as_locked(web)  # another version
    hidden.write_text(json.dumps({"packages": {}}))
    assert not installed_as_locked(web)  # one missing
    hidden.write_text(
        json.dumps(
            {
                "packages": {
                    "node_modules/a": {"version": "1.0.0", "integrity": "x"},
                    "node_modules/c": {"version": "1"},
                }
            }
        )
    )
    assert not installed_as_locked(web)  # one more than locked


@pytest.mark.long
def test_a_fresh_build_reproduces_the_committed_assets(tmp_path: Path) -> None:
    npm = shutil.which("npm")
    if npm is None or shutil.which("node") is None:
        pytest.skip("npm is not installed: cannot rebuild the web client (needs Node 20+)")
    work = tmp_path / "web"
    # a copy of the sources: the tree's own node_modules and assets stay untouched
    shutil.copytree(WEB, work, ignore=shutil.ignore_patterns("node_modules", "dist"))
    # the schema the types come from; the catalogues and card words the languages come from
    for part in ("docs", "scripts", "client", "shared"):
        (tmp_path / part).symlink_to(WEB.parent / part)
    out = tmp_path / "assets"
    env = {
        **os.environ,
        "KK_WEB_OUT": str(out),
        "KK_PYTHON": sys.executable,  # po2json.py needs Babel
        "npm_config_fund": "false",
    }
    steps = [[npm, "run", "build"]]
    if installed_as_locked(WEB):
        (work / "node_modules").symlink_to(WEB / "node_modules")
    else:
        steps.insert(0, [npm, "ci", "--no-audit"])
    for cmd in steps:
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
