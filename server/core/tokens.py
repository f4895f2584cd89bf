"""Seat tokens: made from ``secrets``, kept only as their hash."""

from __future__ import annotations

import hashlib
import secrets

__all__ = ["hash_token", "invite_admits", "new_token"]


def new_token() -> str:
    """A fresh seat token: 192 random bits from ``secrets``."""
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    """Tokens are kept only as their SHA-256 hash, in memory and on disk."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def invite_admits(private: bool, invite_hash: str | None, code: str | None) -> bool:
    """Whether the invite ``code`` lets one join or watch a table (any code will do at a
    public one), compared in constant time."""
    if not private:
        return True
    return code is not None and secrets.compare_digest(hash_token(code), invite_hash or "")
