"""A loop turn's writes to one socket leave as one write (``server.net.batching``),
in order, and closing or aborting treats them as a transport treats its own buffer."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from server.net.batching import Batched, Flusher

from .conftest import MakeServer
from .wsclient import advance, human_table


class Recording(asyncio.Transport):
    """The transport under ``Batched``: what it is asked to do, in order."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[tuple[str, Any]] = []
        self.buffered = 0

    def write(self, data: Any) -> None:
        self.calls.append(("write", bytes(data)))

    def write_eof(self) -> None:
        self.calls.append(("eof", None))

    def can_write_eof(self) -> bool:
        return True

    def close(self) -> None:
        self.calls.append(("close", None))

    def abort(self) -> None:
        self.calls.append(("abort", None))

    def get_write_buffer_size(self) -> int:
        return self.buffered


async def turn() -> None:
    """Let the loop finish this turn and run the next (the flush)."""
    await asyncio.sleep(0)
    await asyncio.sleep(0)


async def test_one_turns_writes_are_one_write_per_socket_in_order() -> None:
    flusher = Flusher()
    a, b = Recording(), Recording()
    ba, bb = Batched(a, flusher), Batched(b, flusher)
    ba.write(b"events")
    bb.write(b"one")
    ba.write(b"view")
    ba.writelines([b"ack", b""])  # an empty write is nothing
    assert a.calls == [] and b.calls == []  # nothing before the turn ends
    assert ba.get_write_buffer_size() == len(b"eventsviewack")
    await turn()
    assert a.calls == [("write", b"eventsviewack")]
    assert b.calls == [("write", b"one")]
    assert ba.get_write_buffer_size() == 0
    ba.write(b"next")  # a later turn: a write of its own
    await turn()
    assert a.calls[1:] == [("write", b"next")]


async def test_closing_writes_what_waits_first_and_aborting_drops_it() -> None:
    flusher = Flusher()
    one, two, three = Recording(), Recording(), Recording()
    bc, ba, be = Batched(one, flusher), Batched(two, flusher), Batched(three, flusher)
    for t in (bc, ba, be):
        t.write(b"bye")
    bc.close()
    ba.abort()
    be.write_eof()
    assert one.calls == [("write", b"bye"), ("close", None)]
    assert two.calls == [("abort", None)]
    assert three.calls == [("write", b"bye"), ("eof", None)]
    await turn()  # the flush that was due finds nothing more to write
    assert len(one.calls) == 2 and len(two.calls) == 1 and len(three.calls) == 2


async def test_bytes_arrive_whole_and_in_order_over_a_real_socket() -> None:
    got = bytearray()
    done = asyncio.Event()

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        got.extend(await reader.read())  # to the end of the stream
        done.set()
        writer.close()

    listener = await asyncio.start_server(serve, "127.0.0.1", 0)
    port = listener.sockets[0].getsockname()[1]
    loop = asyncio.get_running_loop()
    transport, _ = await loop.create_connection(asyncio.Protocol, "127.0.0.1", port)
    batched = Batched(transport, Flusher())  # type: ignore[arg-type]
    sent = b""
    for i in range(60):  # many turns, several writes each, some large
        for j in range(3):
            chunk = bytes([i % 256]) * (1 + (i * 7919 + j) % 20_000)
            batched.write(chunk)
            sent += chunk
        if i % 3:
            await turn()
    batched.write(b"last")
    sent += b"last"
    batched.close()  # the last turn's bytes go out before the close
    await asyncio.wait_for(done.wait(), 30)
    listener.close()
    assert bytes(got) == sent


async def test_the_server_batches_every_connection(make_server: MakeServer) -> None:
    """Each connection's transport, as the library sees it, is batched, and a game
    played through them reads as before: on 1.0 each take's ``events``, ``view`` and
    ``ack`` in that order, one state after another."""
    server = await make_server()
    _, clients, _ = await human_table(server.port)
    try:
        assert len(server.sessions) == 2
        assert all(isinstance(s.ws.transport, Batched) for s in server.sessions)
        version = await advance(clients, random.Random(5), 6)
        assert version == 6
        for c in clients:
            kinds = [(msg.type, getattr(msg, "state_version", None)) for msg in c.msgs]
            states = [x for x in kinds if x[0] in ("events", "view")]
            want = [(k, v) for v in range(version + 1) for k in ("events", "view")]
            assert states == want, kinds
    finally:
        for c in clients:
            await c.close()
