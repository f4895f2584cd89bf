"""The test services' old import path (``bench/cluster.py``, some tests): they live in
``tests/helpers/services.py`` now."""

from tests.helpers.ports import free_port
from tests.helpers.services import Postgres, Redis

__all__ = ["Postgres", "Redis", "free_port"]
