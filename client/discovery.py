"""LAN discovery with zeroconf (mDNS/DNS-SD), service type ``_kupferkessel._tcp.local.``.

A host announces its server with TXT properties ``name``, ``version``, ``tables`` (open
tables waiting for players), ``path`` and, when it serves the browser client, ``url``
(the page's address on its first LAN address), and refreshes them as the tables change
(``Announcer.update``; ``announce_server`` does it every few seconds). ``Browser``
keeps a list of the servers it finds; ``browse`` is the one-shot form.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import ifaddr
from zeroconf import IPVersion, ServiceStateChange, Zeroconf
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

__all__ = ["SERVICE_TYPE", "Announcer", "Browser", "FoundServer", "browse"]

log = logging.getLogger("kupferkessel.discovery")

SERVICE_TYPE = "_kupferkessel._tcp.local."
Interfaces = Sequence[str] | None  # None: every interface


@dataclass(frozen=True)
class FoundServer:
    name: str
    url: str
    version: str
    tables: int  # open tables waiting for players
    instance: str  # the DNS-SD instance name
    web: str | None = None  # the address of its browser client's page, if it serves one


def _zeroconf(interfaces: Interfaces) -> AsyncZeroconf:
    if interfaces is None:
        return AsyncZeroconf(ip_version=IPVersion.V4Only)
    return AsyncZeroconf(interfaces=list(interfaces), ip_version=IPVersion.V4Only)


class Announcer:
    """Announces one server on the LAN until ``stop``."""

    def __init__(
        self,
        name: str,
        port: int,
        version: str,
        *,
        addresses: Sequence[str] | None = None,
        interfaces: Interfaces = None,
        web: bool = False,
    ) -> None:
        self.name = name
        self.web = web  # the server serves its browser client: the TXT record says where
        self.port = port
        self.version = version
        self.addresses = list(addresses) if addresses else _lan_addresses()
        self.interfaces = interfaces
        host = socket.gethostname().split(".")[0][:20] or "host"
        instance = f"{name[:30]} ({host} {port})"
        self.server = f"{host}-{port}.local."
        self.info = self._info(instance, 0)
        self._zc: AsyncZeroconf | None = None

    def _info(self, instance: str, tables: int) -> AsyncServiceInfo:
        properties = {
            "name": self.name[:60],
            "version": self.version,
            "tables": str(tables),
            "path": "/",
        }
        if self.web and self.addresses:
            a = self.addresses[0]
            properties["url"] = (
                f"http://[{a}]:{self.port}/" if ":" in a else (f"http://{a}:{self.port}/")
            )
        return AsyncServiceInfo(
            SERVICE_TYPE,
            f"{instance}.{SERVICE_TYPE}",
            parsed_addresses=self.addresses,
            port=self.port,
            server=self.server,
            properties=properties,
        )

    async def start(self) -> None:
        self._zc = _zeroconf(self.interfaces)
        await self._zc.async_register_service(self.info, allow_name_change=True)

    async def update(self, tables: int) -> None:
        """Announce a new count of open tables (only when it changed)."""
        if self._zc is None or self.info.properties.get(b"tables") == str(tables).encode():
            return
        instance = self.info.name[: -len(SERVICE_TYPE) - 1]
        self.info = self._info(instance, tables)
        await self._zc.async_update_service(self.info)

    async def stop(self) -> None:
        if self._zc is not None:
            with contextlib.suppress(Exception):
                await self._zc.async_unregister_service(self.info)
            await self._zc.async_close()
            self._zc = None


async def announce_server(
    announcer: Announcer, open_tables: Callable[[], int], every: float = 3.0
) -> None:
    """Keep ``announcer`` up to date with ``open_tables()`` until cancelled."""
    await announcer.start()
    try:
        while True:
            await announcer.update(open_tables())
            await asyncio.sleep(every)
    finally:
        await announcer.stop()


class Browser:
    """Finds servers on the LAN while running; ``servers`` is the current list."""

    def __init__(self, *, interfaces: Interfaces = None) -> None:
        self.interfaces = interfaces
        self.found: dict[str, FoundServer] = {}
        self.on_change: Callable[[], None] | None = None
        self._zc: AsyncZeroconf | None = None
        self._browser: AsyncServiceBrowser | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def servers(self) -> list[FoundServer]:
        return sorted(self.found.values(), key=lambda s: (s.name, s.url))

    async def start(self) -> None:
        self._zc = _zeroconf(self.interfaces)
        self._browser = AsyncServiceBrowser(
            self._zc.zeroconf, SERVICE_TYPE, handlers=[self._on_state_change]
        )

    async def stop(self) -> None:
        for t in self._tasks:
            t.cancel()
        if self._browser is not None:
            await self._browser.async_cancel()
        if self._zc is not None:
            await self._zc.async_close()
        self._zc = self._browser = None

    def _on_state_change(
        self,
        zeroconf: Zeroconf,
        service_type: str,
        name: str,
        state_change: ServiceStateChange,
    ) -> None:
        if state_change is ServiceStateChange.Removed:
            if self.found.pop(name, None) is not None and self.on_change:
                self.on_change()
            return
        task = asyncio.get_running_loop().create_task(self._resolve(zeroconf, service_type, name))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _resolve(self, zeroconf: Zeroconf, service_type: str, name: str) -> None:
        info = AsyncServiceInfo(service_type, name)
        if not await info.async_request(zeroconf, 3000):
            return
        addresses = sorted(info.parsed_addresses(IPVersion.V4Only), key=_loopback_last)
        if not addresses or info.port is None:
            return
        props = {
            k.decode(errors="replace"): (v or b"").decode(errors="replace")
            for k, v in info.properties.items()
        }
        path = props.get("path", "/").rstrip("/")
        try:
            tables = int(props.get("tables", "0"))
        except ValueError:
            tables = 0
        self.found[name] = FoundServer(
            name=props.get("name") or name.split(".")[0],
            url=f"ws://{addresses[0]}:{info.port}{path}",
            version=props.get("version", "?"),
            tables=tables,
            instance=name,
            web=props.get("url") or None,
        )
        if self.on_change:
            self.on_change()


async def browse(timeout: float = 2.0, *, interfaces: Interfaces = None) -> list[FoundServer]:
    """The servers found on the LAN within ``timeout`` seconds."""
    browser = Browser(interfaces=interfaces)
    await browser.start()
    try:
        await asyncio.sleep(timeout)
        return browser.servers
    finally:
        await browser.stop()


def _lan_addresses() -> list[str]:
    """This machine's IPv4 addresses, LAN ones first (loopback last)."""
    addrs = sorted(
        {
            ip.ip
            for adapter in ifaddr.get_adapters()
            for ip in adapter.ips
            if ip.is_IPv4 and isinstance(ip.ip, str)
        }
    )
    lan = [a for a in addrs if not a.startswith("127.")]
    return lan or addrs or ["127.0.0.1"]


def _loopback_last(address: str) -> tuple[bool, str]:
    return address.startswith("127."), address
