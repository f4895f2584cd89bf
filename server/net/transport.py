"""A session's outgoing side: the frames it sends, in order, bounded, and its close.

Everything a session sends goes through ``Transport.send``: it numbers the message
(``seq``) and queues its frame for one writer task per connection, which hands frames
to ``ServerConnection.send`` in order. The queue is bounded in bytes: a client whose
unread output passes ``ServerConfig.max_output`` is dropped at once (``bye``
``too_slow``, close 1013), so a slow reader never blocks a table or holds unbounded
memory. ``close`` sends ``bye`` after what is queued and closes; a connection that does
not let them out is dropped ``CLOSE_GRACE`` seconds later. Once the session stops
reading, ``finish`` lets the writer close while what still arrives is read and
discarded (``drain``).

The session's handlers know none of this: they call ``send`` and ``close``, and read
``unread`` (a page of tables is made only for a client that reads).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from typing import Any

from pydantic import BaseModel
from websockets.asyncio.server import ServerConnection, broadcast
from websockets.exceptions import ConnectionClosed
from websockets.protocol import State

from protocol import messages as m
from protocol.jsonframes import to_json
from protocol.wire import encode_as

from .framing import Frame

__all__ = [
    "CLOSE_GOING_AWAY",
    "CLOSE_GRACE",
    "CLOSE_NORMAL",
    "CLOSE_POLICY",
    "CLOSE_REPLACED",
    "CLOSE_TRY_AGAIN",
    "Transport",
]

log = logging.getLogger("kupferkessel.session")

CLOSE_NORMAL = 1000
CLOSE_GOING_AWAY = 1001
CLOSE_POLICY = 1008
CLOSE_TRY_AGAIN = 1013
CLOSE_REPLACED = 4001  # application code: the seat was resumed on another connection
CLOSE_GRACE = 5.0
"""Seconds a closing connection has to take its bye and close before it is dropped."""


class Transport:
    """The outgoing frames of one connection ``ws``: ``json`` frames (the JSON
    subprotocol, ``protocol.jsonframes``) or msgpack, at most ``max_output`` bytes
    unread, written at once while under ``write_limit`` (``_queue``)."""

    def __init__(
        self,
        ws: ServerConnection,
        *,
        json: bool,
        max_output: int,
        write_limit: int,
        log_extra: dict[str, Any],
    ) -> None:
        self.ws = ws
        self.json = json
        self.seq = 0  # the last message's number; only ``send`` and ``close`` move it
        self.closing = False  # ``close`` was called (or the connection ended)
        self.log_extra = log_extra
        self._out: deque[bytes | str] = deque()  # frames for the writer task, in order
        self._out_bytes = 0  # their total size
        self._max_output = max_output
        self._write_limit = write_limit
        self._sending = False  # the writer is in ``ws.send`` (which may wait to drain)
        self._unconfirmed = 0  # bytes written at once since a ``ws.send`` last returned
        self._wakeup: asyncio.Future[None] | None = None  # the idle writer waits on it
        self._close_code = (CLOSE_NORMAL, "")
        self._writer: asyncio.Task[None] | None = None

    @property
    def unread(self) -> int:
        """The bytes queued that the client has not taken yet."""
        return self._out_bytes

    @property
    def max_output(self) -> int:
        return self._max_output

    def send(self, message: BaseModel | Frame, re: int | None = None) -> None:
        """Send one message: a server message model (answering client message ``re``
        if given), or a function making the frame from its ``seq``. The message gets the
        next ``seq`` and its frame joins the outgoing queue. Nothing is sent once the
        session is closing. If the queue would pass ``max_output`` bytes the client
        reads too slowly: the backlog is dropped and the connection closed (1013)."""
        if self.closing:
            return
        self.seq += 1
        if isinstance(message, BaseModel):
            frame: bytes | str = encode_as(type(message), message, seq=self.seq, re=re)
        else:
            frame = message(self.seq)
        if self.json:
            frame = to_json(frame)  # type: ignore[arg-type]
        if self._out_bytes + len(frame) > self._max_output:
            log.warning("client too slow, closing", extra=self.log_extra)
            self._out.clear()
            self._out_bytes = 0
            self.close(CLOSE_TRY_AGAIN, "too_slow: unread output over the limit")
            return
        self._queue(frame)

    def _queue(self, frame: bytes | str) -> None:
        """Write ``frame`` at once if nothing waits before it, else queue it for the
        writer task.

        Written at once with ``websockets.asyncio.server.broadcast`` (the library's own
        synchronous send, with no flow control) while fewer than ``write_limit`` bytes
        have gone that way since the writer's last ``ws.send`` returned (which proves the
        socket's buffer was below ``write_limit`` then); past that, frames queue and the
        writer's ``ws.send`` waits for the socket. So the buffer holds at most about
        twice ``write_limit``, and most frames skip a task switch and the writer's
        ``send`` (measured: server CPU per intent in ``bench/load.py``, see
        docs/OPERATIONS.md). A test plays the same game through both paths."""
        n = len(frame)
        if not self._out and not self._sending and self._unconfirmed + n <= self._write_limit:
            self._unconfirmed += n
            try:  # noqa: SIM105 (not contextlib.suppress: 1 us a frame, every frame)
                broadcast((self.ws,), frame, raise_exceptions=True)
            except Exception:  # a broken connection: the reader ends it
                pass
            return
        self._out.append(frame)
        self._out_bytes += n
        self._wake()

    def _wake(self) -> None:
        wakeup = self._wakeup
        if wakeup is not None:
            self._wakeup = None
            wakeup.set_result(None)

    def close(self, code: int, reason: str) -> None:
        """Send ``bye`` (for our own reasons) after what is queued, then close with
        ``code``. The bye always fits: a queue over its limit was dropped first."""
        if self.closing:
            return
        self.seq += 1
        bye = m.ByeMsg(reason=reason.split(":")[0], message=reason)
        frame = encode_as(m.ByeMsg, bye, seq=self.seq)
        self._queue(to_json(frame) if self.json else frame)
        self.closing = True
        self._close_code = (code, reason[:120])
        self._wake()  # the writer closes the connection after the bye
        # a client that does not read never lets the bye and the close out: the
        # connection is dropped if it is not closed CLOSE_GRACE seconds from now
        asyncio.get_running_loop().call_later(CLOSE_GRACE, self._drop_if_open)

    def _drop_if_open(self) -> None:
        drop = getattr(self.ws, "drop", None)  # the server's counted connection
        if drop is not None and self.ws.state is not State.CLOSED:
            log.info("closing took too long, dropping", extra=self.log_extra)
            drop()

    def start(self) -> None:
        """Start the writer task (once the connection is open)."""
        self._writer = asyncio.create_task(self._write())

    async def finish(self) -> None:
        """The session reads no more: nothing more is queued, and the writer closes
        the connection after the rest. Returns once it has."""
        self.closing = True
        self._wake()
        # Keep reading (and discarding) while the writer closes: a flooding client
        # fills the incoming buffer, reading pauses, and the closing handshake would
        # otherwise hang until websockets' close_timeout.
        drain = asyncio.create_task(self._drain())
        if self._writer is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._writer
        drain.cancel()

    async def _drain(self) -> None:
        with contextlib.suppress(Exception):
            while True:
                await self.ws.recv()

    async def _write(self) -> None:
        """Hand queued frames to the library one by one (``ServerConnection.send``
        waits while the socket's buffer is over ``write_limit``); once the session is
        closing and the queue is empty, close the WebSocket."""
        out = self._out
        loop = asyncio.get_running_loop()
        try:
            while True:
                if not out:
                    if self.closing:
                        code, reason = self._close_code
                        with contextlib.suppress(Exception):
                            await self.ws.close(code, reason)
                        return
                    self._wakeup = loop.create_future()
                    await self._wakeup
                    continue
                frame = out.popleft()
                self._out_bytes -= len(frame)
                self._sending = True
                await self.ws.send(frame)
                self._sending = False
                self._unconfirmed = 0
        except ConnectionClosed:
            pass
        finally:
            self.closing = True
            out.clear()
            self._out_bytes = 0
