"""Writes to one socket within one turn of the event loop, made one write.

A take makes several frames for some connections at once: on protocol 1.0 the mover
gets ``events``, ``view`` and ``ack``, every other seat ``events`` and ``view``; a
game's start, a join or a ready make ``presence`` beside them. The ``websockets``
library writes each frame to its transport as it is made, and each write to a socket
is a system call and, on a connection without delay (asyncio sets ``TCP_NODELAY``),
a TCP segment of its own that the kernel sends and the client wakes up for.

``Batched`` stands between a connection and its transport (``CountedConnection``
hands it to the library in ``connection_made``): what is written to it joins the
bytes waiting for that socket, and one ``Flusher`` callback per turn of the loop,
scheduled by the first write of the turn, writes each socket's bytes at once, in the
order they were written. So the frames a take makes for one connection leave in one
write (bench/load.py: server CPU per intent). Everything else a transport does is
the transport's own; closing writes what waits first, aborting drops it, as asyncio's
transports do with their own buffers.
"""

from __future__ import annotations

import asyncio
from typing import Any

__all__ = ["Batched", "Flusher"]


class Flusher:
    """The sockets with bytes waiting, written out by one loop callback per turn."""

    def __init__(self) -> None:
        self._due: list[Batched] = []

    def due(self, transport: Batched) -> None:
        """``transport`` has bytes waiting (its first since it was last written)."""
        if not self._due:
            asyncio.get_running_loop().call_soon(self.flush)
        self._due.append(transport)

    def flush(self) -> None:
        """Write every waiting socket's bytes (each in one write)."""
        due, self._due = self._due, []
        for transport in due:
            transport.flush()


class Batched(asyncio.Transport):
    """A transport whose writes wait for the end of the loop's turn (``Flusher``) and
    then go to ``transport`` as one write."""

    def __init__(self, transport: asyncio.Transport, flusher: Flusher) -> None:
        super().__init__()
        self._transport = transport
        self._flusher = flusher
        self._waiting: list[bytes | bytearray | memoryview] = []
        self._size = 0

    # ------------------------------------------------------------------ writing
    def write(self, data: bytes | bytearray | memoryview) -> None:
        if not data:
            return
        if not self._waiting:
            self._flusher.due(self)
        self._waiting.append(data)
        self._size += len(data)

    def writelines(self, list_of_data: Any) -> None:
        for data in list_of_data:
            self.write(data)

    def flush(self) -> None:
        """Write what waits, in one write."""
        waiting = self._waiting
        if waiting:
            self._waiting, self._size = [], 0
            self._transport.write(waiting[0] if len(waiting) == 1 else b"".join(waiting))

    def get_write_buffer_size(self) -> int:
        return self._transport.get_write_buffer_size() + self._size

    def get_write_buffer_limits(self) -> tuple[int, int]:
        return self._transport.get_write_buffer_limits()

    def set_write_buffer_limits(self, high: int | None = None, low: int | None = None) -> None:
        self._transport.set_write_buffer_limits(high, low)

    def can_write_eof(self) -> bool:
        return self._transport.can_write_eof()

    def write_eof(self) -> None:
        self.flush()
        self._transport.write_eof()

    # ------------------------------------------------------------------ the rest
    def close(self) -> None:
        self.flush()  # as a transport's close sends its buffer first
        self._transport.close()

    def abort(self) -> None:
        self._waiting, self._size = [], 0  # as a transport's abort drops its buffer
        self._transport.abort()

    def is_closing(self) -> bool:
        return self._transport.is_closing()

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return self._transport.get_extra_info(name, default)

    def set_protocol(self, protocol: asyncio.BaseProtocol) -> None:
        self._transport.set_protocol(protocol)

    def get_protocol(self) -> asyncio.BaseProtocol:
        return self._transport.get_protocol()

    def is_reading(self) -> bool:
        return self._transport.is_reading()

    def pause_reading(self) -> None:
        self._transport.pause_reading()

    def resume_reading(self) -> None:
        self._transport.resume_reading()
