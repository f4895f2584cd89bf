"""Fixtures of the players' tests: the server tests' real servers on loopback (a real
Redis's address for the tests on nodes of a cluster, ``redis_url``, is the suite's)."""

from __future__ import annotations

from tests.helpers.servers import make_server, server

__all__ = ["make_server", "server"]
