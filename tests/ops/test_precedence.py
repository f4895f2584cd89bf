"""One precedence for every setting of ``kupferkessel serve``: the flag over its
environment variable over the config file over the default (docs/SERVER.md's table),
settings that name one thing (store and db, host and public, a store and no-persist)
settled the same way or refused when they contradict each other, and the settings in
force logged once at start whatever the log level, secrets masked."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from server.commands.configfile import ConfigError
from server.commands.flags import FLAGS, Flag, settle
from server.commands.serve import config_from_args, run, store_from_args
from server.commands.startup import masked
from server.store import MemoryStore, SqliteStore
from tests.helpers.config import keep_logging, parse, toml_value

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _no_settings_in_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for flag in FLAGS:
        assert flag.env is not None
        monkeypatch.delenv(flag.env, raising=False)
    monkeypatch.delenv("KK_CONFIG", raising=False)


def _values(flag: Flag) -> tuple[Any, Any, Any]:
    """Three values of ``flag``'s kind, none its default: for the file, the environment
    and the command line."""
    if flag.choices:
        a, b, c = (c for c in flag.choices if c != flag.default)
        return a, b, c
    return {
        "int": (7, 8, 9),
        "float": (2.5, 3.5, 4.5),
        "str": tuple(f"/srv/{flag.name}-{n}" for n in range(3)),
        "list": (["https://f.example"], ["https://e.example", "https://e2.example"], ["x"]),
    }[flag.kind]


def _env_text(value: Any) -> str:
    return ",".join(value) if isinstance(value, list) else str(value)


def _argv(flag: Flag, value: Any) -> list[str]:
    if isinstance(value, list):
        return [a for v in value for a in ("--" + flag.name, v)]
    return ["--" + flag.name, str(value)]


@pytest.mark.parametrize("flag", [f for f in FLAGS if f.kind != "bool"], ids=lambda f: f.name)
def test_each_setting_flag_over_environment_over_file_over_default(
    flag: Flag, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def got(*argv: str) -> Any:
        args = settle(parse(*argv))
        return getattr(args, flag.dest), args.sources[flag.dest]

    assert got() == (flag.default, "default")
    in_file, in_env, on_line = _values(flag)
    file = tmp_path / "kk.toml"
    file.write_text(f"{flag.name} = {toml_value(in_file)}\n")
    assert got("--config", str(file)) == (in_file, "file")
    monkeypatch.setenv(flag.env or "", _env_text(in_env))
    assert got("--config", str(file)) == (in_env, "environment")
    assert got("--config", str(file), *_argv(flag, on_line)) == (on_line, "flag")


@pytest.mark.parametrize("flag", [f for f in FLAGS if f.kind == "bool"], ids=lambda f: f.name)
def test_each_switch_flag_over_environment_over_file_over_default(
    flag: Flag, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A switch the file turns on is turned off by its variable (``KK_NO_WEB=0``), and
    the flag turns it on again."""
    file = tmp_path / "kk.toml"
    file.write_text(f"{flag.name} = true\n")
    assert getattr(settle(parse()), flag.dest) is False
    assert getattr(settle(parse("--config", str(file))), flag.dest) is True
    for off in ("0", "false", "no", "off"):
        monkeypatch.setenv(flag.env or "", off)
        assert getattr(settle(parse("--config", str(file))), flag.dest) is False, off
    monkeypatch.setenv(flag.env or "", "0")
    assert getattr(settle(parse("--config", str(file), "--" + flag.name)), flag.dest) is True
    file.write_text("")
    monkeypatch.setenv(flag.env or "", "yes")
    assert getattr(settle(parse("--config", str(file))), flag.dest) is True


def test_a_file_store_gives_way_to_db_on_the_line_and_in_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    file = tmp_path / "kk.toml"
    file.write_text('store = "from-file.db"\n')
    line = tmp_path / "from-line.db"
    store = store_from_args(parse("--config", str(file), "--db", str(line)))
    assert isinstance(store, SqliteStore) and Path(store.path) == line
    monkeypatch.setenv("KK_DB", str(tmp_path / "from-env.db"))
    store = store_from_args(parse("--config", str(file)))
    assert isinstance(store, SqliteStore) and Path(store.path) == tmp_path / "from-env.db"
    with pytest.raises(ConfigError, match="store and db name two databases"):
        settle(parse("--store", "a.db", "--db", "b.db"))


def test_host_on_the_line_beats_public_in_the_file(tmp_path: Path) -> None:
    file = tmp_path / "kk.toml"
    file.write_text("public = true\n")
    assert config_from_args(parse("--config", str(file))).host == "0.0.0.0"
    assert config_from_args(parse("--config", str(file), "--host", "127.0.0.1")).host == (
        "127.0.0.1"
    )
    file.write_text('host = "127.0.0.1"\n')
    assert config_from_args(parse("--config", str(file), "--public")).host == "0.0.0.0"
    with pytest.raises(ConfigError, match="public and host contradict each other"):
        settle(parse("--public", "--host", "127.0.0.1"))


