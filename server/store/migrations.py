"""The schema of the SQL stores: one script per version, for SQLite and for PostgreSQL.

Why: the schema is created and migrated by the server itself (``schema_version`` holds
how many scripts ran), so the scripts and their order are the schema's history: a script
is never changed once released, a new version is a new script at the end.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable
from typing import Any

from .base import BadDatabase

__all__ = ["PG_MIGRATIONS", "SQLITE_MIGRATIONS", "migrate"]

log = logging.getLogger("kupferkessel.store")

SQLITE_MIGRATIONS: tuple[str, ...] = (
    # 1: tables, seats, games (set-up) and their append-only actions
    """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    options TEXT NOT NULL,
    private INTEGER NOT NULL,
    invite_hash TEXT,
    created REAL NOT NULL,
    state TEXT NOT NULL,
    finished REAL
);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    token_hash TEXT,
    bot TEXT,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS games (
    table_id TEXT PRIMARY KEY REFERENCES tables(id),
    record TEXT NOT NULL,
    started REAL NOT NULL,
    finished REAL,
    result TEXT
);
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL REFERENCES games(table_id),
    idx INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (table_id, idx)
);
CREATE INDEX IF NOT EXISTS tables_state ON tables(state)
""",
    # 2: ownership (fencing: the store refuses a stale owner's writes) and token look-up
    """
ALTER TABLE tables ADD COLUMN owner TEXT;
ALTER TABLE tables ADD COLUMN epoch INTEGER NOT NULL DEFAULT 0;
CREATE INDEX IF NOT EXISTS seats_token ON seats(token_hash)
""",
    # 3: a table's time rules, and a running game's life beyond its record (who
    # resigned or was replaced, the clocks' reserves)
    """
ALTER TABLE tables ADD COLUMN timing TEXT;
ALTER TABLE games ADD COLUMN life TEXT
""",
    # 4: when each server (or node) last said it was serving (``Store.note_alive``): after a crash
    # a running move resumes with the time it had used by then
    """
CREATE TABLE IF NOT EXISTS alive (
    server TEXT PRIMARY KEY,
    at REAL NOT NULL
)
""",
    # 5: the client address a table counts against (its quotas follow the table when
    # a server restarts or another node of a cluster takes it over)
    """
ALTER TABLE tables ADD COLUMN made_by TEXT
""",
    # 6: the operator's mutes and bans of player names and client addresses, kept after
    # they end or are lifted (``kupferkessel admin``, server.ops.moderation)
    """
CREATE TABLE IF NOT EXISTS sanctions (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    target TEXT NOT NULL,
    value TEXT NOT NULL,
    since REAL NOT NULL,
    until REAL,
    reason TEXT NOT NULL,
    lifted REAL
);
CREATE INDEX IF NOT EXISTS sanctions_value ON sanctions(value)
""",
    # 7: registered players (protocol 1.2): their secrets' hashes, the seats they sat
    # in, rated tables and each rated game's rating changes (``server.players``)
    """
