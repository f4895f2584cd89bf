"""Helpers the tests share, each written once: import them from here, never from
another test module (a ``test_*.py`` holds tests, and what several need lives here).

- ``ports``: ``free_port``, a free TCP port on loopback.
- ``clock``: ``FakeClock``, an injected clock that moves only when a test moves it.
- ``waiting``: ``until``, wait for a condition instead of sleeping a guessed time.
- ``services``: real PostgreSQL and Redis servers (the ``postgres``/``redis_server``
  fixtures of ``tests/conftest.py`` start one of each per test process).
- ``games``: checks of a final view, stored games made without a server.
- ``cluster``: nodes of a cluster, in this process (``cluster``) or as processes
  (``Node``).
- ``leak_oracle``: random games played through a server, every frame checked against
  what its connection may know.

The raw websockets client of the server tests stays in ``tests/server/wsclient.py``
and the tmux terminals of the client tests in ``tests/client/tmux.py``, beside the
tests that use them; the helpers here may use the first.
"""

from .clock import FakeClock
from .ports import free_port
from .waiting import until

__all__ = ["FakeClock", "free_port", "until"]
