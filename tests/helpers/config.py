"""``kupferkessel serve``'s command line and config file in the tests: the flags parsed
as ``serve`` parses them, a value written as TOML, the logging set-up kept and put back
around a ``run``."""

from __future__ import annotations

import argparse
import json
import logging
from collections.abc import Callable
from typing import Any

from server.commands.serve import add_arguments


def parse(*argv: str) -> argparse.Namespace:
    p = argparse.ArgumentParser()
    add_arguments(p)
    return p.parse_args(list(argv))


def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return json.dumps(value)  # strings, numbers, lists of strings: the same in TOML


def keep_logging() -> Callable[[], None]:
    """The logging set-up as it is now, to put back (the returned function)."""
    root, ours = logging.getLogger(), logging.getLogger("kupferkessel")
    kept = (root.handlers[:], root.level, ours.handlers[:], ours.level, ours.propagate)

    def restore() -> None:
        root.handlers[:], root.level, ours.handlers[:], ours.level, ours.propagate = kept

    return restore
