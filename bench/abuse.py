"""Abuse: what a normal player sees while hostile clients attack, one attack at a time.

Prints figures, never fails (a benchmark, not a timed test). For each attack of
``bench/_attacks.py`` (and once without any) a fresh ``kupferkessel serve`` runs as a
child process on loopback with its default limits, except where an attack needs a
stage set (the listing flood: 3,000 public tables, made with the per-address quota off,
as 300 addresses would). While the attack runs at the strongest rate the server allows
(``--seconds``), a probe plays a normal two-player game (a take every 50 ms, new tables
as games end) and asks ``/healthz`` twice a second. Reported per attack: the probe's
take-to-ack p50 / p99 / max and count, how many health checks answered (and the slowest),
the server's RSS before the attack and at its highest during it (growth, and growth per
attacking connection), the bytes of log it wrote, and the attacker's own counters.

``--signin`` runs the sign-in floods instead (``SIGNIN_ATTACKS``): a registered
player, then 20 reconnecting connections guessing its secret (from one address, then
from 20), while a real player signs in once a second from an address of its own.
Reported: the server's RSS before, at its highest during and 2 s and 10 s after the
flood, each real sign-in's latency (or its refusal), and the attackers' counters.

Usage: ``python bench/abuse.py [--seconds 8] [--only NAME] [--signin]``. The machine is
shared: run it when it is quiet and compare figures from one run.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import sys
import tempfile
import time
from pathlib import Path

import msgpack  # type: ignore[import-untyped]

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the checkout first

from _attacks import ATTACKS, SIGNIN_ATTACKS, SIGNIN_NAME, Probe, open_client, percentile

KUPFERKESSEL = Path(sys.executable).parent / "kupferkessel"
ATTACKERS = {  # attacking connections (or sockets) per attack, for the RSS per attacker
    "ping flood, never reading": 1,
    "list_tables, biggest pages": 3,
    "create_table, 14 connections": 14,
    "hard bot games": 1,
    "1,100 silent handshakes": 1100,
    "log flood (bad /healthz)": 1,
}


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


class Serve:
    """``kupferkessel serve`` on a free port, its log in a file."""

    def __init__(self, *flags: str) -> None:
        self.flags = flags
        self.log = Path(tempfile.mkstemp(prefix="kk-abuse-", suffix=".log")[1])

    async def __aenter__(self) -> Serve:
        self.out = self.log.open("wb")
        self.proc = await asyncio.create_subprocess_exec(
            str(KUPFERKESSEL),
            "serve",
            "--port",
            "0",
            "--no-persist",
            *self.flags,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=self.out,
        )
        async with asyncio.timeout(30):
            while True:
                for line in self.log.read_text().splitlines():
                    if '"listening"' in line:
                        self.port = int(json.loads(line)["port"])
                        return self
                await asyncio.sleep(0.05)

    async def __aexit__(self, *exc: object) -> None:
        with contextlib.suppress(ProcessLookupError):
            self.proc.terminate()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.proc.wait(), 15)
        if self.proc.returncode is None:
            self.proc.kill()
            await self.proc.wait()
        self.out.close()
        self.log.unlink()


async def stage_tables(port: int, n: int) -> None:
    """``n`` public tables, made over 30 connections at the rate limit's pace."""

    async def maker(k: int, count: int) -> None:
        ws = await open_client(port, f"maker{k}")
        for i in range(count):
            name = f"staged table {k}-{i} with a long name to take room"[:48]
            await ws.send(msgpack.packb({"type": "create_table", "id": 2 + i, "name": name}))
            await asyncio.sleep(0.055)
        await ws.close()

    await asyncio.gather(*(maker(k, n // 30) for k in range(30)))


async def one(name: str | None, seconds: float) -> dict[str, object]:
    flags: tuple[str, ...] = ()
    if name == "list_tables, biggest pages":
        flags = ("--peer-lobby-tables", "0")
    async with Serve(*flags) as serve:
        if name == "list_tables, biggest pages":
            await stage_tables(serve.port, 3000)
        await asyncio.sleep(1.0)
        rss_before = rss_kib(serve.proc.pid)
        log_before = serve.log.stat().st_size
        stop = asyncio.Event()
        probe = Probe(serve.port)
        tasks = [asyncio.create_task(probe.run(stop))]
        attacker = None
        if name:  # in a process of its own: it must not slow the probe down
            attacker = await asyncio.create_subprocess_exec(
                sys.executable,
                __file__,
                "--attack",
                name,
                "--port",
                str(serve.port),
                "--seconds",
                str(seconds),
                stdout=asyncio.subprocess.PIPE,
            )
        rss_max = rss_before
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            await asyncio.sleep(0.25)
            rss_max = max(rss_max, rss_kib(serve.proc.pid))
        stop.set()
        counters = {}
        if attacker is not None:
            out, _ = await attacker.communicate()
            counters = json.loads(out or b"{}")
        await asyncio.gather(*tasks, return_exceptions=True)
        log_bytes = serve.log.stat().st_size - log_before
    answered = [h for h in probe.health if h is not None]
    growth = rss_max - rss_before
    return {
        "attack": name or "(none)",
        "acks": len(probe.acks),
        "p50_ms": 1000 * percentile(probe.acks, 0.5),
        "p99_ms": 1000 * percentile(probe.acks, 0.99),
        "max_ms": 1000 * max(probe.acks, default=float("nan")),
        "probe_errors": probe.errors,
        "health": f"{len(answered)}/{len(probe.health)}",
        "health_max_ms": 1000 * max(answered, default=float("nan")),
        "rss_mib": f"{rss_before / 1024:.0f} -> {rss_max / 1024:.0f}",
        "growth_kib_per_attacker": growth / ATTACKERS.get(name or "", 1),
        "log_kib": log_bytes / 1024,
        "attacker": counters,
    }


def show(row: dict[str, object]) -> None:
    print(
        f"{row['attack']:<30} acks {row['acks']:>4}  take->ack p50 {row['p50_ms']:6.1f} ms"
        f"  p99 {row['p99_ms']:6.1f} ms  max {row['max_ms']:6.1f} ms"
        f"  errors {row['probe_errors']}  /healthz {row['health']}"
        f" (max {row['health_max_ms']:.0f} ms)  RSS MiB {row['rss_mib']}"
        f" ({row['growth_kib_per_attacker']:.0f} KiB/attacker)  log {row['log_kib']:.0f} KiB"
    )
    print(f"{'':<30} attacker: {row['attacker']}", flush=True)


async def attack_alone(name: str, port: int, seconds: float) -> None:
    """The attacker's process: run ``name`` for ``seconds``, print its counters."""
    stop = asyncio.Event()
    asyncio.get_running_loop().call_later(seconds, stop.set)
    counters = await {**ATTACKS, **SIGNIN_ATTACKS}[name](port, stop)
    print(json.dumps(counters))


SECRET = "bench-secret-of-the-real-player-0123456789"


async def real_sign_in(port: int, source: str, register: bool = False) -> str:
    """One real player's sign-in (or registration) from ``source``: its latency, or
    what refused it."""
    ws = await open_client(port, "real", source, 3)
    try:
        kind = "register" if register else "sign_in"
        start = time.perf_counter()
        await ws.send(msgpack.packb({"type": kind, "id": 2, "name": SIGNIN_NAME, "secret": SECRET}))
        async with asyncio.timeout(60):
            while True:
                msg = msgpack.unpackb(await ws.recv())
                if msg.get("re") == 2:
                    break
        if msg["type"] == "signed_in":
            return f"{1000 * (time.perf_counter() - start):.0f} ms"
        return f"{msg['code']} (retry_after {msg.get('retry_after')})"
    finally:
        await ws.close()


async def signin_one(name: str, seconds: float) -> None:
    async with Serve() as serve:
        print(await real_sign_in(serve.port, "127.0.9.200", register=True), "to register")
        await asyncio.sleep(1.0)
        rss_before = rss_kib(serve.proc.pid)
        quiet = await real_sign_in(serve.port, "127.0.9.201")
        args = ("--attack", name, "--port", str(serve.port), "--seconds", str(seconds))
        attacker = await asyncio.create_subprocess_exec(
            sys.executable, __file__, *args, stdout=asyncio.subprocess.PIPE
        )
        rss_max, during = rss_before, []
        deadline = time.monotonic() + seconds
        k = 0
        while time.monotonic() < deadline:
            k += 1
            during.append(await real_sign_in(serve.port, f"127.0.9.{k}"))
            rss_max = max(rss_max, rss_kib(serve.proc.pid))
            await asyncio.sleep(1.0)
        out, _ = await attacker.communicate()
        await asyncio.sleep(2.0)
        rss_2s = rss_kib(serve.proc.pid)
        after = await real_sign_in(serve.port, "127.0.9.202")
        await asyncio.sleep(8.0)
        rss_10s = rss_kib(serve.proc.pid)
    mib = [f"{x / 1024:.0f}" for x in (rss_before, rss_max, rss_2s, rss_10s)]
    print(
        f"{name}: RSS MiB before {mib[0]}, during (max) {mib[1]}, 2 s after {mib[2]},"
        f" 10 s after {mib[3]}"
    )
    print(f"  real sign-in: quiet {quiet}; during the flood {', '.join(during)}; after {after}")
    print(f"  attacker: {json.loads(out or b'{}')}", flush=True)


async def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=8.0, help="how long each attack runs")
    p.add_argument("--only", choices=list(ATTACKS), help="run one attack (and the baseline)")
    p.add_argument("--signin", action="store_true", help="the sign-in floods (see above)")
    p.add_argument("--attack", choices=[*ATTACKS, *SIGNIN_ATTACKS], help=argparse.SUPPRESS)
    p.add_argument("--port", type=int, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.attack:
        await attack_alone(args.attack, args.port, args.seconds)
        return
    print(f"cores {os.cpu_count()}, {args.seconds:g} s per attack, server defaults")
    if args.signin:
        for name in SIGNIN_ATTACKS:
            await signin_one(name, args.seconds)
        return
    for name in [None, *([args.only] if args.only else ATTACKS)]:
        show(await one(name, args.seconds))


if __name__ == "__main__":
    asyncio.run(main())
