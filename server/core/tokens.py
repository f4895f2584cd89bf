"""Seat tokens: made from ``secrets``, kept only as their hash."""

from __future__ import annotations

import hashlib
import secrets

__all__ = ["hash_token", "new_token"]


def new_token() -> str:
    """A fresh seat token: 192 random bits from ``secrets``."""
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    """Tokens are kept only as their SHA-256 hash, in memory and on disk."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()
