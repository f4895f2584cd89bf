"""Cluster figures: PostgreSQL against SQLite, forwarded intents, failover time.

Prints figures, never fails (a benchmark, not a timed test). It starts its own
PostgreSQL (``fsync=on``, as in production) and Redis on loopback (``bench/services.py``)
and drives the servers with the load clients of ``bench/load.py``.

1. One node on PostgreSQL against one node on SQLite, the same run: ``--tables`` tables
   flat out; intents/s, p50/p99 from a ``take`` to the ``view`` of its state, server CPU
   per intent, group commit (writes per commit), and PostgreSQL's rate over SQLite's.
2. Forwarded against local intents: two nodes of a cluster; ``--paced-tables`` tables
   moving every ``--interval`` seconds, their clients on the node that owns them
   (local) or on the other node (forwarded: every intent and frame crosses Redis);
   p50/p99 and what forwarding adds. Then the same flat out: intents/s and the CPU per
   intent of each node (the owner's and the forwarding node's), to plan capacity.
3. Failover: three nodes with ``--failover-tables`` games in progress each; a node is
   SIGKILLed ``--kills`` times (replaced by a new one each time): the time from the
   kill until every table it served is served by another node; p50 and max.
4. Republishing the lobby: two nodes in this process, one holding ``--quiet-tables``
   public tables waiting in the lobby, the other none; what the nodes' upkeep costs per
   round (a third of a lease) while nothing changes, then while ``--changing`` tables
   change each round: Redis commands, bytes into and out of Redis, and the nodes' CPU,
   per second.

Two cores cannot show scaling across nodes: every node, PostgreSQL, Redis and the
clients share them. The CPU per intent of each node is the figure to plan with.

Usage: ``python bench/cluster.py [--tables 500] [--quick]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import msgpack  # type: ignore[import-untyped]
import redis
from websockets.asyncio.client import connect

from bench.load import Child, drive, ms, pct
from bench.services import Postgres, Redis


def load_args(args: argparse.Namespace) -> argparse.Namespace:
    """What ``bench/load.py``'s ``Child`` and ``drive`` read."""
    return argparse.Namespace(
        compression="none",
        ws_max_queue=16,
        max_output=256 * 1024,
        default_gc=False,
        procs=args.procs,
        players=args.players,
        combined=False,  # protocol 1.0 clients (load.py --combined measures 1.1)
    )


def line(name: str, stats: dict[str, Any], server: dict[str, Any], seconds: float) -> str:
    rate = stats["intents"] / seconds
    lat = stats["latencies"]
    out = f"{name:>22}: {rate:7.0f} intents/s  p50 {ms(pct(lat, 0.5))}  p99 {ms(pct(lat, 0.99))}"
    if stats["intents"] and "cpu1" in server:
        cpu = (server["cpu1"] - server["cpu0"]) / stats["intents"]
        out += f"  CPU {cpu * 1e6:.0f} us/intent"
        for i, (a, b) in enumerate(zip(server["others0"], server["others1"], strict=True)):
            out += f" (+ owner node {i + 1}: {(b - a) / stats['intents'] * 1e6:.0f} us/intent)"
    if stats["errors"]:
        out += f"  errors {stats['errors']}"
    return out


def group_commit(server: dict[str, Any]) -> str:
    h0, h1 = server.get("health0", {}), server.get("health1", {})
    writes = h1.get("store_writes", 0) - h0.get("store_writes", 0)
    commits = h1.get("store_commits", 0) - h0.get("store_commits", 0)
    if not commits:
        return ""
    return f"{'':>24}group commit: {writes / commits:.1f} writes per commit"


def stores(args: argparse.Namespace, pg: Postgres) -> None:
    print(
        f"== 1. one node, SQLite against PostgreSQL: {args.tables} tables of {args.players},"
        f" flat out, {args.seconds:g} s window, {args.repeat} round(s)"
    )
    la = load_args(args)
    rates: dict[str, list[float]] = {"sqlite": [], "postgresql": []}
    for _ in range(args.repeat):
        for target in rates:
            extra = {"store": pg.database()} if target == "postgresql" else {}
            child = Child(target, la, finished_ttl=10, **extra)
            try:
                stats, server = drive(
                    child, la, args.tables, warmup=args.warmup, seconds=args.seconds
                )
            finally:
                child.stop()
            rates[target].append(stats["intents"] / args.seconds)
            print(line(target, stats, server, args.seconds), flush=True)
            if gc := group_commit(server):
                print(gc)
    ratio = [p / s for p, s in zip(rates["postgresql"], rates["sqlite"], strict=True)]
    print(
        f"PostgreSQL / SQLite intents/s: {statistics.median(ratio):.2f}"
        f" (rounds: {', '.join(f'{r:.2f}' for r in ratio)}; the goal is at least 0.8)"
    )


