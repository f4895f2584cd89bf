"""Free TCP ports on loopback, for servers a test starts as processes.

A port found free may be taken by another program before the server binds it (the
machine is shared, tests run in parallel): whoever starts a server on it must check
that the server answering is its own and start again on another port if not (see
``services.Redis.start`` and ``cluster.Node.start``).
"""

from __future__ import annotations

import socket

__all__ = ["free_port"]


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listened on a moment ago."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port
