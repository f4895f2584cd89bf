"""Following OPERATIONS.md literally: the cluster recipe's PostgreSQL user has the
password its URL carries, so the URL authenticates on a PostgreSQL that asks for one
(as Debian's does over TCP); and a rollback across a schema migration meets a server
(and ``ratings``) that refuses the newer schema in one line, exit 2, no traceback."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shlex
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from bench.services import Postgres
from server.commands import ratings
from server.store import open_store
from tests.helpers.config import keep_logging, parse

ROOT = Path(__file__).resolve().parents[2]
OPERATIONS = ROOT / "docs" / "OPERATIONS.md"


def _recipe() -> list[str]:
    """The lines of the cluster section's code block that sets up PostgreSQL."""
    section = OPERATIONS.read_text().split("## A cluster of nodes", 1)[1]
    block = re.search(r"On the database machine[^\n]*\n\n```sh\n(.*?)```", section, re.S)
    assert block is not None, "the cluster section has no PostgreSQL recipe"
    return [line for line in block.group(1).splitlines() if line and not line.startswith("#")]


@pytest.fixture
def asks_passwords() -> Iterator[Postgres]:
    """A PostgreSQL that asks TCP logins for a password (scram-sha-256, as Debian's
    pg_hba.conf does), its superuser ``postgres`` reached over its unix socket."""
    pg = Postgres(superuser="postgres", host_auth="scram-sha-256").start()
    try:
        yield pg
    finally:
        pg.stop()


@pytest.mark.e2e
def test_the_cluster_recipe_makes_a_url_that_authenticates(asks_passwords: Postgres) -> None:
    pg = asks_passwords
    env = {**os.environ, "PGHOST": str(pg.dir), "PGPORT": str(pg.port), "PGUSER": "postgres"}
    url = None
    for line in _recipe():
        if line.startswith("sudo -u postgres "):  # as PostgreSQL's superuser
            argv = shlex.split(line.removeprefix("sudo -u postgres ").split("  #")[0])
            cmd = [str(pg.bin / argv[0]), *argv[1:]]
            if pg.as_root:
                cmd = ["runuser", "-u", "postgres", "--", *cmd]
            subprocess.run(cmd, env=env, check=True, capture_output=True, cwd=pg.dir)
        elif line.startswith("psql "):  # a node's check of the URL it will use
            url = shlex.split(line)[1].replace("@db.internal/", f"@127.0.0.1:{pg.port}/")
    assert url is not None and ":" in url.split("@")[0].removeprefix("postgresql://")
    with psycopg.connect(url) as con:  # the URL's user and password log in over TCP
        assert con.execute("SELECT 1").fetchone() == (1,)
    wrong = re.sub(r":[^:@/]+@", ":wrong@", url)
    with pytest.raises(psycopg.OperationalError, match="password authentication failed"):
        psycopg.connect(wrong).close()
    store = open_store(url, exclusive=False)  # the first node: it creates the schema
    asyncio.run(store.start())
    assert store.schema_version() > 0  # type: ignore[attr-defined]
    asyncio.run(store.close())


def _newer(url: str) -> None:
    """Make the database at ``url`` look migrated by a later release."""
    store = open_store(url)
    asyncio.run(store.start())
    asyncio.run(store.close())
    if url.startswith("postgresql://"):
        with psycopg.connect(url, autocommit=True) as con:
            con.execute("UPDATE schema_version SET version = 99")
    else:
        con = sqlite3.connect(url)
        con.execute("UPDATE schema_version SET version = 99")
        con.commit()
        con.close()


@pytest.mark.e2e
def test_an_older_server_refuses_a_newer_postgresql_schema(
    pg_url: str, capfd: pytest.CaptureFixture[str], request: pytest.FixtureRequest
) -> None:
    from server.commands.serve import run

    _newer(pg_url)
    request.addfinalizer(keep_logging())
    assert run(parse("--port", "0", "--no-admin", "--store", pg_url)) == 2
    err = capfd.readouterr().err
    last = json.loads(err.splitlines()[-1])
    assert last["msg"] == "cannot serve" and "schema version 99, newer than" in last["error"]
    assert "Traceback" not in err


def test_ratings_refuses_a_newer_schema_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "kk.db")
    _newer(db)
    p = argparse.ArgumentParser()
    ratings.add_arguments(p)
    assert ratings.run(p.parse_args(["recompute", "--store", db])) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "schema version 99, newer than this server's" in err
