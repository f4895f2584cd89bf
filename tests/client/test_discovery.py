"""LAN discovery: a host announced with zeroconf is found by the browser on the same
machine (on loopback), with its name, version, address and open tables."""

from __future__ import annotations

import asyncio
import socket
import struct

import pytest

from client.discovery import Announcer, Browser, browse

LOOPBACK = ["127.0.0.1"]


def multicast_works() -> str | None:
    """None if a multicast datagram sent on loopback comes back, else why not."""
    group, port = "239.255.42.99", 45999
    with (
        socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as rx,
        socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as tx,
    ):
        try:
            rx.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            rx.bind(("", port))
            mreq = struct.pack("4s4s", socket.inet_aton(group), socket.inet_aton("127.0.0.1"))
            rx.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP, mreq)
            rx.settimeout(1.0)
            loop_if = socket.inet_aton("127.0.0.1")
            tx.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF, loop_if)
            tx.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_LOOP, 1)
            tx.sendto(b"kk", (group, port))
            rx.recv(16)
        except OSError as e:
            return f"multicast on loopback does not work here: {e}"
    return None


@pytest.fixture
def multicast() -> None:
    reason = multicast_works()
    if reason is not None:
        pytest.skip(reason)


async def test_an_announced_host_is_found(multicast: None) -> None:
    announcer = Announcer(
        "Kitchen", 48765, "0.1.0", addresses=LOOPBACK, interfaces=LOOPBACK, web=True
    )
    await announcer.start()
    try:
        await announcer.update(2)
        found = await browse(3.0, interfaces=LOOPBACK)  # a loaded machine answers late
    finally:
        await announcer.stop()
    ours = [s for s in found if s.name == "Kitchen"]
    assert ours, found
    assert ours[0].url == "ws://127.0.0.1:48765"
    assert ours[0].version == "0.1.0" and ours[0].tables == 2
    assert ours[0].web == "http://127.0.0.1:48765/"  # the page of its browser client


async def test_the_browser_follows_changes(multicast: None) -> None:
    browser = Browser(interfaces=LOOPBACK)
    changed = asyncio.Event()
    browser.on_change = changed.set
    await browser.start()
    announcer = Announcer("Attic", 48766, "0.1.0", addresses=LOOPBACK, interfaces=LOOPBACK)
    await announcer.start()
    try:
        async with asyncio.timeout(20):
            while not any(s.name == "Attic" for s in browser.servers):
                await changed.wait()
                changed.clear()
    finally:
        await announcer.stop()
        await browser.stop()
