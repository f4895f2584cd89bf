"""Who is at the other end of a connection: its address, the address the quotas count
by, and whether it is this machine.

Why: the session, the guard, the metrics and the moderation all ask these questions;
one place answers them (and a reverse proxy on this machine is trusted in one way only).
"""

from __future__ import annotations

from websockets.asyncio.server import ServerConnection

__all__ = ["LOOPBACK", "client_address", "is_loopback", "peer_of"]

LOOPBACK = ("127.", "::1", "::ffff:127.")
"""How the addresses of this machine's loopback interface begin."""


def is_loopback(host: str) -> bool:
    """Whether ``host`` (an address, no port) is this machine's loopback."""
    return host.startswith(LOOPBACK)


def client_address(ws: ServerConnection, peer: str, trust_forwarded: bool) -> str:
    """The address the per-address quotas count by: the peer's, or, behind a reverse
    proxy on this machine (``trust_forwarded`` and a loopback peer), the last address
    of the request's ``X-Forwarded-For`` (the one the proxy saw)."""
    host = peer.rsplit(":", 1)[0]
    if trust_forwarded and is_loopback(host) and ws.request is not None:
        forwarded = ",".join(ws.request.headers.get_all("X-Forwarded-For"))
        if forwarded:
            last = forwarded.split(",")[-1].strip()
            if last:
                return last[:64]
    return host


def peer_of(ws: ServerConnection) -> str:
    """The connection's "host:port", or "?" once it is gone."""
    try:
        addr = ws.remote_address
        return f"{addr[0]}:{addr[1]}"
    except Exception:
        return "?"
