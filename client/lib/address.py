"""Server addresses as a person types them, made into the ``ws://`` URL the client
opens, or refused with one clear sentence.

One home for the rules of an address, so the lobby, the command line and the library
read ``host``, ``host:port`` and ``ws://host:port/`` alike, and a bad one (``http://``,
a port out of range) is told in words instead of a traceback.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from .errors import ClientError

__all__ = ["DEFAULT_PORT", "BadAddress", "normalize_url"]

DEFAULT_PORT = 8765
"""The port of a game server when the address names none (``host`` serves on it)."""

EXAMPLE = "ws://192.168.1.5:8765"


class BadAddress(ClientError, ValueError):
    """An address that is not a game server's; the message says why in a sentence,
    ``reason`` in a code (``empty``, ``bad_port``, ``web_address``, ``not_ws``,
    ``no_host``) for a client that says it in its own words, ``address`` as typed."""

    def __init__(self, message: str, reason: str = "", address: str = "") -> None:
        super().__init__(message)
        self.reason = reason
        self.address = address


def normalize_url(url: str) -> str:
    """``host``, ``host:port`` or ``ws://host:port/`` as ``ws://host:port`` (port
    ``DEFAULT_PORT`` when none is given; ``wss://`` stays). Raises ``BadAddress``."""
    text = url.strip()
    if not text:
        raise BadAddress(f"no address: type one like {EXAMPLE}", "empty")
    if "://" not in text:
        text = "ws://" + text
    typed = url.strip()
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        raise BadAddress(
            f"{typed!r} has a bad port: use a number 1-65535", "bad_port", typed
        ) from None
    scheme = parts.scheme.lower()
    if scheme in ("http", "https"):
        ws = "wss" if scheme == "https" else "ws"
        raise BadAddress(
            f"{typed!r} is a web address; a game server's starts with {ws}:// (like {EXAMPLE})",
            "web_address",
            typed,
        )
    if scheme not in ("ws", "wss"):
        raise BadAddress(
            f"{typed!r} is not a game server address (like {EXAMPLE})", "not_ws", typed
        )
    host = parts.hostname
    if not host or any(c.isspace() for c in text):
        raise BadAddress(f"{typed!r} names no server: type one like {EXAMPLE}", "no_host", typed)
    if port == 0:
        raise BadAddress(f"{typed!r} has a bad port: use a number 1-65535", "bad_port", typed)
    netloc = parts.netloc.rsplit("@", 1)[-1]
    if port is None and scheme == "ws":  # wss: the TLS port, 443
        netloc = f"{netloc.rstrip(':')}:{DEFAULT_PORT}"
    path = parts.path.rstrip("/")
    return f"{scheme}://{netloc}{path}"
