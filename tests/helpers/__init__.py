"""Helpers the tests share, each written once: import them from here, never from
another test module (a ``test_*.py`` holds tests, a ``conftest.py`` fixtures; what
several need lives here; ``scripts/check_architecture.py`` holds to it).

- ``clock``: ``FakeClock``, an injected clock that moves only when a test moves it.
- ``waiting``: ``until``, wait for a condition instead of sleeping a guessed time.
- ``servers``: real servers per test (the ``make_server``/``server`` fixtures).
- ``games``, ``tables``: checks of a final view, stored games; a table playing.
- ``cluster``: nodes of a cluster, in this process (``cluster``) or as processes
  (``Node``).
- ``processes``, ``config``, ``admin``, ``metrics``: what an operator runs and sees.
- ``screens``, ``pacing``: the terminal client's screens; ``web``, ``pages``: the
  browser client's; ``chromium``: the one Chromium of a test process.
- ``leak_oracle``: random games played through a server, every frame checked against
  what its connection may know.

Real PostgreSQL and Redis (``bench/services.py``) and ``free_port``
(``bench/ports.py``) are the benchmarks' too, so they live in ``bench/``, which never
imports ``tests/``. The raw websockets client of the server tests stays in
``tests/server/wsclient.py`` and the tmux terminals of the client tests in
``tests/client/tmux.py``, beside the tests that use them; the helpers here may use the
first.
"""

from bench.ports import free_port

from .clock import FakeClock
from .waiting import until

__all__ = ["FakeClock", "free_port", "until"]
