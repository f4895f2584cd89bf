"""This build's version: the installed distribution's, which setuptools-scm took from git.

Why: every build used to call itself 0.1.0, so in a rolling upgrade nobody could tell
which node ran what. The version is set when the project is built or installed (from
its git tag and the commits since, or from an sdist's ``PKG-INFO``) and read back from
the distribution's metadata: ``kupferkessel --version``, ``welcome.server_version``, the
``Server`` header and the ``kupferkessel_build_info`` metric all say the same.
"""

from __future__ import annotations

import functools
import importlib.metadata

__all__ = ["DISTRIBUTION", "UNKNOWN", "version"]

DISTRIBUTION = "kupferkessel"
UNKNOWN = "0+unknown"
"""The version of code run from a folder that was never installed (no metadata)."""


@functools.cache
def version() -> str:
    """The installed distribution's version (``0.3.dev12+g1a2b3c4`` between tags), or
    ``UNKNOWN`` when the code is not installed."""
    try:
        return importlib.metadata.version(DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        return UNKNOWN
