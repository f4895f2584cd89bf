"""Installation for two kinds of people: a player's install has no PostgreSQL driver and
no Redis client (they are the ``cluster`` extra), and ``play``, ``join``, ``host`` and
``serve`` on SQLite never import them, while a PostgreSQL store or ``--cluster`` says in
one line what to install (exit 2). And a command whose packages another distribution
replaced says which, instead of failing with an unrelated traceback.

A player's install is made here by a meta-path finder (``sitecustomize``) that finds
neither driver and notes each attempt to import one."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from client.packages import MARKER, OURS
from server.extras import INSTALL

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]

BLOCKER = '''
import sys

class NotInstalled:
    """psycopg and redis are not installed here: each attempt is noted on stderr."""

    def find_spec(self, name, path=None, target=None):
        top = name.split(".")[0]
        if top in ("psycopg", "psycopg_binary", "psycopg_c", "psycopg_pool", "redis"):
            sys.stderr.write(f"BLOCKED {name}\\n")
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, NotInstalled())
'''


def _env(site: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("KK_")}
    env["PYTHONPATH"] = os.pathsep.join([str(site), str(ROOT)])
    return env


@pytest.fixture
def player(tmp_path: Path) -> dict[str, str]:
    """The environment of a player's install: no psycopg, no redis."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(BLOCKER)
    return _env(site)


def _kk(env: dict[str, str], *argv: str) -> subprocess.CompletedProcess[str]:
    code = "import sys; from client.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run(
        [sys.executable, "-c", code, *argv],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=env["PYTHONPATH"].split(os.pathsep)[0],  # not ROOT: -c puts the folder first
    )


def test_serve_on_sqlite_never_imports_the_cluster_drivers(
    player: dict[str, str], tmp_path: Path
) -> None:
    code = "import sys; from client.cli import main; sys.exit(main(sys.argv[1:]))"
    db = tmp_path / "kk.db"
    proc = subprocess.Popen(
        [sys.executable, "-c", code, "serve", "--port", "0", "--store", str(db), "--no-admin"],
        env=player,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    assert proc.stderr is not None
    lines = []
    deadline = time.monotonic() + 30
    try:
        for line in proc.stderr:
            lines.append(line)
            if '"listening"' in line or time.monotonic() > deadline:
                break
        assert any('"listening"' in line for line in lines), "".join(lines)
        proc.send_signal(signal.SIGTERM)
        _, rest = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, "".join(lines) + rest
    assert "BLOCKED" not in "".join(lines) + rest


def test_the_players_commands_never_import_the_cluster_drivers(
    player: dict[str, str], tmp_path: Path
) -> None:
    """``play`` and ``host`` run an embedded server (in memory, or on SQLite); ``join``
    and ``watch`` only connect: none of their modules, nor such a server, imports
    psycopg or redis."""
    code = (
        "import asyncio, sys\n"
        "import client.commands.play, client.commands.host, client.commands.join\n"
        "import client.commands.watch, client.commands.replay, server.commands.serve\n"
        "from server.app import Server, ServerConfig\n"
        "from server.store import SqliteStore\n"
        "async def once():\n"
        "    s = Server(ServerConfig(port=0, bot_workers=0), SqliteStore(sys.argv[1]))\n"
        "    await s.start()\n"
        "    await s.stop()\n"
        "asyncio.run(once())\n"
        "assert 'psycopg' not in sys.modules and 'redis' not in sys.modules\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path / "kk.db")],
        env=player,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert done.returncode == 0 and "BLOCKED" not in done.stderr, done.stderr


@pytest.mark.parametrize(
    ("argv", "needs"),
    [
        (["serve", "--store", "postgresql://kk@127.0.0.1:1/kk"], "psycopg"),
        (["serve", "--cluster", "redis://127.0.0.1:1/0", "--store", "postgresql://x@h/d"], "redis"),
        (["export", "--list", "--store", "postgresql://kk@127.0.0.1:1/kk"], "psycopg"),
        (["ratings", "show", "--store", "postgresql://kk@127.0.0.1:1/kk"], "psycopg"),
    ],
)
def test_a_cluster_setting_without_the_drivers_says_what_to_install(
    argv: list[str], needs: str, player: dict[str, str]
) -> None:
    done = _kk(player, *argv, *(["--port", "0", "--no-admin"] if argv[0] == "serve" else []))
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    last = done.stderr.strip().splitlines()[-1]
    if argv[0] == "serve":
        last = json.loads(last)["error"]
    assert INSTALL in last and needs in last, last


def _shadow(site: Path, name: str) -> None:
    """What ``pip install shared`` (PyPI's) did: a package ``name`` of another
    distribution where ours was."""
    (site / name).mkdir(parents=True)
    (site / name / "__init__.py").write_text("raise RuntimeError('not the package you want')\n")
    info = site / f"{name}-9.9.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 9.9\n")
    (info / "top_level.txt").write_text(f"{name}\n")
    (info / "RECORD").write_text(f"{name}/__init__.py,,\n")


@pytest.mark.parametrize("name", ["shared", "protocol", "server"])
def test_a_package_another_distribution_replaced_is_named(name: str, tmp_path: Path) -> None:
    site = tmp_path / "site"
    _shadow(site, name)
    done = _kk(_env(site), "replay", str(tmp_path / "game.json"))
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert f"the package {name!r} is not Kupferkessel's" in line
    assert f"the distribution {name} 9.9" in line and "pipx" in line


def test_each_of_our_packages_has_the_marker() -> None:
    for name in OURS:
        assert MARKER in (ROOT / name / "__init__.py").read_text(), name
