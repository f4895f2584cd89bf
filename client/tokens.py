"""Seat tokens on disk, so a restarted client takes its seat back.

A seat token is a secret: anyone holding it can play the seat. Tokens live in one JSON
file, ``tokens.json`` in the user's data directory (``platformdirs.user_data_dir
("kupferkessel")``, or ``$KUPFERKESSEL_DATA_DIR`` when set), readable by the user only
(mode 0600, directory 0700), keyed by server URL and table id. Nothing here prints or
logs a token.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

import platformdirs

__all__ = ["DATA_DIR_ENV", "SavedSeat", "TokenStore", "data_dir"]

DATA_DIR_ENV = "KUPFERKESSEL_DATA_DIR"


def data_dir() -> Path:
    """The client's data directory (``$KUPFERKESSEL_DATA_DIR`` wins)."""
    env = os.environ.get(DATA_DIR_ENV)
    return Path(env) if env else Path(platformdirs.user_data_dir("kupferkessel"))


@dataclass(frozen=True)
class SavedSeat:
    """A seat this user holds on a server (the token itself stays in the store)."""

    url: str
    table: str
    seat: int
    name: str


class TokenStore:
    """The token file. Every method re-reads the file, so several clients (say, two
    terminals) can share it; writes replace it atomically."""

    def __init__(self, directory: Path | str | None = None) -> None:
        self.directory = Path(directory) if directory is not None else data_dir()
        self.path = self.directory / "tokens.json"

    def __repr__(self) -> str:
        return f"TokenStore({str(self.path)!r})"

    def _read(self) -> dict[str, dict[str, dict[str, object]]]:
        try:
            data = json.loads(self.path.read_text("utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def _write(self, data: dict[str, dict[str, dict[str, object]]]) -> None:
        self.directory.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd, tmp = tempfile.mkstemp(dir=self.directory, prefix=".tokens-", suffix=".tmp")
        try:
            os.fchmod(fd, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(data, f)
            os.replace(tmp, self.path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise

    def save(self, url: str, table: str, seat: int, token: str, name: str = "") -> None:
        data = self._read()
        data.setdefault(url, {})[table] = {"seat": seat, "token": token, "name": name}
        self._write(data)

    def token(self, url: str, table: str, name: str | None = None) -> str | None:
        """The token kept for ``table`` on ``url`` (only if saved for player ``name``,
        when given: two players of one user at one table keep their own seats)."""
        entry = self._read().get(url, {}).get(table)
        if not isinstance(entry, dict) or (name is not None and entry.get("name") != name):
            return None
        token = entry.get("token")
        return token if isinstance(token, str) else None

    def forget(self, url: str, table: str) -> None:
        data = self._read()
        if data.get(url, {}).pop(table, None) is not None:
            if not data[url]:
                del data[url]
            self._write(data)

    def seats(self, url: str) -> list[SavedSeat]:
        """The seats saved for ``url`` (without their tokens)."""
        out = []
        for table, entry in self._read().get(url, {}).items():
            if isinstance(entry, dict) and isinstance(entry.get("seat"), int):
                out.append(SavedSeat(url, table, int(entry["seat"]), str(entry.get("name", ""))))  # type: ignore[call-overload]
        return out
