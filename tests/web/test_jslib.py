"""The JavaScript client library's own tests (``web/test/``, Node's test runner), run
against a real server on loopback."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.helpers.web import LiveServer

pytestmark = pytest.mark.e2e  # runs Node (and npm) in processes of their own

WEB = Path(__file__).resolve().parents[2] / "web"


def test_the_js_client_library_against_a_real_server(live_server: LiveServer) -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: the JS library's tests need Node 20+")
    env = {**os.environ, "KK_WS_URL": live_server.url.replace("http://", "ws://")}
    run = subprocess.run(
        [node, "--experimental-websocket", "--test", str(WEB / "test")],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "# fail 0" in run.stdout, run.stdout
    passed = re.search(r"^# pass (\d+)$", run.stdout, re.M)
    assert passed and int(passed.group(1)) >= 5, run.stdout
