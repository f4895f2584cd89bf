"""Real PostgreSQL and Redis servers for the tests, each in a temporary directory on a
free loopback port (no mocks: Debian's own ``postgresql`` and ``redis-server``; CI
installs them, see ``.ci/run``).

PostgreSQL refuses to run as root: as root, its commands run as the ``postgres`` user
(``runuser``) in a directory owned by it. For the tests it runs with ``fsync=off``
(they kill processes, not machines; durability across a power loss is PostgreSQL's own
promise); ``bench/cluster.py`` runs it with ``fsync=on``, as in production.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import subprocess
import tempfile
import time
import uuid
from pathlib import Path

import redis

from bench.ports import free_port

__all__ = ["Postgres", "Redis"]


def _pg_bin() -> Path:
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda p: int(p.split("/")[4])
    )
    if found:
        return Path(found[-1]).parent
    which = shutil.which("pg_ctl")
    if which:
        return Path(which).parent
    raise RuntimeError(
        "PostgreSQL server binaries not found (apt-get install postgresql; .ci/run does)"
    )


class Postgres:
    """A throw-away PostgreSQL cluster; ``database()`` makes a fresh database."""

    def __init__(
        self, *, fsync: bool = False, superuser: str = "kk", host_auth: str = "trust"
    ) -> None:
        self.fsync = fsync  # off for tests; on for benchmarks (as in production)
        self.superuser = superuser  # the role initdb makes
        self.host_auth = host_auth  # TCP logins: trust, or scram-sha-256 as Debian's
        self.bin = _pg_bin()
        self.dir = Path(tempfile.mkdtemp(prefix="kk-pg-"))
        self.port = free_port()
        self.as_root = os.geteuid() == 0
        if self.as_root:
            shutil.chown(self.dir, "postgres", "postgres")

    def _run(self, *argv: str) -> None:
        cmd = [str(self.bin / argv[0]), *argv[1:]]
        if self.as_root:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        subprocess.run(cmd, check=True, capture_output=True, cwd=self.dir)

    def start(self) -> Postgres:
        """Make the cluster and start it. A port another program took first (the
        machine is shared; tests run in parallel) fails the start: then it starts again
        on another port. ``pg_ctl -w`` waits for this server itself (its pid file and
        socket directory), never for another one on the port."""
        data = self.dir / "data"
        auth = ["--auth-local=trust", f"--auth-host={self.host_auth}"]
        if self.host_auth != "trust":  # initdb wants the superuser's password then
            secret = self.dir / "superuser.pw"
            secret.write_text(uuid.uuid4().hex + "\n")
            if self.as_root:
                shutil.chown(secret, "postgres", "postgres")
            auth.append(f"--pwfile={secret}")
        self._run("initdb", "-D", str(data), "-U", self.superuser, *auth, "-E", "UTF8", "--no-sync")
        for _ in range(5):
            log = self.dir / "log"
            try:
                self.resume()
                return self
            except subprocess.CalledProcessError:
                said = log.read_text(errors="replace") if log.exists() else ""
                if "could not bind" not in said and "could not create" not in said:
                    raise  # not a port taken
                log.unlink()
                self.port = free_port()
        raise RuntimeError("PostgreSQL did not start")

    def resume(self) -> None:
        """Start the server (again, after ``halt``) on its port."""
        opts = (
            f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1"
            " -c max_connections=200 -c shared_buffers=32MB"
        )
        opts += (
            " -c fsync=on -c full_page_writes=on"
            if self.fsync
            else " -c fsync=off -c full_page_writes=off"
        )
        data, log = self.dir / "data", self.dir / "log"
        self._run("pg_ctl", "-D", str(data), "-l", str(log), "-w", "-o", opts, "start")

    def halt(self) -> None:
        """Stop the server as an operator does (``pg_ctl stop -m fast``: every session
        ended, the data kept); ``resume`` starts it again."""
        self._run("pg_ctl", "-D", str(self.dir / "data"), "-m", "fast", "-w", "stop")

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://kk@127.0.0.1:{self.port}/{database}"

    def database(self) -> str:
        """A new empty database; its URL."""
        import psycopg

        name = "t_" + uuid.uuid4().hex[:12]
        with psycopg.connect(self.url(), autocommit=True) as con:
            con.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            self._run("pg_ctl", "-D", str(self.dir / "data"), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.dir, ignore_errors=True)


class Redis:
    """A throw-away redis-server with no persistence; ``restart()`` empties it."""

    def __init__(self) -> None:
        exe = shutil.which("redis-server")
        if exe is None:
            raise RuntimeError("redis-server not found (apt-get install redis-server, as .ci/run)")
        self.exe = exe
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, *, same_port: bool = False) -> Redis:
        """Start it and wait until it answers. The answer must come from this very
        process: on a shared machine another program may take the free port first
        (this one then fails to bind and exits), and its server must never pass for
        ours; then it starts again on another port (unless ``same_port``)."""
        for _ in range(5):
            self.proc = subprocess.Popen(
                [
                    *(self.exe, "--port", str(self.port), "--bind", "127.0.0.1"),
                    *("--save", "", "--appendonly", "no", "--protected-mode", "no"),
                ],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            if self._answers():
                return self
            self.stop()
            if same_port:
                break
            self.port = free_port()
        raise RuntimeError("redis-server did not start")

    def _answers(self) -> bool:
        """Whether our process serves the port (False once it has exited)."""
        assert self.proc is not None
        deadline = time.monotonic() + 10
        client = redis.Redis(port=self.port, socket_timeout=1, socket_connect_timeout=0.2)
        try:
            while time.monotonic() < deadline and self.proc.poll() is None:
                with contextlib.suppress(redis.RedisError, OSError):
                    return bool(client.info("server")["process_id"] == self.proc.pid)
                time.sleep(0.05)
            return False
        finally:
            client.close()

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None

    def restart(self) -> None:
        """Kill it and start it again on the same port, empty (nothing was saved)."""
        self.stop()
        self.start(same_port=True)