CREATE TABLE IF NOT EXISTS players (
    id TEXT PRIMARY KEY,
    name_key TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    created REAL NOT NULL,
    mu REAL,
    sigma REAL,
    rated_games INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS player_secrets (
    player_id TEXT NOT NULL REFERENCES players(id),
    secret_hash TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS player_secrets_player ON player_secrets(player_id);
CREATE TABLE IF NOT EXISTS player_seats (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    player_id TEXT NOT NULL REFERENCES players(id),
    PRIMARY KEY (table_id, seat)
);
CREATE INDEX IF NOT EXISTS player_seats_player ON player_seats(player_id);
CREATE TABLE IF NOT EXISTS rated_tables (
    table_id TEXT PRIMARY KEY REFERENCES tables(id),
    seq INTEGER
);
CREATE TABLE IF NOT EXISTS rating_changes (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    player_id TEXT NOT NULL REFERENCES players(id),
    mu_before REAL,
    sigma_before REAL,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    PRIMARY KEY (table_id, seat)
);
CREATE INDEX IF NOT EXISTS rating_changes_player ON rating_changes(player_id)
""",
    # 8: one-time device codes (protocol 1.2), hashed, until they expire: any node of a
    # cluster, or the server after a restart, redeems a code another one showed
    """
CREATE TABLE IF NOT EXISTS device_codes (
    code_hash TEXT PRIMARY KEY,
    player_id TEXT NOT NULL REFERENCES players(id),
    expires REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS device_codes_player ON device_codes(player_id);
CREATE INDEX IF NOT EXISTS device_codes_expires ON device_codes(expires)
""",
    # 9: the leaderboard in order without a look at every player: rated players by the
    # rating shown (``mu - 3 * sigma``), best first, equal ones by name key
    """
CREATE INDEX IF NOT EXISTS players_board
    ON players ((mu - 3 * sigma) DESC, name_key COLLATE BINARY) WHERE rated_games > 0
""",
    # 10: a player holds at most one seat of a table, whatever races (two joins at once
    # both passed the server's check before either was stored). A table that has two
    # seats of one player already keeps the link of its lowest seat (such a game never
    # counted for ratings: a rated game counts only with a different player per seat)
    """
DELETE FROM player_seats WHERE EXISTS (
    SELECT 1 FROM player_seats o
    WHERE o.table_id = player_seats.table_id AND o.player_id = player_seats.player_id
    AND o.seat < player_seats.seat
);
CREATE UNIQUE INDEX IF NOT EXISTS player_seats_once ON player_seats(table_id, player_id)
""",
    # 11: who made each sanction (the admin socket's peer), for the audit
    """
ALTER TABLE sanctions ADD COLUMN actor TEXT
""",
)

# 12: a player's history at the cost of a page (keyset paging: no offset, and counters
# instead of counting): a row per registered seat of each finished game, numbered in
# the order results were stored, by when it finished (milliseconds); the players'
# games, wins and public games counted as each result is stored, and the private games
# each two players played together (what one may see of the other's). Filled from the games
# stored so far (one pass over the players' seats: OPERATIONS.md says how long).
_HISTORY = """
CREATE TABLE IF NOT EXISTS history (
    n {serial},
    player_id TEXT NOT NULL REFERENCES players(id),
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    finished BIGINT NOT NULL,
    private INTEGER NOT NULL,
    UNIQUE (table_id, seat)
);
CREATE INDEX IF NOT EXISTS history_player ON history(player_id, finished, n);
CREATE INDEX IF NOT EXISTS history_public ON history(player_id, private, finished, n);
ALTER TABLE players ADD COLUMN games INTEGER NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN wins INTEGER NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN public_games INTEGER NOT NULL DEFAULT 0;
INSERT INTO history (player_id, table_id, seat, finished, private)
    SELECT ps.player_id, ps.table_id, ps.seat, CAST(ROUND(g.finished * 1000) AS BIGINT), t.private
    FROM player_seats ps JOIN games g ON g.table_id = ps.table_id
    JOIN tables t ON t.id = ps.table_id
    WHERE g.finished IS NOT NULL ORDER BY g.finished, ps.table_id, ps.seat;
CREATE TABLE IF NOT EXISTS shared_private (
    player_id TEXT NOT NULL REFERENCES players(id),
    other_id TEXT NOT NULL REFERENCES players(id),
    games INTEGER NOT NULL,
    PRIMARY KEY (player_id, other_id)
);
INSERT INTO shared_private (player_id, other_id, games)
    SELECT a.player_id, b.player_id, COUNT(*) FROM history a
    JOIN history b ON b.table_id = a.table_id AND b.player_id != a.player_id
    WHERE a.private = 1 GROUP BY a.player_id, b.player_id;
UPDATE players SET
    games = (SELECT COUNT(*) FROM history h WHERE h.player_id = players.id),
    public_games = (
        SELECT COUNT(*) FROM history h WHERE h.player_id = players.id AND h.private = 0
    ),
    wins = (
        SELECT COUNT(*) FROM history h JOIN games g ON g.table_id = h.table_id
        WHERE h.player_id = players.id AND {won}
    )
"""
SQLITE_MIGRATIONS += (
    _HISTORY.format(
        serial="INTEGER PRIMARY KEY AUTOINCREMENT",
        won="json_extract(g.result, '$.ending') IS NOT 'abandoned'"
        " AND json_extract(g.result, '$.places[' || h.seat || ']') = 1",
    ),
)
_PG_OWN = {
    len(SQLITE_MIGRATIONS) - 1: _HISTORY.format(
        serial="BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY",
        won="(g.result::jsonb ->> 'ending') IS DISTINCT FROM 'abandoned'"
        " AND (g.result::jsonb -> 'places' -> h.seat) = '1'::jsonb",
    )
    + (  # a number per player, SQLite's rowid: what a leaderboard cursor names
        ";\nALTER TABLE players ADD COLUMN num BIGINT GENERATED ALWAYS AS IDENTITY"
        ";\nCREATE UNIQUE INDEX IF NOT EXISTS players_num ON players(num)"
    )
}
"""PostgreSQL's own form of the scripts that differ from ``_pg``'s (by index)."""

# 13: a player's devices (protocol 1.3): each secret's device id, label and last sign-in,
# and its tag (a byte derived from the secret, unique per player) that finds the one
# hash a secret can match. Secrets kept before have no tag (a sign-in that matches one
# gives it its tag) and a device id from their hash's random salt
SQLITE_MIGRATIONS += (
    """
ALTER TABLE player_secrets ADD COLUMN device TEXT;
ALTER TABLE player_secrets ADD COLUMN tag INTEGER;
ALTER TABLE player_secrets ADD COLUMN label TEXT NOT NULL DEFAULT 'earlier';
ALTER TABLE player_secrets ADD COLUMN last_used REAL;
UPDATE player_secrets SET device = 'e' || substr(secret_hash, 18, 15) WHERE device IS NULL;
CREATE UNIQUE INDEX IF NOT EXISTS player_secrets_tag
    ON player_secrets(player_id, tag) WHERE tag IS NOT NULL;
CREATE INDEX IF NOT EXISTS player_secrets_device ON player_secrets(player_id, device)
""",
)


# 14: the expert's analysis of a finished game (protocol 1.5's ``analysis``), made once
# at the first request and answered from here after
SQLITE_MIGRATIONS += (
    """
CREATE TABLE IF NOT EXISTS analyses (
    table_id TEXT PRIMARY KEY REFERENCES games(table_id),
    budget INTEGER NOT NULL,
    analysis TEXT NOT NULL,
    made REAL NOT NULL
)
""",
)


def _pg(script: str) -> str:
    """A migration written for SQLite in PostgreSQL's types (times as float8) and
    collations (code point order: SQLite's ``BINARY``, PostgreSQL's ``"C"``)."""
    return script.replace(" REAL", " DOUBLE PRECISION").replace(" COLLATE BINARY", ' COLLATE "C"')


PG_MIGRATIONS = tuple(_PG_OWN.get(i) or _pg(script) for i, script in enumerate(SQLITE_MIGRATIONS))


def migrate(
    cur: Any,
    scripts: tuple[str, ...],
    sql: Callable[[str], str],
    *,
    first: Callable[[Any], None],
) -> None:
    """Bring the schema to the newest version of ``scripts`` in the transaction ``cur``
    has begun, and end it: ``first(cur)`` (the backend holding other servers'
    migrations off), each script not yet run, in order, then the version (``sql``: a
    statement written with ``?`` in the backend's dialect). A database newer than
    ``scripts`` is refused (``BadDatabase``), unchanged."""
    try:
        first(cur)
        cur.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        cur.execute("SELECT version FROM schema_version")
        row = cur.fetchone()
        version = 0 if row is None else int(row[0])
        if version > len(scripts):
            raise BadDatabase(
                f"the database has schema version {version}, newer than this server's"
                f" {len(scripts)}: upgrade the server"
            )
        for script in scripts[version:]:
            for statement in script.split(";"):
                if statement.strip():
                    cur.execute(statement)
        newest = (len(scripts),)
        if row is None:
            cur.execute(sql("INSERT INTO schema_version VALUES (?)"), newest)
        elif version != newest[0]:
            cur.execute(sql("UPDATE schema_version SET version = ?"), newest)
        cur.execute("COMMIT")
    except BaseException:
        with contextlib.suppress(Exception):
            cur.execute("ROLLBACK")
        raise
    if version != len(scripts):
        log.info("schema migrated", extra={"from": version, "to": len(scripts)})
