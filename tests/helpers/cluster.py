"""Nodes of a cluster for the tests: several ``Server``s in this process sharing one
PostgreSQL database and one Redis (``cluster``), or ``kupferkessel serve --cluster``
processes (``Node``), for what only a process can show (SIGKILL, SIGSTOP).

Both use a short lease (``LEASE``), so that a lost node's tables move within a second
or two and the tests stay short.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from bench.ports import free_port
from server.app import Server, ServerConfig
from server.store import open_store
from tests.server.wsclient import FEW_SAMPLES, http_get

__all__ = ["KEEP_LEASE", "LEASE", "Node", "cluster"]

ROOT = Path(__file__).resolve().parents[2]
LEASE = 1.0  # seconds a node's hold on a table lasts unless renewed
KEEP_LEASE = 10.0
"""The lease of a test in which every node keeps its tables: a request forwarded to a
table's owner is given four leases to be answered, and at a load of 25 an answer came
later than the four seconds of ``LEASE`` (the join was refused ``cluster_unavailable``)."""
START_WITHIN = 90.0
"""Seconds a node process has to answer ``/healthz`` as itself: a hang guard. Its start
is mostly Python's (0.6 s of CPU importing the server, then the database and Redis in
under a second), and the tests start three at once, each with a bot worker: 4 to 13 s
at a load of 15 on 2 cores, past the 30 s this once was at a load of 40."""


@contextlib.asynccontextmanager
async def cluster(
    pg_url: str,
    redis_url: str,
    n: int = 3,
    lease: float = LEASE,
    admin_dir: Path | None = None,
    **config: Any,
) -> AsyncIterator[list[Server]]:
    """``n`` started nodes in this process (port 0 each), stopped at the end; the
    block must end within 180 s (a hang fails the test with its traceback). A test
    about what happens while every node keeps its tables gives ``lease=KEEP_LEASE``: on
    a busy machine a renewal can come later than a second, and the table moves. With
    ``admin_dir``, node ``i`` has its admin socket there, ``node{i}.sock``."""
    nodes = []
    config.setdefault("analysis", FEW_SAMPLES)  # 1.5's analyses (the leak oracle's) quick
    try:
        for i in range(n):
            if admin_dir is not None:
                config["admin_socket"] = str(admin_dir / f"node{i}.sock")
            server = Server(
                ServerConfig(port=0, ping_interval=None, cluster=redis_url, lease=lease, **config),
                open_store(pg_url, exclusive=False),
            )
            await server.start()
            nodes.append(server)
        async with asyncio.timeout(180):
            yield nodes
    finally:
        for server in nodes:
            await asyncio.wait_for(server.stop(), 30)


class Node:
    """One ``kupferkessel serve`` node process."""

    def __init__(self, pg_url: str, redis_url: str, log: Path, *args: str) -> None:
        self.pg_url, self.redis_url, self.log = pg_url, redis_url, log
        self.args = args  # more flags for ``kupferkessel serve``
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.id = ""

    async def start(self) -> Node:
        """Start the node and wait until it answers ``/healthz`` as itself (its id
        names its process: on a shared machine another program may take the free port
        first; then it starts again on another port)."""
        deadline = time.monotonic() + START_WITHIN
        while True:
            cmd = [sys.executable, "-m", "client.cli", "serve", "--port", str(self.port)]
            cmd += ["--store", self.pg_url, "--cluster", self.redis_url, "--lease", str(LEASE)]
            cmd += ["--log-level", "info", "--bot-think", "0.01", *self.args]
            with self.log.open("ab") as out:
                self.proc = subprocess.Popen(cmd, cwd=ROOT, stdout=out, stderr=out)
            while time.monotonic() < deadline and self.proc.poll() is None:
                with contextlib.suppress(OSError, ValueError, IndexError, KeyError):
                    status, _, body = await http_get(self.port)
                    node = json.loads(body)["node"]
                    if status == 200 and node.rsplit("-", 2)[1] == str(self.proc.pid):
                        self.id = node
                        return self
                await asyncio.sleep(0.1)
            self.kill()
            log = self.log.read_text()
            assert "address already in use" in log[-3000:].lower(), log[-3000:]
            assert time.monotonic() < deadline, "the node did not start"
            self.port = free_port()

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def signal(self, sig: int) -> None:
        assert self.proc is not None
        self.proc.send_signal(sig)

    def kill(self) -> None:
        if self.alive:
            assert self.proc is not None
            self.proc.kill()
            self.proc.wait()

    async def health(self) -> dict[str, Any]:
        _, _, body = await http_get(self.port)
        figures: dict[str, Any] = json.loads(body)
        return figures
