"""What an operator setting up ``kupferkessel serve`` from the docs runs into: a value
out of its range (a port over 65535, a negative time) refused at start with one clear
line, a PostgreSQL store or a Redis that cannot be reached waited for (one line each
try, no traceback), and
``export --config`` finding the store the server runs on."""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from server.commands import export, ratings
from server.commands.configfile import ConfigError
from server.commands.flags import help_text
from server.commands.serve import FLAGS, _released, run, settle
from server.commands.startup import StopAsked, hold_stops, until_served
from server.store import open_store
from tests.helpers.config import keep_logging, parse
from tests.helpers.processes import KUPFERKESSEL


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--port", "99999"], "--port must be from 0 to 65535, not 99999"),
        (["--port", "-1"], "--port must be from 0 to 65535, not -1"),
        (["--max-connections", "0"], "--max-connections must be at least 1, not 0"),
        (["--max-tables", "-1"], "--max-tables must be at least 0, not -1"),
        (["--peer-bot-games", "-2"], "--peer-bot-games must be at least 0, not -2"),
        (["--bot-workers", "-1"], "--bot-workers must be at least 0, not -1"),
        (["--lobby-ttl", "-5"], "--lobby-ttl must be at least 0, not -5.0"),
        (["--bot-think", "0"], "--bot-think must be at least 0.01, not 0.0"),
    ],
)
def test_a_value_out_of_range_stops_the_start(
    argv: list[str], says: str, capfd: pytest.CaptureFixture[str], request: pytest.FixtureRequest
) -> None:
    request.addfinalizer(keep_logging())
    assert run(parse(*argv)) == 2
    last = json.loads(capfd.readouterr().err.splitlines()[-1])
    assert last["msg"] == "cannot serve" and last["error"] == says


def test_out_of_range_from_the_environment_and_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    file = tmp_path / "kk.toml"
    file.write_text("port = 70000\n")
    with pytest.raises(ConfigError) as e:
        settle(parse("--config", str(file)))
    assert str(e.value) == f"{file}: 'port' must be from 0 to 65535, not 70000"
    assert settle(parse("--config", str(file), "--port", "9000")).port == 9000
    monkeypatch.setenv("KK_ABANDON_TTL", "-1")
    with pytest.raises(ValueError, match="KK_ABANDON_TTL"):
        settle(parse())


def test_a_stop_held_while_the_loop_is_made_comes_through_inside_it() -> None:
    """A SIGTERM while ``serve`` makes its event loop is held (``hold_stops``) instead of
    raised where it came, which once left a loop half made that complained on stderr
    when it was collected; it comes through as the loop runs, which then closes whole,
    and the server's coroutine never starts."""
    started: list[bool] = []

    async def serving() -> None:
        started.append(True)

    unraisable: list[Any] = []
    hook = sys.unraisablehook
    sys.unraisablehook = unraisable.append
    try:
        with until_served():
            hold_stops()
            os.kill(os.getpid(), signal.SIGTERM)
            asyncio.new_event_loop().close()  # work meanwhile, not cut off by the stop
            coro = serving()
            with pytest.raises(StopAsked, match="SIGTERM"):
                asyncio.run(_released(coro))
            coro.close()
        gc.collect()
    finally:
        sys.unraisablehook = hook
    assert not started and not unraisable


def _serve_stopped(tmp_path: Path, at: str, *argv: str) -> list[dict[str, Any]]:
    """``serve``, sent SIGTERM as soon as it writes a line with ``at`` in it: it stops
    cleanly (exit 0), whatever it was doing. Its log lines."""
    err = tmp_path / "stderr"
    with err.open("wb") as out:
        proc = subprocess.Popen(
            [str(KUPFERKESSEL), "serve", "--port", "0", "--no-admin", *argv], stderr=out
        )
    try:
        # a hang guard: at a load of 25 on 2 cores, Python took over 30 s to start and
        # import the server before its first line
        deadline = time.monotonic() + 120
        while at not in err.read_text():
            assert proc.poll() is None, err.read_text()
            assert time.monotonic() < deadline, f"no {at} line: {err.read_text()}"
            time.sleep(0.01)
        proc.terminate()
        # the process ends once its bot worker has come up to be told to go: at a load
        # of 30 one took 14 to 30 s to start
        assert proc.wait(timeout=120) == 0, err.read_text()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    text = err.read_text()
    assert all(line.startswith("{") for line in text.splitlines()), text  # JSON lines only
    return [json.loads(line) for line in text.splitlines()]


def _serve_waits(tmp_path: Path, *argv: str) -> list[dict[str, Any]]:
    """``serve`` with a service out of reach waits for it, saying so, instead of
    exiting (to be restarted in a loop); SIGTERM stops it cleanly. Its log lines."""
    return _serve_stopped(tmp_path, '"waiting for', *argv)


