"""Seat tokens on disk, so a restarted client takes its seat back.

A seat token is a secret: anyone holding it can play the seat. Tokens live in one JSON
file, ``tokens.json`` in the user's data directory (``platformdirs.user_data_dir
("kupferkessel")``, or ``$KUPFERKESSEL_DATA_DIR`` when set), readable by the user only
(mode 0600, directory 0700), keyed by server URL, table id and seat, so two clients of
one user (say a host and a player in two terminals) keep their own seats. ``--data-dir``
on the terminal commands sets ``$KUPFERKESSEL_DATA_DIR``. Nothing here prints or logs a
token.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import NotRequired, TypedDict

import platformdirs

__all__ = [
    "DATA_DIR_ENV",
    "KeptEntry",
    "LogStore",
    "SavedSeat",
    "TokenStore",
    "data_dir",
    "use_data_dir",
    "write_private",
]

DATA_DIR_ENV = "KUPFERKESSEL_DATA_DIR"


def data_dir() -> Path:
    """The client's data directory (``$KUPFERKESSEL_DATA_DIR`` wins)."""
    env = os.environ.get(DATA_DIR_ENV)
    return Path(env) if env else Path(platformdirs.user_data_dir("kupferkessel"))


def use_data_dir(directory: str | Path | None) -> None:
    """Make ``directory`` the data directory of this process (``--data-dir``)."""
    if directory is not None:
        os.environ[DATA_DIR_ENV] = str(Path(directory).expanduser().resolve())


def write_private(path: Path, data: object) -> None:
    """Write ``data`` as JSON to ``path``, readable by the user only (file 0600, its
    directory 0700), replacing the file atomically: a secret is never in a file another
    user can read, not even for a moment, and a reader never sees half a file."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}-", suffix=".tmp")
    try:
        os.fchmod(fd, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(data, f)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


@dataclass(frozen=True)
class SavedSeat:
    """A seat this user holds on a server (the token itself stays in the store)."""

    url: str
    table: str
    seat: int
    name: str


class Entry(TypedDict):
    """A seat's entry: its token, the player name it was taken under and (1.4) the last
    state version the client showed of its game, to catch up from when started again."""

    token: str
    name: str
    shown: NotRequired[int]


Data = dict[str, dict[str, dict[str, Entry]]]  # url -> table -> seat -> entry


class TokenStore:
    """The token file. Every method re-reads the file, so several clients (say, two
    terminals of one user, at one table or not) share it: each seat has its own entry,
    keyed by server, table and seat, so one never replaces another. Writes replace the
    file atomically."""

    def __init__(self, directory: Path | str | None = None) -> None:
        self.directory = Path(directory) if directory is not None else data_dir()
        self.path = self.directory / "tokens.json"

    def __repr__(self) -> str:
        return f"TokenStore({str(self.path)!r})"

    def _read(self) -> Data:
        try:
            raw = json.loads(self.path.read_text("utf-8"))
        except (OSError, ValueError):
            return {}
        data: Data = {}
        if not isinstance(raw, dict):
            return data
        for url, tables in raw.items():
            if not isinstance(tables, dict):
                continue
            for table, entry in tables.items():
                if not isinstance(entry, dict):
                    continue
                if "token" in entry:  # the file of an older client: one seat per table
                    entry = {str(entry.get("seat")): entry}
                for seat, e in entry.items():
                    if isinstance(e, dict) and isinstance(e.get("token"), str) and seat.isdigit():
                        name, shown = e.get("name"), e.get("shown")
                        kept: Entry = {
                            "token": e["token"],
                            "name": name if isinstance(name, str) else "",
                        }
                        if type(shown) is int and shown >= 0:
                            kept["shown"] = shown
                        data.setdefault(url, {}).setdefault(table, {})[seat] = kept
        return data

    def _write(self, data: Data) -> None:
        write_private(self.path, data)

    def save(self, url: str, table: str, seat: int, token: str, name: str = "") -> None:
        data = self._read()
        data.setdefault(url, {}).setdefault(table, {})[str(seat)] = {"token": token, "name": name}
        self._write(data)

    def keep_shown(self, url: str, table: str, seat: int, state_version: int) -> None:
        """Keep ``state_version``, the last state the client showed of ``seat``'s game,
        with the seat's token (nothing without a token; never an earlier state)."""
        data = self._read()
        entry = data.get(url, {}).get(table, {}).get(str(seat))
        if entry is not None and entry.get("shown", -1) < state_version:
            entry["shown"] = state_version
            self._write(data)

    def shown(self, url: str, table: str, seat: int) -> int | None:
        """The last state version the client showed of ``seat``'s game (None: not kept,
        by an older client or before the game)."""
        entry = self._read().get(url, {}).get(table, {}).get(str(seat))
        return None if entry is None else entry.get("shown")

    def token(
        self, url: str, table: str, name: str | None = None, seat: int | None = None
    ) -> str | None:
        """The token kept for ``table`` on ``url``: for ``seat`` and for player
        ``name`` when given (the lowest such seat otherwise)."""
        entries = self._read().get(url, {}).get(table, {})
        for s, e in sorted(entries.items(), key=lambda item: int(item[0])):
            if (name is None or e["name"] == name) and (seat is None or int(s) == seat):
                return e["token"]
        return None

    def forget(self, url: str, table: str, seat: int | None = None) -> None:
        """Drop the token of ``seat`` at ``table`` (every seat's, without ``seat``)."""
        data = self._read()
        seats = data.get(url, {}).get(table)
        if not seats:
            return
        if seat is None:
            seats.clear()
        elif seats.pop(str(seat), None) is None:
            return
        if not seats:
            del data[url][table]
        if not data[url]:
            del data[url]
        self._write(data)

    def forget_token(self, url: str, table: str, token: str) -> None:
        """Drop ``token`` (the server refused it), whatever seat it was kept for."""
        entries = self._read().get(url, {}).get(table, {})
        for seat, e in entries.items():
            if e["token"] == token:
                self.forget(url, table, int(seat))

    def seats(self, url: str, table: str | None = None) -> list[SavedSeat]:
        """The seats saved for ``url`` (at ``table``, if given), without their tokens."""
        out = []
        for t, entries in self._read().get(url, {}).items():
            if table is None or t == table:
                out += [SavedSeat(url, t, int(s), e["name"]) for s, e in entries.items()]
        return sorted(out, key=lambda s: (s.table, s.seat))


