"""Load: our server against a bare relay on the same ``websockets`` library.

Prints figures, never fails (a benchmark, not a timed test). Everything runs on
loopback: the server (ours, or ``bench/relay.py``) is a child process, and the clients
are ``--procs`` other processes, each running many asyncio clients
(``bench/_load_client.py``) that play every seat of their tables.

1. Throughput, flat out: ``--tables`` tables play game after game as fast as the clients
   can; intents per second and the p50/p99 latency from a ``take`` sent to the ``view``
   of the new state, for the relay, our server without persistence and with SQLite
   (with its group-commit factor: writes per commit), for clients on protocol 1.0 and
   then on 1.1 with combined updates (``--clients``); then a table of our server's CPU
   per intent and rate over the relay's, per client version.
2. Paced: ``--paced-tables`` tables each moving every ``--interval`` seconds, as people
   do: the latency p50/p99 (SQLite store).
3. Memory: the server's RSS per idle connection (before/after ``--idle`` connections
   that only said hello) and per finished table kept in memory (``--finished`` games
   played to the end and the connections closed, with the finished tables kept versus
   swept at once: the difference divided by the count).
4. Profile (only with ``--only profile``): one flat-out run of our server under
   cProfile, and the top ``--profile-top`` functions by their own time.
5. Sample (only with ``--only sample``): one flat-out run of the relay and one of our
   server, each sampled by CPU time over the window (``bench/_cpusample.py``; cProfile
   inflates paths of many small calls): the top functions' CPU per intent side by side.

The machine is shared: run it when it is quiet, and compare figures from one run.
Throughput runs every target ``--repeat`` times (default 3), in rounds (relay, memory,
sqlite, then again), and reports medians: the machine is shared and one run of ten
seconds can be off by ten per cent. It also reports, per intent over the measured
window, the server's CPU time (user + system) and the CPU the rest of the machine spent
(the clients, and the kernel's work for them): noise moves both far less than the rate,
and the second shows what the clients spend against each server (the relay sends them
the frames our server would, see ``bench/relay.py``: only our per-game lobby traffic
differs).

Usage: ``python bench/load.py [--tables 500] [--players 2] [--procs 3] [--repeat 3]
[--clients 1.0,1.1] [--only throughput|paced|memory|profile|sample] [--quick]``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import multiprocessing as mp
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._cpusample import read as read_samples
from bench._load_client import Plan, process_main

BENCH = Path(__file__).resolve().parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Child:
    """A server process (ours or the relay) on a free loopback port."""

    def __init__(
        self, target: str, args: argparse.Namespace, sample: Path | None = None, **extra: Any
    ) -> None:
        self.port = free_port()
        self.target = target
        self.sample = sample  # sampled by CPU time over the window (bench/_cpusample.py)
        if target == "relay":
            cmd = [sys.executable, str(BENCH / "relay.py"), "--port", str(self.port)]
        else:
            cmd = [sys.executable, str(BENCH / "_load_server.py"), "--port", str(self.port)]
            cmd += ["--compression", args.compression, "--ws-max-queue", str(args.ws_max_queue)]
            cmd += ["--max-output", str(args.max_output)]
            if args.default_gc:
                cmd += ["--default-gc"]
            if target == "sqlite":
                self.tmp = tempfile.TemporaryDirectory()
                cmd += ["--db", str(Path(self.tmp.name) / "load.db")]
            for k, v in extra.items():
                cmd += [f"--{k.replace('_', '-')}", str(v)]
        if sample is not None:
            cmd += ["--sample", str(sample)]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.05)
        else:
            raise TimeoutError(f"{target} server did not start")

    def memory(self) -> dict[str, int]:
        """VmRSS and VmHWM (peak) of the server process, in KiB."""
        out = {}
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                out[key] = int(value.split()[0])
        return out

    def cpu(self) -> float:
        """CPU seconds (user + system) the server process has used so far."""
        return sum(self.cpu_split())

    def cpu_split(self) -> tuple[float, float]:
        """CPU seconds in user mode and in the kernel the server process has used."""
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        tick = os.sysconf("SC_CLK_TCK")
        return int(fields[11]) / tick, int(fields[12]) / tick

    def health(self) -> dict[str, Any]:
        if self.target == "relay":
            return {}
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/healthz", timeout=10) as r:
            data: dict[str, Any] = json.loads(r.read())
            return data

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def drive(
    child: Child,
    args: argparse.Namespace,
    tables: int,
    *,
    others: tuple[Child, ...] = (),
    **plan: Any,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Run the client processes against ``child``; returns the merged stats and the
    server's figures sampled at the window's start and end (health, memory; and the
    CPU of the ``others``, servers taking part without clients of their own)."""
    ctx = mp.get_context("fork")
    out, go, start = ctx.Queue(), ctx.Event(), ctx.Value("d", 0.0)
    procs = []
    share = [tables // args.procs + (i < tables % args.procs) for i in range(args.procs)]
    for i, n in enumerate(share):
        p = Plan(
            port=child.port,
            target="relay" if child.target == "relay" else "ours",
            tables=n,
            players=args.players,
            prefix=f"p{i}",
            seed=i,
            deflate=args.compression == "deflate",
            combined=args.combined,
            **plan,
        )
        proc = ctx.Process(target=process_main, args=(p, out, go, start), daemon=True)
        proc.start()
        procs.append(proc)
    results: list[dict[str, Any]] = []
    ready = 0
    deadline = time.monotonic() + 600
    while ready < len(procs):
        msg = out.get(timeout=max(1.0, deadline - time.monotonic()))
        if "failed" in msg:
            raise RuntimeError(msg["failed"])
        ready += "ready" in msg
    time.sleep(1.0)  # let the set-up settle (memory figures)
    server: dict[str, Any] = {"ready_memory": child.memory(), "ready_health": child.health()}
    start.value = time.monotonic() + 0.2
    go.set()
    warmup, seconds = plan.get("warmup", 2.0), plan.get("seconds", 10.0)
    if plan.get("games") is None and not plan.get("idle"):
        time.sleep(max(0.0, start.value + warmup - time.monotonic()))
        server["health0"], server["cpu0"] = child.health(), child.cpu_split()
        server["busy0"], server["others0"] = machine_busy(), [o.cpu() for o in others]
        if child.sample is not None:
            child.proc.send_signal(signal.SIGUSR1)
        time.sleep(max(0.0, start.value + warmup + seconds - time.monotonic()))
        if child.sample is not None:
            child.proc.send_signal(signal.SIGUSR2)
        server["health1"], server["cpu1"] = child.health(), child.cpu_split()
        server["busy1"], server["others1"] = machine_busy(), [o.cpu() for o in others]
    while len(results) < len(procs):
        msg = out.get(timeout=600)
        if "failed" in msg:
            raise RuntimeError(msg["failed"])
        if "ready" not in msg:
            results.append(msg)
    for proc in procs:
        proc.join(30)
    server["memory"] = child.memory()
    merged: dict[str, Any] = {"intents": 0, "latencies": [], "errors": {}, "games": 0}
    for r in results:
        merged["intents"] += r["intents"]
        merged["latencies"] += r["latencies"]
        merged["games"] += r["games"]
        for code, n in r["errors"].items():
            merged["errors"][code] = merged["errors"].get(code, 0) + n
    return merged, server


def machine_busy() -> float:
    """CPU seconds the whole machine has spent busy so far (every core: user, nice,
    system, interrupts; not idle or waiting for I/O), from ``/proc/stat``."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return (sum(fields) - fields[3] - fields[4]) / os.sysconf("SC_CLK_TCK")


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def ms(x: float) -> str:
    return f"{x * 1000:.1f} ms"


CLIENTS = {"1.0": False, "1.1": True}
"""The client versions ``--clients`` names: whether they ask for 1.1's combined updates."""


def throughput(args: argparse.Namespace) -> None:
    """Every target ``--repeat`` times for each client version of ``--clients``, then a
    table: per version and target the medians of the rate, of the server's CPU per
    intent, and of our CPU and rate over the relay's (each ratio within its round)."""
    print(
        f"== throughput: {args.tables} tables of {args.players}, flat out, "
        f"{args.procs} client processes, {args.seconds:g} s window after {args.warmup:g} s, "
        f"{args.repeat} round(s) of every target (each ratio within its round)"
    )
    targets = args.targets.split(",")
    summary: list[tuple[str, str, list[float], list[float], list[float], list[float]]] = []
    for version in args.clients.split(","):
        args.combined = CLIENTS[version]
        print(f"-- clients on protocol {version}" + (" (combined updates)" * args.combined))
        rates: dict[str, list[float]] = {t: [] for t in targets}
        cpus: dict[str, list[float]] = {t: [] for t in targets}
        # ratios only when the relay runs too (``--targets memory`` alone: none)
        ratios: dict[str, list[float]] = {
            t: [] for t in targets if t != "relay" and "relay" in targets
        }
        cpu_ratios: dict[str, list[float]] = {t: [] for t in ratios}
        for round_no in range(1, args.repeat + 1):
            if args.repeat > 1:
                print(f"   round {round_no}")
            for target in targets:
                rate, cpu = _throughput_one(args, target)
                rates[target].append(rate)
                cpus[target].append(cpu)
            if "relay" in rates:
                for target in ratios:
                    ratios[target].append(rates[target][-1] / rates["relay"][-1])
                    cpu_ratios[target].append(cpus[target][-1] / cpus["relay"][-1])
        for target, values in ratios.items():
            print(
                f"ours ({target}) / relay: {statistics.median(values):.2f}"
                + (f"  (rounds: {', '.join(f'{v:.2f}' for v in values)})" * (len(values) > 1))
                + f"; server CPU per intent {statistics.median(cpu_ratios[target]):.2f}x"
                " the relay's"
            )
        for target in targets:
            summary.append(
                (
                    version,
                    target,
                    rates[target],
                    cpus[target],
                    cpu_ratios.get(target, []),
                    ratios.get(target, []),
                )
            )
    med = statistics.median
    print(
        f"summary (medians of {args.repeat} round(s); ratios within each round, "
        "then their median and range):"
    )
    print(
        "| clients | target | intents/s | server CPU per intent "
        "| CPU ours/relay | rate ours/relay |\n|---|---|---|---|---|---|"
    )
    for version, target, rate, cpu, cpu_ratio, ratio in summary:
        print(
            f"| {version} | {target} | {med(rate):.0f} | {med(cpu) * 1e6:.0f} us "
            f"({min(cpu) * 1e6:.0f}-{max(cpu) * 1e6:.0f}) | {spread(cpu_ratio)} | {spread(ratio)} |"
        )


def spread(values: list[float]) -> str:
    """A median of ratios with its range (empty for none)."""
    if not values:
        return ""
    if len(values) == 1:
        return f"{values[0]:.2f}"
    return f"{statistics.median(values):.2f} ({min(values):.2f}-{max(values):.2f})"


def _throughput_one(args: argparse.Namespace, target: str) -> tuple[float, float]:
    """One flat-out run against ``target``; prints its line, returns intents/s and the
    server's CPU seconds per intent."""
    child = Child(target, args)
    try:
        stats, server = drive(child, args, args.tables, warmup=args.warmup, seconds=args.seconds)
    finally:
        child.stop()
    rate: float = stats["intents"] / args.seconds
    lat = stats["latencies"]
    line = (
        f"{target:>7}: {rate:8.0f} intents/s  p50 {ms(pct(lat, 0.5))}  "
        f"p99 {ms(pct(lat, 0.99))}  peak RSS {server['memory']['VmHWM'] / 1024:.0f} MiB"
        f"  games {stats['games']}"
    )
    cpu = float("nan")
    if stats["intents"] and "cpu1" in server:
        user, system = (
            (b - a) / stats["intents"] for a, b in zip(server["cpu0"], server["cpu1"], strict=True)
        )
        cpu = user + system
        line += f"  server CPU {cpu * 1e6:.0f} us/intent (kernel {system * 1e6:.0f})"
        rest = (server["busy1"] - server["busy0"]) / stats["intents"] - cpu
        line += f", rest of the machine (the clients) {rest * 1e6:.0f} us/intent"
    if stats["errors"]:
        line += f"  errors {stats['errors']}"
    print(line, flush=True)
    h0, h1 = server.get("health0", {}), server.get("health1", {})
    if "store_writes" in h1 and h1.get("store_commits", 0) > h0.get("store_commits", 0):
        writes = h1["store_writes"] - h0["store_writes"]
        commits = h1["store_commits"] - h0["store_commits"]
        print(
            f"         group commit: {writes} writes in {commits} commits "
            f"({writes / commits:.1f} writes per commit, {commits / args.seconds:.0f} "
            f"commits/s)"
        )
    return rate, cpu


def profile(args: argparse.Namespace) -> None:
    """One flat-out run of our server (no persistence) under cProfile, clients on the
    first version of ``--clients``: the top of the profile by own time."""
    import pstats

    version = args.clients.split(",")[0]
    args.combined = CLIENTS[version]
    print(f"== profile: our server (memory) under cProfile, clients on protocol {version}")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(args.profile_save or Path(tmp) / "server.prof")
        child = Child("memory", args, profile=out)
        try:
            stats, _ = drive(child, args, args.tables, warmup=args.warmup, seconds=args.seconds)
        finally:
            child.stop()
        print(f"  {stats['intents'] / args.seconds:.0f} intents/s under the profiler")
        ps = pstats.Stats(str(out))
        ps.sort_stats("tottime").print_stats(args.profile_top)


def sample(args: argparse.Namespace) -> None:
    """One flat-out run of the relay and one of our server (no persistence), each
    sampled by CPU time over the window (``bench/_cpusample.py``), clients on the first
    version of ``--clients``: the CPU per intent of the top functions by their own time
    (the C code and system calls they make included) side by side, and ours by the time
    in a function and all it calls."""
    version = args.clients.split(",")[0]
    args.combined = CLIENTS[version]
    print(
        f"== sample: CPU time per intent by function (bench/_cpusample.py), relay and ours "
        f"(memory), clients on protocol {version}"
    )
    profiles = {}
    with tempfile.TemporaryDirectory() as tmp:
        for target in ("relay", "memory"):
            child = Child(target, args, sample=Path(tmp) / f"{target}.samples")
            try:
                stats, _ = drive(child, args, args.tables, warmup=args.warmup, seconds=args.seconds)
            finally:
                child.stop()
            assert child.sample is not None
            profile = read_samples(child.sample)
            per = 1e6 / max(1, stats["intents"])
            profiles[target] = (profile, per)
            print(
                f"  {target:>6}: {stats['intents'] / args.seconds:.0f} intents/s, "
                f"{profile.cpu * per:.1f} us per intent sampled ({profile.samples} samples)"
            )
    (relay, per_relay), (ours, per_ours) = profiles["relay"], profiles["memory"]
    top = [name for name, _ in ours.own.most_common(args.profile_top)]
    top += [name for name, _ in relay.own.most_common(args.profile_top) if name not in top]
    print(f"  own time, us per intent: {'relay':>8} {'ours':>8}")
    for name in top:
        print(f"    {relay.own[name] * per_relay:8.1f} {ours.own[name] * per_ours:8.1f}  {name}")
    print("  ours, time in a function and what it calls, us per intent:")
    for name, seconds in ours.inclusive.most_common(args.profile_top * 2):
        print(f"    {seconds * per_ours:8.1f}  {name}")


def paced(args: argparse.Namespace) -> None:
    n = args.paced_tables
    version = args.clients.split(",")[-1]
    args.combined = CLIENTS[version]
    print(
        f"== paced: {n} tables of {args.players}, one move per table every "
        f"{args.interval:g} s, {args.paced_seconds:g} s window, store {args.paced_store}, "
        f"clients on protocol {version}"
    )
    child = Child(args.paced_store, args)
    try:
        stats, server = drive(
            child,
            args,
            n,
            warmup=args.interval + 1,
            seconds=args.paced_seconds,
            paced=args.interval,
        )
    finally:
        child.stop()
    lat = stats["latencies"]
    print(
        f"  {len(lat)} moves ({len(lat) / args.paced_seconds:.0f}/s): p50 {ms(pct(lat, 0.5))}"
        f"  p99 {ms(pct(lat, 0.99))}  max {ms(max(lat, default=0.0))}"
        f"  peak RSS {server['memory']['VmHWM'] / 1024:.0f} MiB"
        + (f"  errors {stats['errors']}" if stats["errors"] else "")
    )


def memory(args: argparse.Namespace) -> None:
    n = args.idle
    args.combined = CLIENTS[args.clients.split(",")[-1]]
    child = Child("memory", args)
    try:
        time.sleep(1.0)
        before = child.memory()["VmRSS"]
        _, server = drive(child, args, n // args.players, idle=True, seconds=0.0, warmup=0.0)
        after = server["ready_memory"]["VmRSS"]
    finally:
        child.stop()
    conns = n // args.players * args.players
    print(
        f"== memory: {conns} idle connections: RSS {before / 1024:.1f} -> "
        f"{after / 1024:.1f} MiB, {(after - before) / conns:.1f} KiB per idle connection"
    )
    # Freed memory is not given back to the system, so "kept versus swept" cannot be
    # compared; instead play two equal batches on one server (finished tables kept):
    # the first forms the allocator's pools (connections, games), the second's growth is
    # what its finished tables hold.
    child = Child("memory", args)
    try:
        rss = []
        for _ in range(3):
            drive(child, args, args.finished, games=1, seconds=600.0, warmup=0.0)
            time.sleep(1.0)
            rss.append(child.memory()["VmRSS"])
    finally:
        child.stop()
    per = [(b - a) / args.finished for a, b in itertools.pairwise(rss)]
    print(
        f"   finished tables kept in memory (connections closed), RSS after batches of "
        f"{args.finished}: {', '.join(f'{r / 1024:.1f}' for r in rss)} MiB: "
        f"{', '.join(f'{x:.1f}' for x in per)} KiB per finished table"
    )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tables", type=int, default=500)
    p.add_argument("--players", type=int, default=2, choices=[2, 3])
    p.add_argument("--procs", type=int, default=3, help="client processes")
    p.add_argument("--seconds", type=float, default=10.0, help="measured window")
    p.add_argument("--warmup", type=float, default=3.0)
    p.add_argument("--targets", default="relay,memory,sqlite")
    p.add_argument("--repeat", type=int, default=3, help="rounds of the throughput runs")
    p.add_argument("--paced-tables", type=int, default=1000)
    p.add_argument("--paced-seconds", type=float, default=20.0)
    p.add_argument("--paced-store", default="sqlite", choices=["sqlite", "memory", "relay"])
    p.add_argument("--interval", type=float, default=2.0)
    p.add_argument("--idle", type=int, default=1000, help="idle connections")
    p.add_argument("--finished", type=int, default=500, help="finished tables")
    p.add_argument("--compression", default="none", choices=["none", "deflate"])
    p.add_argument(
        "--clients",
        default="1.0,1.1",
        help="client protocol versions of the throughput runs, in turn: 1.0 (events, view"
        " and ack frames) and 1.1 (combined updates, one frame per new state)",
    )
    p.add_argument("--combined", action="store_true", help="the same as --clients 1.1")
    p.add_argument("--profile-top", type=int, default=10, help="lines of the profile")
    p.add_argument("--profile-save", help="keep the profile's cProfile stats in this file")
    p.add_argument("--ws-max-queue", type=int, default=16)
    p.add_argument("--max-output", type=int, default=256 * 1024)
    p.add_argument("--default-gc", action="store_true", help="server without tune_gc()")
    p.add_argument("--only", choices=["throughput", "paced", "memory", "profile", "sample"])
    p.add_argument("--quick", action="store_true", help="a small run to check the bench")
    args = p.parse_args()
    if args.combined:
        args.clients = "1.1"
    args.combined = CLIENTS[args.clients.split(",")[0]]
    if args.quick:
        args.tables, args.paced_tables, args.idle, args.finished = 20, 40, 100, 20
        args.seconds, args.warmup, args.paced_seconds, args.repeat = 3.0, 1.0, 5.0, 1
    print(
        f"bench/load.py on {mp.cpu_count()} cores (shared machine: compare within a run); "
        f"websockets compression={args.compression} max_queue={args.ws_max_queue}, "
        f"server output limit {args.max_output} bytes"
    )
    started = time.monotonic()
    parts = (
        ("throughput", throughput),
        ("paced", paced),
        ("memory", memory),
        ("profile", profile),
        ("sample", sample),
    )
    for name, fn in parts:
        if args.only == name or (args.only is None and name not in ("profile", "sample")):
            fn(args)
    print(f"(took {time.monotonic() - started:.0f} s)")


if __name__ == "__main__":
    main()