@pytest.mark.e2e
@pytest.mark.parametrize("at", ['"settings"', '"schema migrated"', '"listening"'])
def test_a_sigterm_at_any_moment_of_the_start_stops_cleanly(tmp_path: Path, at: str) -> None:
    """A supervisor may signal ``serve`` as soon as it says anything: at its first
    line, while it opens the database, or at "listening"."""
    lines = _serve_stopped(tmp_path, at, "--store", str(tmp_path / "kk.db"))
    assert all("Traceback" not in json.dumps(line) for line in lines)
    assert lines[-1]["msg"] in ("stopped while starting", "store closed"), lines[-1]


@pytest.mark.e2e
def test_an_unreachable_postgresql_is_waited_for_in_one_line(tmp_path: Path) -> None:
    lines = _serve_waits(tmp_path, "--store", "postgresql://kk@127.0.0.1:1/kk")
    waiting = [line for line in lines if line["msg"] == "waiting for the store"]
    assert waiting and "127.0.0.1" in str(waiting[0]["error"])
    assert all("Traceback" not in json.dumps(line) for line in lines)


@pytest.mark.e2e
def test_an_unreachable_redis_is_waited_for_in_one_line(tmp_path: Path, pg_url: str) -> None:
    lines = _serve_waits(tmp_path, "--store", pg_url, "--cluster", "redis://127.0.0.1:1/0")
    waiting = [line for line in lines if line["msg"] == "waiting for Redis"]
    assert waiting and "127.0.0.1:1" in str(waiting[0]["error"])
    assert all("Traceback" not in json.dumps(line) for line in lines)


def _command(module: Any, *argv: str) -> int:
    p = argparse.ArgumentParser()
    module.add_arguments(p)
    return int(module.run(p.parse_args(list(argv))))


@pytest.mark.parametrize(
    ("module", "argv", "out"),
    [(export, ("--list",), "id\tstate\tactions"), (ratings, ("show",), "rank\trating")],
)
def test_export_and_ratings_find_the_store_by_the_config_file(
    module: Any,
    argv: tuple[str, ...],
    out: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("KK_STORE", raising=False)
    monkeypatch.delenv("KK_DB", raising=False)
    (tmp_path / "data").mkdir()
    store = open_store(str(tmp_path / "data" / "server.db"))
    store.open_sync()  # type: ignore[attr-defined]
    asyncio.run(store.close())
    file = tmp_path / "kk.toml"
    file.write_text('store = "data/server.db"\n')
    assert _command(module, *argv, "--config", str(file)) == 0
    assert capsys.readouterr().out.startswith(out)
    monkeypatch.setenv("KK_CONFIG", str(file))  # as serve is told it
    assert _command(module, *argv) == 0
    assert capsys.readouterr().out.startswith(out)
    monkeypatch.setenv("KK_CONFIG", str(tmp_path / "elsewhere.toml"))
    assert _command(module, *argv) == 2  # the file it names, not the default store
    assert "elsewhere.toml" in capsys.readouterr().err
    monkeypatch.delenv("KK_CONFIG")
    file.write_text("stor = 1\n")
    assert _command(module, *argv, "--config", str(file)) == 2
    assert "unknown setting 'stor'" in capsys.readouterr().err


def test_every_flag_says_its_environment_variable_and_default() -> None:
    """``serve --help`` is what an operator reads first: each flag names its environment
    variable, and each number flag names its default and a short metavar."""
    for flag in FLAGS:
        assert flag.env == "KK_" + flag.dest.upper() and flag.env in help_text(flag)
        if flag.kind in ("int", "float") and flag.default is not None:
            assert f"default {flag.default:g}" in flag.help, flag.name
        if flag.kind in ("int", "float") and flag.name != "port":
            assert flag.metavar in ("N", "SECONDS"), flag.name


def test_a_database_of_a_newer_schema_is_one_line_and_exit_2(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], request: pytest.FixtureRequest
) -> None:
    db = tmp_path / "kk.db"
    store = open_store(str(db))
    asyncio.run(store.start())
    asyncio.run(store.close())
    con = sqlite3.connect(db)
    con.execute("UPDATE schema_version SET version = 99")
    con.commit()
    con.close()
    request.addfinalizer(keep_logging())
    assert run(parse("--port", "0", "--no-admin", "--store", str(db))) == 2
    err = capfd.readouterr().err
    last = json.loads(err.splitlines()[-1])
    assert last["msg"] == "cannot serve" and "schema version 99" in last["error"], err
    assert "Traceback" not in err
