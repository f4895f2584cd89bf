"""Free TCP ports on loopback, for servers a test starts as processes.

A port found free may be taken by another program before the server binds it (the
machine is shared, tests run in parallel): whoever starts a server on it must check
that the server answering is its own and start again on another port if not (see
``services.Redis.start`` and ``cluster.Node.start``).

The ports come from below the kernel's ephemeral range: a port the kernel hands out
(``bind`` to port 0) is from the same range as the local ports of outgoing
connections, and with hundreds of test clients connecting at once one of them could
take it between this check and the server's own ``bind``.
"""

from __future__ import annotations

import random
import socket
from pathlib import Path

__all__ = ["free_port"]

_LOWEST = 20_000
_PICK = random.SystemRandom()  # not the global generator, which a test may seed
_RANGE = Path("/proc/sys/net/ipv4/ip_local_port_range")


def _ephemeral_start() -> int:
    try:
        return int(_RANGE.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32_768  # Linux's default


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listened on a moment ago, below the
    ephemeral range where it can (else one the kernel picks)."""
    top = _ephemeral_start()
    if top - _LOWEST >= 1000:
        for port in _PICK.sample(range(_LOWEST, top), 50):
            with socket.socket() as s:
                try:
                    s.bind(("127.0.0.1", port))
                except OSError:
                    continue
                return port
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        found: int = s.getsockname()[1]
        return found
