"""Fixtures of the server tests: a real ``Server`` on 127.0.0.1 per test
(``tests/helpers/servers.py``)."""

from __future__ import annotations

from tests.helpers.servers import make_server, server

__all__ = ["make_server", "server"]
