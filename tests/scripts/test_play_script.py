"""``scripts/play.sh`` installs the project once, and again only when ``pyproject.toml``
changed (each launch used to run ``pip install -e .``, about 7 s)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _checkout(tmp: Path) -> Path:
    """A checkout with the real script and a virtualenv whose python and command only
    say they were run (the script's logic is what is tested, not pip)."""
    (tmp / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "play.sh", tmp / "scripts" / "play.sh")
    shutil.copy(ROOT / "pyproject.toml", tmp / "pyproject.toml")
    bin_dir = tmp / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    for name in ("python", "kupferkessel"):
        fake = bin_dir / name
        fake.write_text(f'#!/bin/sh\necho "{name} $*" >> "$(dirname "$0")/../calls"\n')
        fake.chmod(0o755)
    return tmp


def _launch(checkout: Path) -> list[str]:
    calls = checkout / ".venv" / "calls"
    calls.unlink(missing_ok=True)
    subprocess.run(
        ["bash", str(checkout / "scripts" / "play.sh"), "--level", "easy"], check=True, timeout=30
    )
    return calls.read_text().splitlines()


def test_play_installs_once_then_only_after_pyproject_changes(tmp_path: Path) -> None:
    checkout = _checkout(tmp_path)
    first = _launch(checkout)
    assert first == ["python -m pip install -q -e .", "kupferkessel play --level easy"]
    assert _launch(checkout) == ["kupferkessel play --level easy"]  # no install
    with (checkout / "pyproject.toml").open("a") as f:
        f.write("\n# a new dependency, say\n")
    assert _launch(checkout)[0] == "python -m pip install -q -e ."
