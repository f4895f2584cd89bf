"""Registered players on disk (protocol 1.2): the name and secret of this user's player
on each server, so every later connection signs in by itself.

A secret is like a seat token kept for good: whoever holds it plays as that player. It
is made here (``secrets``, 32 random bytes in base64url), kept in ``players.json`` in
the data directory (mode 0600, beside ``tokens.json``), keyed by server URL, sent only
in ``sign_in`` to that server, and never printed or logged.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass, field
from pathlib import Path

from .tokens import data_dir, write_private

__all__ = ["Account", "AccountStore", "new_secret"]


def new_secret() -> str:
    """A fresh player secret: 32 bytes from the system's secure generator, base64url
    (43 characters, what the protocol asks for)."""
    return secrets.token_urlsafe(32)


@dataclass(frozen=True)
class Account:
    """This user's player on one server."""

    name: str
    secret: str = field(repr=False)  # never in a repr or a traceback


class AccountStore:
    """The players file: one account per server URL. Every method re-reads the file
    (two terminals of one user share it); writes replace it atomically."""

    def __init__(self, directory: Path | str | None = None) -> None:
        self.directory = Path(directory) if directory is not None else data_dir()
        self.path = self.directory / "players.json"

    def __repr__(self) -> str:
        return f"AccountStore({str(self.path)!r})"

    def _read(self) -> dict[str, dict[str, str]]:
        try:
            raw = json.loads(self.path.read_text("utf-8"))
        except (OSError, ValueError):
            return {}
        if not isinstance(raw, dict):
            return {}
        return {
            url: {"name": e["name"], "secret": e["secret"]}
            for url, e in raw.items()
            if isinstance(e, dict)
            and isinstance(e.get("name"), str)
            and isinstance(e.get("secret"), str)
        }

    def get(self, url: str) -> Account | None:
        """The player kept for ``url``, if any."""
        e = self._read().get(url)
        return Account(e["name"], e["secret"]) if e else None

    def save(self, url: str, account: Account) -> None:
        data = self._read()
        data[url] = {"name": account.name, "secret": account.secret}
        write_private(self.path, data)

    def forget(self, url: str) -> None:
        data = self._read()
        if data.pop(url, None) is not None:
            write_private(self.path, data)