def nodes(args: argparse.Namespace, url: str, redis_url: str, n: int) -> list[Child]:
    la = load_args(args)
    return [
        Child(f"node{i}", la, store=url, cluster=redis_url, lease=args.lease, finished_ttl=10)
        for i in range(n)
    ]


def forwarded(args: argparse.Namespace, pg: Postgres, rs: Redis) -> None:
    la = load_args(args)
    print(
        f"== 2. forwarded against local intents: two nodes, {args.paced_tables} tables"
        f" moving every {args.interval:g} s, then {args.tables} tables flat out"
    )
    a, b = nodes(args, pg.database(), rs.url, 2)
    try:
        paced: dict[str, list[float]] = {}
        for name, client_node, create in (("local", a, None), ("forwarded", b, a.port)):
            stats, server = drive(
                client_node,
                la,
                args.paced_tables,
                others=() if create is None else (a,),
                paced=args.interval,
                warmup=args.warmup,
                seconds=args.seconds,
                create_port=create,
            )
            paced[name] = stats["latencies"]
            print(line(f"paced, {name}", stats, server, args.seconds), flush=True)
        for q, label in ((0.5, "p50"), (0.99, "p99")):
            added = pct(paced["forwarded"], q) - pct(paced["local"], q)
            print(f"{'':>24}forwarding adds {ms(added)} at {label}")
        for name, client_node, create in (("local", a, None), ("forwarded", b, a.port)):
            stats, server = drive(
                client_node,
                la,
                args.tables,
                others=() if create is None else (a,),
                warmup=args.warmup,
                seconds=args.seconds,
                create_port=create,
            )
            print(line(f"flat out, {name}", stats, server, args.seconds), flush=True)
    finally:
        a.stop()
        b.stop()


async def _games(port: int, n: int) -> list[str]:
    """``n`` games in progress on the node at ``port``: a person (who never moves) and
    an easy bot at each table."""
    ws = await connect(f"ws://127.0.0.1:{port}/", subprotocols=["kupferkessel.v1"])  # type: ignore[list-item]
    ids = iter(range(1, 10**6))
    made = []

    async def request(msg: dict[str, Any]) -> dict[str, Any]:
        msg["id"] = next(ids)
        await ws.send(msgpack.packb(msg))
        while True:
            got = msgpack.unpackb(await ws.recv())
            if got.get("re") == msg["id"]:
                return got  # type: ignore[no-any-return]

    await request({"type": "hello", "protocol": [1, 0], "client": "failover-bench"})
    for _ in range(n):
        created = await request(
            {
                "type": "create_table",
                "name": "failover",
                "player": "p0",
                "bots": [{"seat": 1, "level": "easy"}],
                "options": {"players": 2},
            }
        )
        made.append(created["table"]["id"])
        await ws.send(msgpack.packb({"type": "ready", "id": next(ids)}))  # the game starts
        await request({"type": "leave"})  # it runs on: the seat stays the player's
    await ws.close()
    return made


def failover(args: argparse.Namespace, pg: Postgres, rs: Redis) -> None:
    print(
        f"== 3. failover: three nodes, {args.failover_tables} games in progress on each,"
        f" {args.kills} SIGKILLs, --lease {args.lease:g}"
    )
    url = pg.database()
    live = nodes(args, url, rs.url, 3)
    r = redis.Redis.from_url(rs.url)
    times: list[float] = []
    counts: list[int] = []
    rng = random.Random(16)
    try:
        tables: list[str] = []
        for node in live:
            tables += asyncio.run(_games(node.port, args.failover_tables))
        time.sleep(args.lease)
        for k in range(args.kills):
            owners = [o.decode() if o else "" for o in r.mget([f"kk:lease:{t}" for t in tables])]
            ids = {n.health()["node"]: n for n in live}
            holding = [n for node_id, n in ids.items() if node_id in owners]
            victim = rng.choice(holding or live)  # a node that serves tables, when one does
            node_id = next(i for i, n in ids.items() if n is victim)
            theirs = [t for t, o in zip(tables, owners, strict=True) if o == node_id]
            victim.proc.kill()
            killed = time.monotonic()
            victim.proc.wait()
            live.remove(victim)
            while theirs:
                owners = r.mget([f"kk:lease:{t}" for t in theirs])
                if all(o is not None and o.decode() != node_id for o in owners):
                    break
                time.sleep(0.01)
            took = time.monotonic() - killed
            if theirs:
                times.append(took)
                counts.append(len(theirs))
            print(f"  kill {k + 1}: {len(theirs)} tables served again after {took:.2f} s")
            live.append(nodes(args, url, rs.url, 1)[0])
            time.sleep(args.lease)
        figures = json.dumps({n.port: n.health().get("node_adopted") for n in live})
        print(f"  tables adopted by the living nodes: {figures}")
    finally:
        for node in live:
            node.stop()
        r.close()
    if times:
        print(
            f"failover after SIGKILL: p50 {statistics.median(times):.2f} s,"
            f" max {max(times):.2f} s over {len(times)} kills"
            f" ({statistics.median(counts):.0f} tables each at the median; lease {args.lease:g} s)"
        )


