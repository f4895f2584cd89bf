"""Fixtures of the players' tests: the server tests' real servers on loopback."""

from __future__ import annotations

from tests.server.conftest import make_server, server

__all__ = ["make_server", "server"]
