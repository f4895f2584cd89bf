"""What an HTTP request must be before anything here serves it: each header the server
reads as one value given once, and a ``Host`` this server answers to.

Why: a browser lets a page of any site reach a LAN server through a name of the
attacker's that resolves to the server's address (DNS rebinding): the page is then
"the server's own" by the ``Origin`` check (``net.origins``), which compares the
``Origin`` with the ``Host``. So every request (the page, ``/healthz``, ``/metrics``,
a WebSocket handshake) must name a host the server answers to: an IP address (a
browser that names an address reached that address, no rebinding there), a loopback
name (``localhost``, ``*.localhost``), the name it listens on, or a name the operator
allows (``--allow-host``; ``*`` allows every name). Two requests come from programs,
never from a browser, and are served whatever name they give: one without ``Host``, and
a WebSocket handshake without ``Origin`` (a browser always sends one), so a terminal
client or a bot may reach the server by any name.
"""

from __future__ import annotations

import ipaddress

from websockets.datastructures import Headers

__all__ = ["SINGLE_HEADERS", "duplicate_refusal", "host_of", "host_refusal"]

SINGLE_HEADERS = (
    "Host",
    "Origin",
    "Upgrade",
    "Authorization",
    "Sec-WebSocket-Key",
    "Sec-WebSocket-Version",
    "Content-Length",
)
"""Headers read as one value: a request that gives one of them twice is refused (400)."""


def duplicate_refusal(headers: Headers) -> str | None:
    """Why a request with these ``headers`` is refused for a header given twice."""
    for name in SINGLE_HEADERS:
        if len(headers.get_all(name)) > 1:
            return f"bad request: the {name} header is given more than once"
    return None


def host_of(value: str) -> str:
    """The host a ``Host`` header (or an ``--allow-host`` entry) names: lower case,
    without its port, its IPv6 brackets or a final dot."""
    value = value.strip().lower()
    if value.startswith("["):  # [::1]:8765
        return value[1:].split("]", 1)[0]
    if value.count(":") == 1:  # name:port, 1.2.3.4:port
        value = value.split(":", 1)[0]
    return value.rstrip(".")


def _is_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def host_refusal(headers: Headers, allowed: tuple[str, ...], listening: str) -> str | None:
    """Why a request with these ``headers`` is refused for its ``Host`` (None: served).
    ``allowed``: the operator's names (``--allow-host``); ``listening``: the address
    or name the server listens on."""
    given = headers.get("Host")
    if given is None:
        return None
    if headers.get("Upgrade", "").lower() == "websocket" and "Origin" not in headers:
        return None  # a program's handshake
    host = host_of(given)
    names = {host_of(a) for a in allowed} | {host_of(listening)}
    if (
        "*" in names
        or host in names
        or _is_address(host)
        or host == "localhost"
        or host.endswith(".localhost")
    ):
        return None
    return (
        f"this server does not answer to the name {host[:100]!r}: it answers to its"
        " addresses, localhost and the names its operator allows (--allow-host)"
    )