async def _republish(args: argparse.Namespace, url: str, redis_url: str) -> None:
    from server.app import Server, ServerConfig
    from server.store import open_store
    from shared.options import Options

    r = redis.Redis.from_url(redis_url)
    config = ServerConfig(port=0, cluster=redis_url, lease=args.lease, max_tables=10**6)
    a = Server(config, open_store(url, exclusive=False))
    b = Server(config, open_store(url, exclusive=False))
    await a.start()
    await b.start()
    try:
        made = 0
        while made < args.quiet_tables:
            n = min(50, args.quiet_tables - made)
            await asyncio.gather(*(a.lobby.create("quiet", Options(players=3)) for _ in range(n)))
            made += n
        every = args.lease / 3
        tables = list(a.lobby.tables.values())
        rounds = args.rounds
        for label, changing in (("quiet", 0), (f"{args.changing} changing", args.changing)):
            await asyncio.sleep(3 * every)  # everything published and read once
            r.config_resetstat()
            cpu, began = time.process_time(), time.monotonic()
            for k in range(rounds):
                for table in tables[k * changing : (k + 1) * changing]:
                    await table.add_bot("easy", 0)  # a seat taken: its summary changes
                await asyncio.sleep(every)
            cpu = time.process_time() - cpu
            per = time.monotonic() - began  # seconds
            info = r.info("stats")
            stats = {
                k.removeprefix("cmdstat_"): v["calls"]
                for k, v in r.info("commandstats").items()
                if k != "cmdstat_config"
            }
            calls = sum(stats.values())
            top = sorted(stats.items(), key=lambda kv: -kv[1])[:6]
            listed = sum(len(t.listing()) for t in (b.lobby,))
            print(
                f"  {len(a.lobby.tables)} tables, {label}: per second {calls / per:.0f}"
                f" Redis commands, {info['total_net_input_bytes'] / per / 1024:.1f} KiB into"
                f" Redis, {info['total_net_output_bytes'] / per / 1024:.1f} KiB out of it;"
                f" CPU of both nodes {cpu / per * 1000:.1f} ms per second"
                f" (the other node lists {listed} tables); commands per second: "
                + ", ".join(f"{k} {v / per:.0f}" for k, v in top),
                flush=True,
            )
    finally:
        await a.stop()
        await b.stop()
        r.close()


def republish(args: argparse.Namespace, pg: Postgres, rs: Redis) -> None:
    print(
        f"== 4. republishing the lobby: {args.quiet_tables} quiet tables on one node,"
        f" a second node, --lease {args.lease:g} (a round every {args.lease / 3:.2f} s),"
        f" {args.rounds} rounds"
    )
    asyncio.run(_republish(args, pg.database(), rs.url))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tables", type=int, default=500)
    p.add_argument("--players", type=int, default=2, choices=[2, 3])
    p.add_argument("--procs", type=int, default=2, help="client processes")
    p.add_argument("--seconds", type=float, default=10.0)
    p.add_argument("--warmup", type=float, default=3.0)
    p.add_argument("--repeat", type=int, default=2, help="rounds of part 1")
    p.add_argument("--paced-tables", type=int, default=100)
    p.add_argument("--interval", type=float, default=0.5)
    p.add_argument("--failover-tables", type=int, default=50)
    p.add_argument("--kills", type=int, default=5)
    p.add_argument("--lease", type=float, default=3.0)
    p.add_argument("--quiet-tables", type=int, default=10_000)
    p.add_argument("--changing", type=int, default=20, help="tables changing each round")
    p.add_argument("--rounds", type=int, default=15)
    p.add_argument("--only", choices=["stores", "forwarded", "failover", "republish"])
    p.add_argument("--quick", action="store_true", help="a small run to check the bench")
    args = p.parse_args()
    if args.quick:
        args.tables, args.seconds, args.warmup, args.repeat = 20, 2.0, 1.0, 1
        args.paced_tables, args.failover_tables, args.kills, args.lease = 10, 5, 2, 1.0
        args.quiet_tables, args.changing, args.rounds = 200, 5, 5
    pg = Postgres(fsync=True).start()
    rs = Redis().start()
    try:
        if args.only in (None, "stores"):
            stores(args, pg)
        if args.only in (None, "forwarded"):
            forwarded(args, pg, rs)
        if args.only in (None, "failover"):
            failover(args, pg, rs)
        if args.only in (None, "republish"):
            republish(args, pg, rs)
    finally:
        rs.stop()
        pg.stop()
    print(
        "note: two cores cannot show scaling across nodes (nodes, PostgreSQL, Redis and the"
        " clients share them); plan capacity with the CPU per intent of each node"
    )


if __name__ == "__main__":
    main()
