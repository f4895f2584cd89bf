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


def test_the_unit_agrees_with_the_server() -> None:
    """The unit restarts on exit 1 (unreachable, crash), never on 2 (a configuration
    error, docs/SERVER.md); its reload is a SIGHUP, which the server survives; and it
    hides nothing from /proc that the process metrics need (``ProcSubset=pid`` hides
    /proc/stat, and prometheus_client then drops every ``process_*`` metric)."""
    text = UNIT.read_text()
    assert re.search(r"^Restart=on-failure$", text, re.M)
    assert re.findall(r"^RestartPreventExitStatus=(.*)$", text, re.M) == ["2"]
    assert re.search(r"^ExecReload=/bin/kill -HUP \$MAINPID$", text, re.M)
    assert not re.search(r"^ProcSubset=", text, re.M)


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
