"""Player secrets kept as slow hashes, and one-time device codes.

Why: the store must never hold what signs a player in. A secret is made by the client
(32 random bytes or more), so even a fast hash would resist guessing; a slow one
(scrypt, the standard library's, with a salt per secret) costs an attacker who stole
the database far more per guess still, in case a client makes weaker secrets, and its
parameters are stored in each hash so that they can be raised later. Device codes are
short (a person types them) and live for minutes, once: they are kept in memory only,
hashed too.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import time
from collections.abc import Callable

__all__ = [
    "CODE_ALPHABET",
    "CODE_TTL",
    "DeviceCodes",
    "hash_secret",
    "new_secret",
    "normalize_code",
    "verify_secret",
]

SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**14, 8, 1
"""scrypt's cost: 16 MiB and some 50 ms per hash on a small machine."""
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTVWXYZ"
"""Letters and digits a person cannot mistake for one another (no 0/O, 1/I/L, U)."""
CODE_TTL = 300.0
"""Seconds a device code stays valid."""


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def hash_secret(secret: str) -> str:
    """``scrypt$N$r$p$salt$hash`` of ``secret`` with a fresh random salt."""
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(
        secret.encode(), salt=salt, n=SCRYPT_N, r=SCRYPT_R, p=SCRYPT_P, dklen=32
    )
    return f"scrypt${SCRYPT_N}${SCRYPT_R}${SCRYPT_P}${_b64(salt)}${_b64(digest)}"


def verify_secret(secret: str, stored: str) -> bool:
    """Whether ``secret`` is the one ``stored`` (a ``hash_secret``) was made of."""
    try:
        kind, n, r, p, salt, digest = stored.split("$")
        if kind != "scrypt":
            return False
        got = hashlib.scrypt(
            secret.encode(), salt=_unb64(salt), n=int(n), r=int(r), p=int(p), dklen=32
        )
    except ValueError:
        return False
    return hmac.compare_digest(got, _unb64(digest))


def new_secret() -> str:
    """A secret the server makes for a new device (43 characters of base64url)."""
    return secrets.token_urlsafe(32)


def normalize_code(code: str) -> str:
    """A code as typed (either case, with or without its dash) as issued."""
    plain = code.replace("-", "").upper()
    return f"{plain[:4]}-{plain[4:]}"


def _code_hash(code: str) -> str:
    return hashlib.sha256(normalize_code(code).encode()).hexdigest()


class DeviceCodes:
    """The device codes issued and not yet used or expired: at most one per player
    (a new one replaces the old), each redeemable once before ``CODE_TTL``."""

    def __init__(self, ttl: float = CODE_TTL, now: Callable[[], float] = time.monotonic) -> None:
        self.ttl = ttl
        self._now = now
        self._codes: dict[str, tuple[str, float]] = {}  # code hash -> (player id, expiry)
        self._of: dict[str, str] = {}  # player id -> its code's hash

    def issue(self, player_id: str) -> str:
        """A new code for the player (its previous one stops working)."""
        self._sweep()
        old = self._of.pop(player_id, None)
        if old is not None:
            self._codes.pop(old, None)
        plain = "".join(secrets.choice(CODE_ALPHABET) for _ in range(8))
        code = normalize_code(plain)
        h = _code_hash(code)
        self._codes[h] = (player_id, self._now() + self.ttl)
        self._of[player_id] = h
        return code

    def redeem(self, code: str) -> str | None:
        """The player id of a valid code, which stops working; None otherwise."""
        self._sweep()
        entry = self._codes.pop(_code_hash(code), None)
        if entry is None:
            return None
        self._of.pop(entry[0], None)
        return entry[0]

    def _sweep(self) -> None:
        now = self._now()
        for h, (pid, expiry) in list(self._codes.items()):
            if expiry <= now:
                del self._codes[h]
                self._of.pop(pid, None)

    def __len__(self) -> int:
        return len(self._codes)
