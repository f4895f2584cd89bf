"""A server inside a client's process: the one ``kupferkessel play`` and ``host`` start.

Why: those commands start a local server and show a little of it (its port, its
version, how many public tables wait for players). They do it through this narrow
entry and never through the server's parts, so the composition root, the lobby and the
store stay the server's to change; an import-linter contract in ``pyproject.toml``
holds the client to it.
"""

from __future__ import annotations

from pathlib import Path

from .app import SERVER_VERSION, Server
from .config import ServerConfig
from .core.table import LOBBY
from .store import MemoryStore, SqliteStore, Store, StoreInUse, default_db_path

__all__ = ["EmbeddedServer", "StoreInUse", "default_db_path"]


class EmbeddedServer:
    """A server running in this process: ``start`` it, read its ``port``, its
    ``version`` and ``open_tables``, ``stop`` it."""

    version = SERVER_VERSION
    """The build's version, which the server tells its clients (and a LAN
    announcement carries)."""

    def __init__(self, server: Server) -> None:
        self._server = server

    @classmethod
    async def start(
        cls,
        name: str,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        db: str | Path | None = None,
        web: bool = True,
    ) -> EmbeddedServer:
        """Serve as ``name`` on ``host``:``port`` (0: any free port), keeping the games
        in the SQLite database ``db`` (its games restored at start; ``StoreInUse`` while
        another server holds it) or, with none, in memory only; ``web``: answer browsers
        with the web client. ``OSError`` when the port cannot be bound."""
        store: Store = MemoryStore() if db is None else SqliteStore(db)
        server = Server(ServerConfig(host=host, port=port, name=name, web=web), store)
        await server.start()
        return cls(server)

    @property
    def port(self) -> int:
        """The port it listens on (the one given, or the free one found for 0)."""
        return self._server.port

    def open_tables(self) -> int:
        """Public tables waiting for players, as a listing shows them."""
        return sum(1 for t in self._server.lobby.listing() if t.state == LOBBY)

    async def stop(self) -> None:
        """Stop accepting, close every client (1001: going away), flush and close the
        store."""
        await self._server.stop()
