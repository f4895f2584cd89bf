"""The examples in docstrings (``>>>``) run and give what they show."""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import pkgutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("shared", "protocol", "server", "client")


def modules_with_examples() -> list[str]:
    """Every module of our packages whose source has a ``>>>`` example."""
    found = []
    for package in PACKAGES:
        for info in pkgutil.walk_packages([str(ROOT / package)], prefix=f"{package}."):
            spec = importlib.util.find_spec(info.name)
            if spec is not None and spec.origin and ">>> " in Path(spec.origin).read_text():
                found.append(info.name)
    return found


@pytest.mark.parametrize("name", modules_with_examples())
def test_docstring_examples_run(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0, result