KeptEntry = tuple[str, int | None, int | None]
"""A kept log entry: its text, the seat whose turn it starts, the seat that decided it."""


class LogStore:
    """The table log a seat may see, kept in ``logs/`` of the data directory per
    server, table and seat, so a client started again shows it instead of an empty
    log. Bounded: ``MAX`` entries per seat; dropped with the game."""

    MAX = 300

    def __init__(self, directory: Path | str | None = None) -> None:
        self.directory = (Path(directory) if directory is not None else data_dir()) / "logs"

    def _path(self, url: str, table: str, seat: int, kind: str = "") -> Path:
        key = hashlib.sha256(f"{url}\n{table}\n{seat}".encode()).hexdigest()[:32]
        return self.directory / f"{key}{kind}.json"

    def _write(self, path: Path, data: object) -> None:
        write_private(path, data)

    def save(self, url: str, table: str, seat: int, entries: list[KeptEntry]) -> None:
        self._write(self._path(url, table, seat), [list(e) for e in entries[-self.MAX :]])

    def save_seen(self, url: str, table: str, seat: int, seen: dict[str, object]) -> None:
        """What the seat last saw of the table (counts, tops, deck, takes), so a client
        started again can say what happened while it was away."""
        self._write(self._path(url, table, seat, ".seen"), seen)

    def load_seen(self, url: str, table: str, seat: int) -> dict[str, object] | None:
        return self._load_dict(self._path(url, table, seat, ".seen"))

    def save_recent(self, url: str, table: str, seat: int, recent: dict[str, object]) -> None:
        """What the other seats did since this seat's last decision (their events and
        notes), so a client started again shows its "since your take" lines."""
        self._write(self._path(url, table, seat, ".recent"), recent)

    def load_recent(self, url: str, table: str, seat: int) -> dict[str, object] | None:
        return self._load_dict(self._path(url, table, seat, ".recent"))

    @staticmethod
    def _load_dict(path: Path) -> dict[str, object] | None:
        try:
            raw = json.loads(path.read_text("utf-8"))
        except (OSError, ValueError):
            return None
        return raw if isinstance(raw, dict) else None

    def load(self, url: str, table: str, seat: int) -> list[KeptEntry]:
        """The kept entries; a file of an older client (text and turn only) reads too."""
        try:
            raw = json.loads(self._path(url, table, seat).read_text("utf-8"))
        except (OSError, ValueError):
            return []
        out: list[KeptEntry] = []
        for item in raw if isinstance(raw, list) else []:
            if isinstance(item, list) and len(item) in (2, 3) and isinstance(item[0], str):
                turn, decided = ((x if isinstance(x, int) else None) for x in [*item[1:], None][:2])
                out.append((item[0], turn, decided))
        return out[-self.MAX :]

    def forget(self, url: str, table: str, seat: int) -> None:
        for kind in ("", ".seen", ".recent"):
            with contextlib.suppress(OSError):
                self._path(url, table, seat, kind).unlink()
