"""The example systemd unit (issue 26): systemd's own checker finds nothing wrong in it
and rates its exposure low (where ``systemd-analyze`` is installed)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "docs" / "systemd" / "kupferkessel.service"
ANALYZE = shutil.which("systemd-analyze")

needs_systemd = pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze is not installed")


def _runnable(tmp_path: Path) -> Path:
    """The unit with an executable that exists here (verify checks ExecStart's)."""
    unit = tmp_path / "kupferkessel.service"
    unit.write_text(UNIT.read_text().replace("/opt/kupferkessel/bin/kupferkessel", "/bin/true"))
    return unit


def test_the_unit_has_its_hardening() -> None:
    text = UNIT.read_text()
    for option in (
        "DynamicUser=yes",
        "ProtectSystem=strict",
        "StateDirectory=kupferkessel",
        "NoNewPrivileges=yes",
        "RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX",
        "SystemCallFilter=@system-service",
        "CapabilityBoundingSet=\n",
        "--config /etc/kupferkessel/kupferkessel.toml",
    ):
        assert option in text, option


@needs_systemd
def test_systemd_finds_nothing_wrong(tmp_path: Path) -> None:
    assert ANALYZE is not None
    done = subprocess.run(
        [ANALYZE, "verify", str(_runnable(tmp_path))],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and not done.stderr.strip(), done.stderr


@needs_systemd
def test_its_exposure_is_low(tmp_path: Path) -> None:
    assert ANALYZE is not None
    done = subprocess.run(
        [ANALYZE, "security", "--offline=yes", str(_runnable(tmp_path))],
        capture_output=True,
        text=True,
        timeout=60,
    )
    found = re.search(r"Overall exposure level for \S+: ([0-9.]+)", done.stdout)
    assert found is not None, done.stdout[-500:] + done.stderr
    assert float(found.group(1)) <= 2.0, found.group(0)
