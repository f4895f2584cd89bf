"""The config file of ``kupferkessel serve`` (``--config FILE``): TOML, one key per flag.

Why: the commands that act on a server (``serve``, ``admin``, ``export``, ``ratings``)
read the same file, and a typo in a file read at every start must stop the start, not
be ignored; which setting wins over which is ``flags.settle``'s.
"""

from __future__ import annotations

import difflib
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

__all__ = ["ConfigError", "read_config_file"]


class ConfigError(ValueError):
    """A config file that cannot be read, a key no flag has, or a value of the wrong kind."""


_KINDS = {
    "bool": "true or false",
    "int": "a whole number",
    "float": "a number",
    "str": "a string",
    "list": "a list of strings",
}


def _fits(kind: str, value: Any) -> bool:
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "float":
        return isinstance(value, int | float) and not isinstance(value, bool)
    if kind == "str":
        return isinstance(value, str)
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def read_config_file(
    path: Path, known: Mapping[str, tuple[str, tuple[str, ...] | None]]
) -> dict[str, Any]:
    """The settings of the TOML file ``path``: each key the name of a flag of ``known``
    (name -> its kind and, if it has them, its choices), checked against it. Why: a
    typo in a file read at every start must stop the start, not be ignored."""
    try:
        with path.open("rb") as f:
            data = tomllib.load(f)
    except OSError as e:
        raise ConfigError(f"the config file cannot be read: {e}") from e
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{path}: not valid TOML: {e}") from e
    out: dict[str, Any] = {}
    for key, value in data.items():
        if key not in known:
            close = difflib.get_close_matches(key, known, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise ConfigError(f"{path}: unknown setting {key!r}{hint}")
        kind, choices = known[key]
        if not _fits(kind, value):
            raise ConfigError(f"{path}: {key!r} must be {_KINDS[kind]}, not {value!r}")
        if choices is not None and value not in choices:
            raise ConfigError(f"{path}: {key!r} must be one of {', '.join(choices)}, not {value!r}")
        out[key] = float(value) if kind == "float" else value
    return out
