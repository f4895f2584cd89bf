"""Whether the packages this command is made of are ours: ``shared``, ``protocol``,
``server`` and ``client``.

Why: their names are generic, and pip lets another distribution of the same top-level
name (PyPI's ``shared``) install over ours in the same environment; then a command
failed far from the cause, with an unrelated traceback. Each of our packages' first
lines carry ``MARKER``; the command checks it in their sources (``foreign``), without
importing them (a foreign ``__init__`` may itself fail), before importing anything
else, and names the distribution that replaced ours.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
from pathlib import Path

__all__ = ["MARKER", "OURS", "foreign"]

MARKER = "__kupferkessel__ = True"
"""The line each of our packages' ``__init__.py`` has, in its first ``_HEAD`` bytes."""

OURS = ("shared", "protocol", "server", "client")
_HEAD = 16384


def _marked(origin: str | None) -> bool:
    if origin is None:  # no __init__.py: a namespace package, not ours
        return False
    try:
        with open(origin, "rb") as f:
            return MARKER.encode() in f.read(_HEAD)
    except OSError:
        return False


def _owners(name: str) -> str:
    """The distributions other than ours that install the top-level ``name``."""
    found = []
    for dist in dict.fromkeys(importlib.metadata.packages_distributions().get(name, [])):
        if dist.lower() != "kupferkessel":
            try:
                found.append(f"{dist} {importlib.metadata.version(dist)}")
            except importlib.metadata.PackageNotFoundError:
                found.append(dist)
    return ", ".join(found)


def foreign() -> str | None:
    """One line naming the first of ``OURS`` that is not ours (which distribution
    replaced it, where it is, and how to repair it), or None when all are ours."""
    for name in OURS:
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            spec = None
        origin = None if spec is None else spec.origin
        if _marked(origin):
            continue
        where = f" ({Path(origin).parent})" if origin else ""
        owners = _owners(name)
        by = f"the distribution {owners} installed its own" if owners else "another one is there"
        return (
            f"kupferkessel: the package {name!r} is not Kupferkessel's: {by}{where}."
            f" Repair: pip uninstall {owners.split(' ')[0] if owners else name} and"
            " pip install --force-reinstall kupferkessel; better, install the command"
            " with pipx, in an environment of its own (README.md)"
        )
    return None
