"""Which web pages may open a WebSocket to this server.

A browser sends the ``Origin`` of the page that opens a WebSocket, and lets any page
connect to any address, a LAN server's too: without a check, a page on another site
could use its visitor's browser to sit at a table or flood the server. So a handshake
that carries an ``Origin`` is accepted only from the server's own page (the origin of
the ``Host`` the request names, over http or https) or from an origin the operator
allows (``--allow-origin``). Programs send no ``Origin`` and are never affected.
"""

from __future__ import annotations

from websockets.datastructures import Headers

__all__ = ["origin_refusal"]


def origin_refusal(headers: Headers, allowed: tuple[str, ...] = ()) -> str | None:
    """Why a handshake with these request ``headers`` is refused (None: accepted)."""
    origin = headers.get("Origin")
    if origin is None:
        return None
    origin = origin.strip().rstrip("/").lower()
    if origin in {a.rstrip("/").lower() for a in allowed}:
        return None
    host = (headers.get("Host") or "").strip().lower()
    if host and origin in (f"http://{host}", f"https://{host}"):
        return None
    return (
        f"a page of {origin[:100]} may not connect here: this server takes WebSocket"
        " connections from its own page and from programs (its operator can allow that"
        " origin with --allow-origin)"
    )
