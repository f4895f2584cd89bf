"""``kupferkessel host`` without ``--port`` moves to a free port when the usual one is
taken (say by a ``serve`` on the same machine); an explicit port is never changed."""

from __future__ import annotations

import socket

import pytest

from client.commands import host


def _hold_port() -> tuple[socket.socket, int]:
    s = socket.socket()
    s.bind(("0.0.0.0", 0))
    s.listen()
    port: int = s.getsockname()[1]
    return s, port


async def test_default_port_taken_falls_back_to_a_free_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    held, port = _hold_port()
    monkeypatch.setattr(host, "DEFAULT_PORT", port)
    try:
        server = await host._start(None, "test host", None)
        try:
            assert server.port not in (port, 0)
        finally:
            await server.stop()
    finally:
        held.close()


async def test_default_port_free_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    held, port = _hold_port()
    held.close()  # free again: the usual port is taken when it can be
    monkeypatch.setattr(host, "DEFAULT_PORT", port)
    server = await host._start(None, "test host", None)
    try:
        assert server.port == port
    finally:
        await server.stop()


async def test_an_explicit_port_taken_is_an_error() -> None:
    held, port = _hold_port()
    try:
        with pytest.raises(OSError):
            await host._start(None, "test host", port)
    finally:
        held.close()
