"""Player secrets kept as slow hashes, and one-time device codes.

Why: the store must never hold what signs a player in. A secret is made by the client
(32 random bytes or more), so even a fast hash would resist guessing; a slow one
(scrypt, the standard library's, with a salt per secret) costs an attacker who stole
the database far more per guess still, in case a client makes weaker secrets, and its
parameters are stored in each hash so that they can be raised later. Device codes are
short (a person types them) and live for minutes, once: the store keeps only their
hashes, slow ones too (scrypt with a fixed salt, so that a code is found by its hash):
40 bits are few, and a fast hash of them would be guessed from a stolen database
well within a code's five minutes.

A sign-in hashes once: each kept hash has beside it the secret's ``secret_tag``, one
byte of a fast hash of the secret, unique among the player's few secrets, which finds
the one hash to check. A byte tells a thief of the database next to nothing (1 guess in
256 passes it), while the slow hash still decides.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import time
from collections.abc import Callable

from ..store.players import PlayerStore
from .hashing import Hasher, Requester

__all__ = [
    "CODE_ALPHABET",
    "CODE_SALT",
    "CODE_TTL",
    "NO_SECRET",
    "DeviceCodes",
    "code_hash",
    "hash_secret",
    "new_secret",
    "normalize_code",
    "secret_tag",
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


def secret_tag(secret: str) -> int:
    """The tag a secret's hash is kept beside (0-255): finds it among the player's."""
    return hashlib.sha256(b"kupferkessel secret tag\0" + secret.encode()).digest()[0]


NO_SECRET = f"scrypt${SCRYPT_N}${SCRYPT_R}${SCRYPT_P}${_b64(bytes(16))}${_b64(bytes(32))}"
"""A hash no secret has (its digest is zeros): what a sign-in that finds no hash checks,
at the cost of any other."""


def new_secret() -> str:
    """A secret the server makes for a new device (43 characters of base64url)."""
    return secrets.token_urlsafe(32)


def normalize_code(code: str) -> str:
    """A code as typed (either case, with or without its dash) as issued."""
    plain = code.replace("-", "").upper()
    return f"{plain[:4]}-{plain[4:]}"


CODE_SALT = b"kupferkessel device code"
"""The salt of every code's hash: fixed, so that the store finds a code by its hash."""


def code_hash(code: str) -> str:
    """The hash a device code is kept under (scrypt, as costly as a secret's)."""
    digest = hashlib.scrypt(
        normalize_code(code).encode(), salt=CODE_SALT, n=SCRYPT_N, r=SCRYPT_R, p=SCRYPT_P, dklen=32
    )
    return _b64(digest)


class DeviceCodes:
    """One-time device codes, kept hashed in the store (``PlayerStore``) so that any
    node of a cluster, or the server after a restart, redeems a code another showed:
    at most one per player (a new one replaces the old), each redeemable once, for
    ``ttl`` seconds of the wall clock (``now``: every node's is the same time)."""

    def __init__(
        self,
        store: PlayerStore,
        ttl: float = CODE_TTL,
        now: Callable[[], float] = time.time,
        hasher: Hasher | None = None,
    ) -> None:
        self.store = store
        self.ttl = ttl
        self._now = now
        self.hasher = hasher or Hasher()

    async def issue(self, player_id: str, who: Requester | None = None) -> str:
        """A new code for the player (its previous one stops working)."""
        code = normalize_code("".join(secrets.choice(CODE_ALPHABET) for _ in range(8)))
        hashed = await self.hasher.run(lambda: code_hash(code), who)
        now = self._now()
        await self.store.add_device_code(hashed, player_id, now + self.ttl, now)
        return code

    async def redeem(self, code: str, who: Requester | None = None) -> str | None:
        """The player id of a valid code, which stops working; None otherwise."""
        hashed = await self.hasher.run(lambda: code_hash(code), who)
        return await self.store.redeem_device_code(hashed, self._now())