def test_no_persist_beside_a_store_is_an_error_not_a_memory_server(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], request: pytest.FixtureRequest
) -> None:
    request.addfinalizer(keep_logging())
    assert run(parse("--no-persist", "--store", "postgresql://kk@127.0.0.1:1/kk")) == 2
    last = json.loads(capfd.readouterr().err.splitlines()[-1])
    assert last["msg"] == "cannot serve"
    assert "no-persist and store contradict each other" in last["error"]
    # from sources of different strength, the stronger wins, as for every setting
    file = tmp_path / "kk.toml"
    file.write_text("no-persist = true\n")
    store = store_from_args(parse("--config", str(file), "--store", str(tmp_path / "kk.db")))
    assert isinstance(store, SqliteStore)
    file.write_text(f'store = "{tmp_path / "kk.db"}"\n')
    assert isinstance(store_from_args(parse("--config", str(file), "--no-persist")), MemoryStore)


@pytest.mark.parametrize(
    ("variable", "text", "says"),
    [
        ("KK_PORT", "eighty", "KK_PORT must be a whole number, not 'eighty'"),
        ("KK_PORT", "70000", "KK_PORT must be from 0 to 65535, not 70000"),
        ("KK_LEASE", "soon", "KK_LEASE must be a number, not 'soon'"),
        ("KK_NO_WEB", "maybe", "KK_NO_WEB must be 1 or 0 (true or false), not 'maybe'"),
        ("KK_LOG_LEVEL", "loud", "KK_LOG_LEVEL must be one of debug, info, warning, error"),
    ],
)
def test_a_bad_environment_value_is_a_clear_error(
    variable: str, text: str, says: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(variable, text)
    with pytest.raises(ConfigError) as e:
        settle(parse())
    assert says in str(e.value)


def test_the_docs_table_names_every_setting() -> None:
    """docs/SERVER.md's table: a row per flag with its variable, its file key and the
    default the code has."""
    text = (ROOT / "docs" / "SERVER.md").read_text(encoding="utf-8")
    rows = {m[1]: m[0] for m in re.findall(r"^(\| `--([a-z-]+)[^\n]*)$", text, re.M)}
    for flag in FLAGS:
        row = rows.get(flag.name)
        assert row is not None, flag.name
        cells = [c.strip() for c in row.split("|")[1:-1]]
        assert cells[1] == f"`{flag.env}`", flag.name
        assert cells[2] == f"`{flag.name}`", flag.name


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("postgresql://kk:hunter2@db:5432/kk", "postgresql://kk:***@db:5432/kk"),
        ("redis://:hunter2@cache:6379/0", "redis://:***@cache:6379/0"),
        ("postgresql://kk@db/kk?password=hunter2", "postgresql://kk@db/kk?password=***"),
        ("postgresql://kk@db/kk", "postgresql://kk@db/kk"),
        ("/var/lib/kupferkessel/server.db", "/var/lib/kupferkessel/server.db"),
    ],
)
def test_passwords_in_urls_are_masked(url: str, shown: str) -> None:
    assert masked(url) == shown


def test_the_settings_are_logged_once_at_any_level(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], request: pytest.FixtureRequest
) -> None:
    """At ``log-level = "warning"`` a start says what it runs with: the store (its
    password masked), each setting and where it came from, and never the metrics token."""
    request.addfinalizer(keep_logging())
    token = tmp_path / "metrics.token"
    token.write_text("tok-secret-123\n")
    file = tmp_path / "kk.toml"
    file.write_text('log-level = "warning"\nmetrics-token-file = "metrics.token"\n')
    url = "postgresql://kk:hunter2@127.0.0.1:1/kk"
    # a setting refused after the settings line: the start stops before the store
    argv = ("--store", url, "--port", "0", "--no-admin", "--rated-allow", "nonsense")
    assert run(parse("--config", str(file), *argv)) == 2
    err = capfd.readouterr().err
    assert "hunter2" not in err and "tok-secret-123" not in err
    lines = [json.loads(line) for line in err.splitlines()]
    settings = [r for r in lines if r["msg"] == "settings"]
    assert len(settings) == 1
    shown = settings[0]
    assert shown["level"] == "info" and shown["version"]
    assert shown["settings"]["store"] == "postgresql://kk:***@127.0.0.1:1/kk"
    assert shown["settings"]["port"] == 0 and shown["settings"]["log-level"] == "warning"
    assert shown["settings"]["metrics-token-file"] == str(token)
    assert shown["sources"] == {
        "store": "flag",
        "port": "flag",
        "no-admin": "flag",
        "rated-allow": "flag",
        "log-level": "file",
        "metrics-token-file": "file",
    }
    assert lines[-1]["msg"] == "cannot serve"
