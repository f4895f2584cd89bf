"""The admin endpoint: a running server's operator lists its tables and players, closes
a table with a result, mutes and bans, through a unix socket in its data directory.

Theory of operation. ``Admin`` listens on a unix socket (``ServerConfig.admin_socket``,
mode ``0600``: only the server's own user, and root, may connect; on Linux the peer's
uid is checked too). Each connection carries one request, a JSON object on one line
(``{"action": "tables"}``), and gets one answer line (``{"ok": true, ...}`` or
``{"ok": false, "error": CODE, "message": ...}``), then closes. ``ACTIONS`` is the table
of what may be asked. Every action that changes something is stored first (a table's
end through its own ending path, ``Table.close``; a sanction through the store) and
logged as one JSON line (``kupferkessel.admin``, message ``admin``). On a node of a
cluster the endpoint covers the cluster through ``ClusterAdmin`` (the node's
``ClusterOperator``): ``tables`` and ``players`` gather every node's list (``listing``
at each), and ``close`` of a table another node serves is done by that node.

Why a unix socket, not the game's port: the WebSocket port's HTTP answers only ``GET``
requests without bodies, and "loopback only" means nothing behind a reverse proxy on
the same machine (every request arrives from 127.0.0.1); a socket file is reachable by
nobody from the network, and the operating system's file permissions decide who may
use it, with no token to keep or leak.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import pwd
import socket
import stat
import struct
from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from ..core.errors import TableError
from ..core.table import Table
from ..lobby.registry import Lobby
from ..net.session import Session
from ..net.states import Phase
from ..store import Sanction
from .moderation import Moderation, until_text

__all__ = [
    "ACTIONS",
    "MAX_REQUEST",
    "Admin",
    "AdminError",
    "ClusterAdmin",
    "listing",
    "sanction_dict",
]

log = logging.getLogger("kupferkessel.admin")

MAX_REQUEST = 64 * 1024
"""Bytes a request line may have."""
REQUEST_TIMEOUT = 10.0
"""Seconds a client has to send its request line."""
MAX_CLIENTS = 8
"""Admin connections served at once (more wait for their turn)."""


class AdminError(Exception):
    """A request the endpoint refuses: a stable ``code`` and a human ``message``."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def sanction_dict(s: Sanction) -> dict[str, Any]:
    return {
        "id": s.id,
        "kind": s.kind,
        "target": s.target,
        "value": s.value,
        "since": s.since,
        "until": s.until,
        "reason": s.reason,
        "ends": until_text(s),
        "by": s.actor,
    }


class ClusterAdmin(Protocol):
    """What the admin endpoint of a node of a cluster asks of the cluster (the node's
    ``ClusterOperator``)."""

    node: str

    async def ask_others(self, action: str) -> tuple[dict[str, list[Any]], list[str]]:
        """Every other node's ``action`` list (``tables``, ``players``), and the
        nodes that did not answer."""
        ...

    async def close_elsewhere(
        self, table_id: str, resign: int | None
    ) -> tuple[str, str, list[int]] | None:
        """Close a table another node serves (``resign``: a seat that resigns), through
        that node: its id, the ending and the winners; None if no node serves it now."""
        ...

    async def enforce_elsewhere(self, sanction_id: str) -> tuple[dict[str, int], list[str]]:
        """Every other node reads the sanctions again at once and a ban ``sanction_id``
        closes the connections there it concerns: the connections each node closed,
        and the nodes that did not answer."""
        ...


def listing(action: str, lobby: Lobby, sessions: Collection[Session]) -> list[dict[str, Any]]:
    """This server's ``tables`` or ``players`` as the operator reads them."""
    if action == "tables":
        return [_table_dict(t) for t in list(lobby.tables.values())]
    return [_player_dict(s) for s in list(sessions)]


def _table_dict(t: Table) -> dict[str, Any]:
    seats = [
        {"seat": s.index, "name": s.name, "bot": s.bot, "connected": s.occupant is not None}
        for s in t.seats
    ]
    return {
        "id": t.id,
        "name": t.name,
        "state": t.state,
        "private": t.private,
        "players": t.options.players,
        "version": t.version,
        "seats": seats,
        "spectators": t.spectator_count,
        "made_by": t.made_by,
        "ended": t.finish_reason,
    }


def _player_dict(s: Session) -> dict[str, Any]:
    table = s.table
    return {
        "name": s.name,
        "address": s.address,
        "peer": s.peer,
        "protocol": None if s.phase is Phase.CONNECTED else f"1.{s.minor}",
        "state": s.phase.value,
        "table": None if table is None else table.id,
        "seat": None if table is None else table.seat_of(s),
    }


