"""``SIGHUP`` (a log rotation, a closed terminal) never stops ``kupferkessel serve``: it
reads the config file again, applies what can change while running (the log level, the
metrics' access) and names what needs a restart; a file that no longer reads changes
nothing. Tested on a real process."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

import pytest

from tests.helpers.processes import ServeProcess
from tests.server.wsclient import WsClient


async def _record(serve: ServeProcess, msg: str, seen: int) -> dict[str, object]:
    """The first record ``msg`` after the first ``seen`` lines (waiting for it)."""
    async with asyncio.timeout(15):
        while True:
            for record in serve.records()[seen:]:
                if record["msg"] == msg:
                    return record
            await asyncio.sleep(0.05)


@pytest.mark.e2e
async def test_sighup_reloads_what_it_can_and_never_stops(tmp_path: Path) -> None:
    file = tmp_path / "kk.toml"
    file.write_text('log-level = "warning"\nname = "Before"\n')
    serve = await ServeProcess.start("--config", str(file))
    try:
        port = serve.port.result()
        alice = await WsClient.open(port, "alice")
        await alice.ping()
        assert not [r for r in serve.records() if r["msg"] == "connect"]  # at warning
        file.write_text('log-level = "info"\nname = "After"\n')
        seen = len(serve.lines)
        serve.proc.send_signal(signal.SIGHUP)
        reloaded = await _record(serve, "reloaded", seen)
        assert reloaded["applied"] == "log-level" and reloaded["restart_needed"] == "name"
        await alice.ping()  # still served
        bob = await WsClient.open(port, "bob")
        await _record(serve, "connect", seen)  # at info now
        file.write_text("port = 'eighty'\n")
        seen = len(serve.lines)
        serve.proc.send_signal(signal.SIGHUP)
        refused = await _record(serve, "reload refused: the settings in force stay", seen)
        assert "'port' must be a whole number" in str(refused["error"])
        await alice.ping()
        await bob.ping()
        code = await serve.stop(signal.SIGTERM)
    finally:
        if serve.proc.returncode is None:
            serve.proc.kill()
            await serve.proc.wait()
    assert code == 0
