"""Liveness and readiness: ``/livez``, ``/readyz`` and ``/healthz``.

Why: a load balancer (or Kubernetes) must stop sending players to a server that cannot
serve them (its database or, on a node of a cluster, Redis out of reach; a server
draining on SIGTERM) without restarting it for that: the server comes back by itself
when they do. So liveness (the process answers: restart it if not) and readiness
(send it players) are apart. ``Readiness`` checks the parts a server needs every
``every`` seconds, off the event loop where a check may block, and keeps the answer
for the endpoints and the metrics (``store_up``, ``redis_up``), logging each change.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable, Coroutine, Mapping
from http import HTTPStatus
from typing import Any

from websockets.datastructures import Headers
from websockets.http11 import Response

from ..store import StoreInUse

__all__ = ["PATHS", "Check", "Readiness", "respond"]

log = logging.getLogger("kupferkessel.server")

PATHS = ("/livez", "/readyz", "/healthz")
"""The health endpoints (any method without a body; see SERVER.md, "Health checks")."""

Check = Callable[[], Coroutine[Any, Any, bool]]


class Readiness:
    """Whether the parts named in ``checks`` (``store``, on a node ``redis``) answer,
    as of the last round (``watch``: every ``every`` seconds, each check given
    ``timeout`` seconds); ``draining`` once the server stops. A check raising
    ``StoreInUse`` (the stand-alone server's database taken by another server while it
    was away) calls ``lost``: the server must stop."""

    def __init__(
        self,
        checks: dict[str, Check],
        lost: Callable[[BaseException], None],
        *,
        every: float = 1.0,
        timeout: float = 3.0,
    ) -> None:
        self.checks = checks
        self.lost = lost
        self.every = every
        self.timeout = timeout
        self.up = dict.fromkeys(checks, True)  # the start reached them all
        self.draining = False
        self._checking: dict[str, asyncio.Task[bool]] = {}  # a check past its time

    @property
    def ready(self) -> bool:
        return not self.draining and all(self.up.values())

    def reason(self) -> str | None:
        """Why the server is not ready (None if it is)."""
        if self.draining:
            return "draining: the server is stopping"
        down = [name for name, up in self.up.items() if not up]
        return f"{' and '.join(down)} unreachable" if down else None

    async def watch(self) -> None:
        """Check every part, then again every ``every`` seconds, until cancelled."""
        while True:
            await self.check()
            await asyncio.sleep(self.every)

    async def check(self) -> None:
        """One round: each part's check, with its time bounded; a change is logged."""
        for name, check in self.checks.items():
            try:
                up = await self._check(name, check)
            except StoreInUse as e:
                log.critical("store lost to another server: stopping", extra={"error": str(e)})
                self.up[name] = False
                self.lost(e)
                return
            except Exception as e:  # a check that fails says "unreachable", no more
                log.warning("health check failed", extra={"part": name, "error": repr(e)})
                up = False
            if up != self.up[name]:
                if up:
                    log.info(f"{name} reachable again")
                else:
                    log.warning(f"{name} unreachable: not ready")
            self.up[name] = up

    async def _check(self, name: str, check: Check) -> bool:
        """``check()``, False if it takes over ``timeout`` seconds; one past its time
        goes on alone (a thread waiting on a network that dropped our packets cannot be
        stopped) and no other of that part starts until it ended: a long outage never
        holds more than one thread per part."""
        task = self._checking.get(name)
        if task is None or task.done():
            task = self._checking[name] = asyncio.create_task(check())
        done, _ = await asyncio.wait({task}, timeout=self.timeout)
        if not done:
            return False
        del self._checking[name]
        return task.result()


def respond(
    path: str, readiness: Readiness, counts: Callable[[], Mapping[str, object]]
) -> Response:
    """The answer to a health endpoint: ``/livez`` 200 while the process answers;
    ``/readyz`` 200, or 503 with the reason; ``/healthz`` the same status with the
    server's counts and each part's state."""
    ready = readiness.ready
    body: dict[str, object] = {"status": "ok"}
    status = HTTPStatus.OK
    if path != "/livez":
        if not ready:
            body = {"status": "unavailable", "reason": readiness.reason()}
            status = HTTPStatus.SERVICE_UNAVAILABLE
        body["ready"] = ready
        body.update({f"{name}_up": int(up) for name, up in readiness.up.items()})
        if path == "/healthz":
            body = {**counts(), **body}
    data = json.dumps(body).encode()
    headers = Headers(
        [
            ("Content-Type", "application/json"),
            ("Content-Length", str(len(data))),
            ("Connection", "close"),
        ]
    )
    return Response(status, status.phrase, headers, data)