class Admin:
    """The endpoint of one server: its lobby, its sessions and its moderation."""

    def __init__(
        self,
        path: Path,
        lobby: Lobby,
        sessions: Collection[Session],
        moderation: Moderation,
        cluster: ClusterAdmin | None = None,  # a node's: the others list and close too
    ) -> None:
        self.path = path
        self.lobby = lobby
        self.sessions = sessions
        self.moderation = moderation
        self.cluster = cluster
        self._server: asyncio.AbstractServer | None = None
        self._turns = asyncio.Semaphore(MAX_CLIENTS)

    async def start(self) -> None:
        """Listen on ``path``. A socket file left by a server that died is replaced;
        ``OSError`` if a server answers there, or the path is something else."""
        path = self.path
        if path.exists() or path.is_symlink():
            if not stat.S_ISSOCK(path.lstat().st_mode):
                raise OSError(f"{path} exists and is not a socket: choose another --admin-socket")
            if await _answers(path):
                raise OSError(f"another server answers at {path}")
            path.unlink()
        path.parent.mkdir(parents=True, exist_ok=True)
        self._server = await asyncio.start_unix_server(self._serve, path, limit=MAX_REQUEST)
        os.chmod(path, 0o600)
        log.info("admin socket", extra={"path": str(path)})

    async def stop(self) -> None:
        if self._server is None:
            return
        self._server.close()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._server.wait_closed(), 5)
        self._server = None
        with contextlib.suppress(OSError):
            self.path.unlink()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            async with self._turns:
                answer = await self._answer(reader, writer)
                writer.write(json.dumps(answer).encode() + b"\n")
                await writer.drain()
        except (ConnectionError, TimeoutError):
            pass
        finally:
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()

    async def _answer(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> dict[str, Any]:
        try:
            peer = _peer(writer)
            if peer is not None and peer.uid not in (0, os.geteuid()):
                log.warning("admin refused", extra={"by": peer.text})
                raise AdminError("not_allowed", "only the server's own user (or root) may")
            try:
                line = await asyncio.wait_for(reader.readline(), REQUEST_TIMEOUT)
            except ValueError as e:  # over the limit
                raise AdminError(
                    "too_large", f"a request is one line of {MAX_REQUEST} bytes"
                ) from e
            try:
                request = json.loads(line)
            except ValueError as e:
                raise AdminError("malformed", "a request is one JSON object on one line") from e
            if not isinstance(request, dict) or not isinstance(request.get("action"), str):
                raise AdminError("malformed", 'a request is {"action": NAME, ...}')
            by = "?" if peer is None else peer.text
            return {"ok": True, **await self.handle(request, by)}
        except AdminError as e:
            return {"ok": False, "error": e.code, "message": e.message}
        except TableError as e:
            return {"ok": False, "error": e.code, "message": e.message}
        except Exception:
            log.exception("admin request failed")
            return {"ok": False, "error": "internal", "message": "the server failed: see its log"}

    async def handle(self, request: dict[str, Any], by: str = "?") -> dict[str, Any]:
        """Run one request (``{"action": NAME, ...}``) asked by ``by`` (the socket's
        peer, ``Peer.text``) and return its answer's fields."""
        action = ACTIONS.get(request["action"])
        if action is None:
            raise AdminError("unknown_action", f"actions: {', '.join(sorted(ACTIONS))}")
        return await action(self, request | {"by": by})

    # ------------------------------------------------------------------ actions
    async def tables(self, request: dict[str, Any]) -> dict[str, Any]:
        return await self._listed("tables")

    async def players(self, request: dict[str, Any]) -> dict[str, Any]:
        return await self._listed("players")

    async def _listed(self, action: str) -> dict[str, Any]:
        """This server's list; on a cluster every node's, each entry with its
        ``node``, and the nodes that did not answer (``unanswered``)."""
        own = listing(action, self.lobby, self.sessions)
        if self.cluster is None:
            return {action: own}
        lists, unanswered = await self.cluster.ask_others(action)
        lists[self.cluster.node] = own
        merged = [item | {"node": node} for node in sorted(lists) for item in lists[node]]
        return {action: merged, "unanswered": unanswered}

    async def close(self, request: dict[str, Any]) -> dict[str, Any]:
        table_id = _text(request, "table")
        seat = request.get("resign")
        if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)):
            raise AdminError("invalid_field", "resign: a seat number")
        table = self.lobby.tables.get(table_id)
        node = None  # the node that served it, if another node of the cluster
        if table is not None:
            ending, winners = await table.end_by_operator(seat)
        else:
            cluster = self.cluster
            closed = None if cluster is None else await cluster.close_elsewhere(table_id, seat)
            if closed is None:
                raise AdminError("no_such_table", f"no table {table_id} is served now")
            node, ending, winners = closed
        log.info(
            "admin",
            extra={
                "action": "close",
                "table": table_id,
                "ending": ending,
                "resigned": seat,
                "node": node,
                "by": request["by"],
            },
        )
        answer: dict[str, Any] = {"table": table_id, "ending": ending, "winners": winners}
        return answer if node is None else answer | {"node": node}

    async def sanction(self, kind: str, request: dict[str, Any]) -> dict[str, Any]:
        name, address = request.get("name"), request.get("address")
        if (name is None) == (address is None):
            raise AdminError("invalid_field", f"{kind} a name or an address (one of them)")
        target, value = ("name", name) if name is not None else ("address", address)
        if not isinstance(value, str) or not value.strip() or len(value) > 200:
            raise AdminError("invalid_field", f"{target}: a non-empty string")
        seconds = request.get("seconds")
        if seconds is not None and (
            isinstance(seconds, bool) or not isinstance(seconds, int | float) or seconds <= 0
        ):
            raise AdminError("invalid_field", "seconds: more than 0 (or absent: until lifted)")
        reason = request.get("reason") or ""
        if not isinstance(reason, str) or len(reason) > 500:
            raise AdminError("invalid_field", "reason: a string of 500 characters at most")
        try:
            s = await self.moderation.add(kind, target, value, seconds, reason, request["by"])
        except ValueError as e:
            raise AdminError("invalid_field", f"{target}: {e}") from None
        closed = self.moderation.enforce(s, self.sessions)
        nodes, unanswered = await self._elsewhere(s.id, closed)
        closed = sum(nodes.values())
        log.info(
            "admin",
            extra={
                "action": kind,
                "target": target,
                "value": s.value,
                "sanction": s.id,
                "until": s.until,
                "reason": reason,
                "closed": closed,
                "by": s.actor,
            }
            | ({"nodes": nodes, "unanswered": unanswered} if self.cluster is not None else {}),
        )
        answer = {"sanction": sanction_dict(s), "closed": closed}
        if self.cluster is None:
            return answer
        return answer | {"nodes": nodes, "unanswered": unanswered}

    async def _elsewhere(self, sanction_id: str, closed: int) -> tuple[dict[str, int], list[str]]:
        """On a cluster, every other node takes the new (or lifted) sanction at once:
        the connections each node closed (this one's ``closed`` among them), and the
        nodes that did not answer."""
        if self.cluster is None:
            return {"": closed}, []
        nodes, unanswered = await self.cluster.enforce_elsewhere(sanction_id)
        return nodes | {self.cluster.node: closed}, unanswered

    async def mute(self, request: dict[str, Any]) -> dict[str, Any]:
        return await self.sanction("mute", request)

    async def ban(self, request: dict[str, Any]) -> dict[str, Any]:
        return await self.sanction("ban", request)

    async def lift(self, request: dict[str, Any]) -> dict[str, Any]:
        sanction_id = _text(request, "id")
        s = await self.moderation.lift(sanction_id)
        if s is None:
            raise AdminError("no_such_sanction", f"no sanction {sanction_id} is in force")
        _, unanswered = await self._elsewhere(s.id, 0)
        log.info(
            "admin",
            extra={"action": "lift", "sanction": s.id, "kind": s.kind, "by": request["by"]},
        )
        answer = {"lifted": sanction_dict(s)}
        return answer if self.cluster is None else answer | {"unanswered": unanswered}

    async def sanctions(self, request: dict[str, Any]) -> dict[str, Any]:
        return {"sanctions": [sanction_dict(s) for s in self.moderation.in_force()]}


