"""Server addresses as a person types them, made into the ``ws://`` URL the client
opens.

One home for the rules of an address, so the lobby, the command line and the library
read ``host``, ``host:port`` and ``ws://host:port/`` alike.
"""

from __future__ import annotations

__all__ = ["normalize_url"]


def normalize_url(url: str) -> str:
    """``host:port`` or ``ws://host:port/`` as ``ws://host:port``."""
    url = url.strip()
    if "://" not in url:
        url = "ws://" + url
    return url.rstrip("/")
