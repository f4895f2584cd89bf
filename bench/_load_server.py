"""Our server for ``bench/load.py``, as a process, with the ``websockets`` settings and
the store under test. The per-connection rate limit is raised so that the benchmark
measures the server, not the limiter (real clients move far slower)."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from protocol.messages import DEFAULT_LIMITS
from server.app import ServerConfig, run_server
from server.commands.serve import tune_gc
from server.lobby import NO_QUOTAS
from server.logs import setup_logging
from server.store import MemoryStore, SqliteStore, Store, open_store


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--db", help="SQLite database (default: no persistence)")
    p.add_argument("--store", help="a store URL (server.store.open_store), e.g. postgresql://")
    p.add_argument("--cluster", help="redis://...: a node of a cluster (needs --store)")
    p.add_argument("--lease", type=float, default=3.0)
    p.add_argument("--compression", choices=["none", "deflate"], default="none")
    p.add_argument("--ws-max-queue", type=int, default=16)
    p.add_argument("--max-output", type=int, default=256 * 1024)
    p.add_argument("--finished-ttl", type=float, default=600.0)
    p.add_argument(
        "--default-gc", action="store_true", help="without server.commands.serve.tune_gc"
    )
    p.add_argument("--profile", help="write cProfile stats of the server to this file")
    p.add_argument("--sample", help="sample by CPU time from SIGUSR1 to SIGUSR2 into this file")
    args = p.parse_args()
    setup_logging("warning")
    limits = DEFAULT_LIMITS.model_copy(update={"rate_messages": 100_000, "rate_burst": 100_000})
    config = ServerConfig(
        port=args.port,
        limits=limits,
        max_connections=100_000,
        max_tables=100_000,
        compression=None if args.compression == "none" else "deflate",
        ws_max_queue=args.ws_max_queue,
        max_output=args.max_output,
        finished_ttl=args.finished_ttl,
        ping_interval=20.0,
        quotas=NO_QUOTAS,  # every load client comes from loopback
        cluster=args.cluster,
        lease=args.lease,
    )
    store: Store = SqliteStore(args.db) if args.db else MemoryStore()
    if args.store:
        store = open_store(args.store, exclusive=args.cluster is None)
    if args.sample:
        from bench._cpusample import install

        install(args.sample)
    if not args.default_gc:
        tune_gc()  # as ``kupferkessel serve`` does
    if args.profile:
        import cProfile

        cProfile.runctx("asyncio.run(run_server(config, store))", globals(), locals(), args.profile)
    else:
        asyncio.run(run_server(config, store))


if __name__ == "__main__":
    main()
