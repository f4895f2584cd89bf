"""The connections of one server before and beside their sessions: TCP accounting and
the bounds every connection is held to from its first byte.

Every accepted socket becomes a ``CountedConnection`` (the ``websockets`` library's
documented ``create_connection`` hook) handed the server's ``Guard``: connections are
bounded from their accept on, not only once they are sessions (a silent or slow
handshake holds a file descriptor too); incoming bytes are rate-limited per address
before the library parses them (a ping flood costs nothing); unread output is bounded
whatever filled it; and a handshake whose client sends data before the answer is held
so that it can still be answered.
"""

from __future__ import annotations

import asyncio
import logging
import socket
from collections import OrderedDict

from websockets.asyncio.server import ServerConnection
from websockets.protocol import State

from ..config import ServerConfig
from ..logs import peer_fields
from .ratelimit import TokenBucket

__all__ = ["INFLOW_HOSTS", "CountedConnection", "Guard"]

log = logging.getLogger("kupferkessel.server")

INFLOW_HOSTS = 65_536
"""Addresses whose incoming byte allowance is remembered (``Guard.inflow``)."""


class Guard:
    """The server's TCP connections: how many are open, which wait for their request,
    each address's incoming allowance, and how many were refused or dropped."""

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.tcp_open = 0  # TCP connections accepted and not yet lost (handshakes included)
        self.tcp_refused = 0  # connections dropped: over max_connections + max_handshakes
        self.unread_drops = 0  # connections dropped: unread output over max_output
        self.flood_drops = 0  # connections dropped: incoming bytes over their rate
        self._inflow: OrderedDict[str, TokenBucket] = OrderedDict()  # see inflow()
        # connections whose HTTP request has not arrived yet, oldest first
        self._waiting: dict[CountedConnection, None] = {}

    def connection_class(self) -> type[ServerConnection]:
        """``CountedConnection`` bound to this guard (for ``serve``'s hook)."""
        return type("CountedConnection", (CountedConnection,), {"guard": self})

    def tcp_opened(self, connection: CountedConnection) -> bool:
        """Count a new TCP connection. Every connection holds a file descriptor from its
        accept on, long before its handshake ends, so connections are bounded here, not
        only once they are sessions: past ``max_connections`` plus ``max_handshakes``
        the connection that has waited longest for its request to arrive is dropped
        to make room (slow or silent handshakes cannot lock everyone out, ``/healthz``
        included); with none waiting, the new one is dropped."""
        if self.tcp_open >= self.config.max_connections + self.config.max_handshakes:
            self.tcp_refused += 1
            if not self._waiting:
                return False
            oldest = next(iter(self._waiting))
            oldest.drop()
        self.tcp_open += 1
        self._waiting[connection] = None
        return True

    def inflow(self, host: str) -> TokenBucket:
        """The incoming byte allowance of address ``host``, shared by its connections
        (the ``INFLOW_HOSTS`` most recently seen addresses are remembered)."""
        bucket = self._inflow.get(host)
        if bucket is None:
            limits = self.config.limits
            rate = limits.max_frame * limits.rate_messages / limits.rate_window
            bucket = self._inflow[host] = TokenBucket(rate, 2 * rate + self.config.ws_max_size)
            if len(self._inflow) > INFLOW_HOSTS:
                self._inflow.popitem(last=False)
        else:
            self._inflow.move_to_end(host)
        return bucket

    def tcp_request(self, connection: CountedConnection) -> None:
        """``connection``'s HTTP request arrived: it no longer waits."""
        self._waiting.pop(connection, None)

    def tcp_closed(self, connection: CountedConnection) -> None:
        self._waiting.pop(connection, None)
        self.tcp_open -= 1


