"""``kupferkessel serve --config FILE`` (issue 26): every flag can be set in a TOML
file; flags and environment variables win; unknown keys, bad values and unreadable
files are clear errors; the example in docs/ is valid and names every flag."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from server.commands.configfile import ConfigError, read_config_file
from server.commands.serve import (
    FLAGS,
    Flag,
    config_from_args,
    run,
    settle,
    store_from_args,
)
from server.store import MemoryStore
from tests.helpers.config import keep_logging, parse

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs" / "kupferkessel.toml"


def _other(flag: Flag) -> Any:
    """A value of ``flag``'s kind that is not its default."""
    if flag.choices:
        return next(c for c in flag.choices if c != flag.default)
    return {
        "bool": True,
        "int": 7,
        "float": 2.5,
        "str": f"/srv/kk/{flag.name}" if flag.path else f"value-{flag.name}",
        "list": ["https://a.example", "https://b.example"],
    }[flag.kind]


def test_the_file_reaches_the_server_config(tmp_path: Path) -> None:
    token = tmp_path / "metrics.token"
    token.write_text("tok-123\n")
    file = tmp_path / "kk.toml"
    file.write_text(
        'port = 9100\nname = "Club"\npeer-bot-games = 0\nlease = 5\nno-web = true\n'
        'allow-origin = ["https://club.example"]\nmetrics-token-file = "metrics.token"\n'
        "no-persist = true\n"
    )
    args = parse("--config", str(file))
    config = config_from_args(args)
    assert (config.port, config.name, config.lease, config.web) == (9100, "Club", 5.0, False)
    assert config.quotas.bot_games == 0 and config.allowed_origins == ("https://club.example",)
    assert config.metrics and config.metrics_token == "tok-123"  # relative to the file
    assert isinstance(store_from_args(args), MemoryStore)


def test_the_command_line_and_the_environment_win(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    file = tmp_path / "kk.toml"
    file.write_text('port = 9000\nname = "from the file"\nallow-origin = ["https://f"]\n')
    args = settle(parse("--config", str(file), "--port", "9001", "--allow-origin", "https://c"))
    assert (args.port, args.name, args.allow_origin) == (9001, "from the file", ["https://c"])
    monkeypatch.setenv("KK_NAME", "from the environment")
    monkeypatch.setenv("KK_CONFIG", str(file))
    args = settle(parse())  # the file named by KK_CONFIG
    assert (args.port, args.name) == (9000, "from the environment")
    args = settle(parse("--name", "from the flag"))
    assert args.name == "from the flag"


def test_defaults_without_a_file() -> None:
    args = settle(parse())
    assert (args.port, args.host, args.allow_origin, args.log_level) == (
        8765,
        "127.0.0.1",
        [],
        "info",
    )
    assert settle(args) is args  # settled once


@pytest.mark.parametrize(
    ("text", "says"),
    [
        (
            "max-conections = 10\n",
            "unknown setting 'max-conections' (did you mean 'max-connections'?)",
        ),
        ("colour = 'red'\n", "unknown setting 'colour'"),
        ("config = 'other.toml'\n", "unknown setting 'config'"),
        ("port = '8765'\n", "'port' must be a whole number, not '8765'"),
        ("port = true\n", "'port' must be a whole number, not True"),
        ("lease = 'long'\n", "'lease' must be a number"),
        ("no-web = 1\n", "'no-web' must be true or false, not 1"),
        ("allow-origin = 'https://a'\n", "'allow-origin' must be a list of strings"),
        ("log-level = 'loud'\n", "'log-level' must be one of debug, info, warning, error"),
        ("[serve]\nport = 1\n", "unknown setting 'serve'"),
        ("port = \n", "not valid TOML"),
    ],
)
def test_bad_files_are_clear_errors(tmp_path: Path, text: str, says: str) -> None:
    file = tmp_path / "kk.toml"
    file.write_text(text)
    with pytest.raises(ConfigError) as e:
        settle(parse("--config", str(file)))
    assert says in str(e.value) and str(file) in str(e.value)


def test_serve_refuses_to_start_on_a_bad_file(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], request: pytest.FixtureRequest
) -> None:
    """``run`` sets up the process's logging on the captured stderr: it is put back
    after, so later tests do not log to a closed stream."""
    file = tmp_path / "kk.toml"
    file.write_text("prot = 1\n")
    request.addfinalizer(keep_logging())
    assert run(parse("--config", str(file))) == 2
    lines = [json.loads(line) for line in capfd.readouterr().err.splitlines()]
    assert lines[-1]["msg"] == "cannot serve" and "'prot'" in lines[-1]["error"]
    assert run(parse("--config", str(tmp_path / "missing.toml"))) == 2
    assert "cannot be read" in json.loads(capfd.readouterr().err.splitlines()[-1])["error"]


def test_the_example_is_valid_and_names_every_flag() -> None:
    known = {f.name: (f.kind, f.choices) for f in FLAGS}
    settings = read_config_file(EXAMPLE, known)
    assert settings["metrics-loopback"] is True
    text = EXAMPLE.read_text()
    named = set(re.findall(r"^#? ?([a-z-]+) = ", text, re.M))
    assert {f.name for f in FLAGS} <= named
    documented = (ROOT / "docs" / "SERVER.md").read_text()
    for flag in FLAGS:
        assert f"`--{flag.name}" in documented, flag.name


def test_allowed_hosts_from_the_flag_the_environment_and_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    file = tmp_path / "kk.toml"
    file.write_text('allow-host = ["kk.example.org"]\n')
    assert config_from_args(parse("--config", str(file))).allowed_hosts == ("kk.example.org",)
    monkeypatch.setenv("KK_ALLOW_HOST", "a.example, b.example")  # names separated by commas
    assert config_from_args(parse("--config", str(file))).allowed_hosts == (
        "a.example",
        "b.example",
    )
    flagged = parse("--config", str(file), "--allow-host", "c.example")  # the flag wins
    assert config_from_args(flagged).allowed_hosts == ("c.example",)