Action = Callable[[Admin, dict[str, Any]], Awaitable[dict[str, Any]]]
ACTIONS: dict[str, Action] = {
    "tables": Admin.tables,
    "players": Admin.players,
    "close": Admin.close,
    "mute": Admin.mute,
    "ban": Admin.ban,
    "lift": Admin.lift,
    "sanctions": Admin.sanctions,
}
"""What an operator may ask: the action's name -> its method."""


def _text(request: dict[str, Any], key: str) -> str:
    value = request.get(key)
    if not isinstance(value, str) or not value or len(value) > 200:
        raise AdminError("invalid_field", f"{key}: a non-empty string")
    return value


@dataclass(frozen=True)
class Peer:
    """The process at the other end of an admin connection (``SO_PEERCRED``)."""

    pid: int
    uid: int
    gid: int

    @property
    def text(self) -> str:
        """Who acted, as the audit lines and the stored sanctions name it:
        ``alice (uid 1000, pid 4242)``."""
        try:
            user = pwd.getpwuid(self.uid).pw_name
        except KeyError:  # a uid without a name
            user = "?"
        return f"{user} (uid {self.uid}, pid {self.pid})"


def _peer(writer: asyncio.StreamWriter) -> Peer | None:
    """On Linux, the connecting process (``SO_PEERCRED``: its pid, uid and gid); None
    elsewhere (the socket file's mode alone decides who may connect)."""
    sock = writer.get_extra_info("socket")
    peercred = getattr(socket, "SO_PEERCRED", None)
    if sock is None or peercred is None:
        return None
    creds = sock.getsockopt(socket.SOL_SOCKET, peercred, struct.calcsize("3i"))
    return Peer(*struct.unpack("3i", creds))


async def _answers(path: Path) -> bool:
    """Whether a server listens on the unix socket ``path``."""
    try:
        _, writer = await asyncio.wait_for(asyncio.open_unix_connection(path), 2)
    except (OSError, TimeoutError):
        return False
    writer.close()
    return True