class CountedConnection(ServerConnection):
    """The connection ``serve`` makes for each accepted socket (its documented
    ``create_connection`` hook, see ``Guard.connection_class``): counted by its
    ``guard``, which may refuse it at once (before any byte is read) or drop it later
    to make room."""

    guard: Guard
    _counted = False
    _socket: asyncio.BaseTransport | None = None
    _incoming: TokenBucket | None = None
    peer = "?"  # "host:port"
    quota_address = "?"  # the client address quotas and the log's limit count by
    early = -1  # bytes received after the request's head during the handshake (-1: no head yet)
    early_eof = False  # the client ended its stream after the request's head, before the answer
    _head_tail = b""  # the last bytes of an incomplete request head (its end may span reads)

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        self._socket = transport  # as asyncio hands it to every protocol
        if self.guard.config.send_buffer is not None:
            sock = transport.get_extra_info("socket")
            if sock is not None:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, self.guard.config.send_buffer)
        self.peer = _peer_of(transport)
        self.quota_address = self.peer.rsplit(":", 1)[0]  # until the request says more
        self._incoming = self.guard.inflow(self.peer.rsplit(":", 1)[0])
        if self._incoming.available() < self.guard.config.ws_max_size:
            # the address has spent its incoming allowance: no handshake for it
            # until it has refilled (a flood that reconnects gains nothing)
            self.guard.flood_drops += 1
            self._abort()
            return
        self._counted = self.guard.tcp_opened(self)
        if not self._counted:
            self._abort()

    def _abort(self) -> None:
        if isinstance(self._socket, asyncio.Transport):
            self._socket.abort()  # at once, unsent data dropped
        elif self._socket is not None:
            self._socket.close()

    def data_received(self, data: bytes) -> None:
        """Incoming bytes are rate-limited before the library parses them: the rate
        limit counts messages, but the library answers control frames (pings) itself,
        so a ping flood would cost CPU without limit. An address whose connections send
        more than ``limits.max_frame * limits.rate_messages`` bytes a second together
        (bursts of twice that plus one WebSocket frame; ``Server.inflow``) has the
        connection that went over dropped: reconnecting buys no new allowance.

        And the library writes its pongs to the socket whatever the reader does: a
        client flooding pings and never reading would make that buffer grow without
        end. Past ``max_output`` unread bytes, whatever filled them, the connection is
        dropped at once."""
        if self._incoming is None:
            self._incoming = self.guard.inflow(self.peer.rsplit(":", 1)[0])
        if not self._incoming.take(len(data)):
            self.guard.flood_drops += 1
            log.warning(
                "incoming bytes over the limit, dropping",
                extra=peer_fields(self.peer, self.quota_address),
            )
            self.drop()
            return
        if self.state is State.CONNECTING:
            data = self._head_only(data)
            if not data:
                return
        super().data_received(data)
        sock = self._socket
        if (
            isinstance(sock, asyncio.WriteTransport)
            and sock.get_write_buffer_size() > self.guard.config.max_output
            and not sock.is_closing()
        ):
            self.guard.unread_drops += 1
            log.warning(
                "unread output over the limit, dropping",
                extra=peer_fields(self.peer, self.quota_address),
            )
            self.drop()

    def _head_only(self, data: bytes) -> bytes:
        """During the opening handshake, the part of ``data`` that belongs to the HTTP
        request's head (up to its blank line); what follows is counted in ``early``
        and dropped. The library would parse it as WebSocket frames before its answer
        is sent, fail, and end the stream so that no answer goes out at all (an
        assertion in its handshake): ``/healthz`` with a body or a pipelined request
        got nothing. A WebSocket client sends nothing before the answer (RFC 6455,
        4.1), so nothing a client may send is lost."""
        if self.early >= 0:
            self.early += len(data)
            return b""
        seen = self._head_tail + data
        end = seen.find(b"\r\n\r\n")
        if end < 0:
            self._head_tail = seen[-3:]
            return data
        cut = end + 4 - len(self._head_tail)
        self.early = len(data) - cut
        self._head_tail = b""
        return data[:cut]

    def eof_received(self) -> bool | None:  # type: ignore[override]
        """The client ended its stream after its request's head, before the answer (a
        health check through ``nc -N``): the end is held, the transport stays open for
        the answer, and ``end_held`` closes it once the answer is written. The library
        would fail the connection at once, before any answer. (A request the library
        could not parse is not held: no answer is coming.)"""
        if self.state is State.CONNECTING and self.request is not None and self.response is None:
            self.early_eof = True
            return True  # asyncio: keep the transport open, the protocol closes it
        super().eof_received()
        return None

    def end_held(self) -> None:
        """The answer is out: close as asyncio would have on the held end of stream."""
        if self._socket is not None:
            self._socket.close()  # unsent data is sent first

    def drop(self) -> None:
        """Abort now and stop counting (``connection_lost`` comes later)."""
        if self._counted:
            self._counted = False
            self.guard.tcp_closed(self)
        self._abort()

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        if self._counted:
            self._counted = False
            self.guard.tcp_closed(self)


def _peer_of(transport: asyncio.BaseTransport) -> str:
    peer = transport.get_extra_info("peername")
    return f"{peer[0]}:{peer[1]}" if peer else "?"
