"""Fixtures of the players' tests: the server tests' real servers on loopback, and a
real Redis's address for the tests on nodes of a cluster."""

from __future__ import annotations

import pytest

from bench.services import Redis
from tests.helpers.servers import make_server, server

__all__ = ["make_server", "redis_url", "server"]


@pytest.fixture
def redis_url(redis_server: Redis) -> str:
    return redis_server.url
