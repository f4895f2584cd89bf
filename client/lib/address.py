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
    """An address that is not a game server's; the message says why in a sentence."""


def normalize_url(url: str) -> str:
    """``host``, ``host:port`` or ``ws://host:port/`` as ``ws://host:port`` (port
    ``DEFAULT_PORT`` when none is given; ``wss://`` stays). Raises ``BadAddress``."""
    text = url.strip()
    if not text:
        raise BadAddress(f"no address: type one like {EXAMPLE}")
    if "://" not in text:
        text = "ws://" + text
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        raise BadAddress(f"{url.strip()!r} has a bad port: use a number 1-65535") from None
    scheme = parts.scheme.lower()
    if scheme in ("http", "https"):
        ws = "wss" if scheme == "https" else "ws"
        raise BadAddress(
            f"{url.strip()!r} is a web address; a game server's starts with {ws}:// "
            f"(like {EXAMPLE})"
        )
    if scheme not in ("ws", "wss"):
        raise BadAddress(f"{url.strip()!r} is not a game server address (like {EXAMPLE})")
    host = parts.hostname
    if not host or any(c.isspace() for c in text):
        raise BadAddress(f"{url.strip()!r} names no server: type one like {EXAMPLE}")
    if port == 0:
        raise BadAddress(f"{url.strip()!r} has a bad port: use a number 1-65535")
    netloc = parts.netloc.rsplit("@", 1)[-1]
    if port is None and scheme == "ws":  # wss: the TLS port, 443
        netloc = f"{netloc.rstrip(':')}:{DEFAULT_PORT}"
    path = parts.path.rstrip("/")
    return f"{scheme}://{netloc}{path}"
