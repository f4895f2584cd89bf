"""The SQL of the operator's sanctions (mutes and bans): the statements that write
them and the read of those in force, for both SQL backends.

Why a module of its own: ``SqlStore`` calls these; the table ``sanctions`` (migration 6,
its ``actor`` migration 11) is read and written here only.
"""

from __future__ import annotations

from typing import Any

from .base import Sanction
from .writer import Op

__all__ = ["add_op", "in_force", "lift_op"]

_COLUMNS = "id, kind, target, value, since, until, reason, lifted, actor"


def add_op(s: Sanction) -> Op:
    return (
        f"INSERT INTO sanctions ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (s.id, s.kind, s.target, s.value, s.since, s.until, s.reason, s.lifted, s.actor),
    )


def lift_op(sanction_id: str, at: float) -> Op:
    return (
        "UPDATE sanctions SET lifted = ? WHERE id = ? AND lifted IS NULL"
        " AND (until IS NULL OR until > ?)",
        (at, sanction_id, at),
    )


def in_force(con: Any, now: float, sanction_id: str | None = None) -> list[Sanction]:
    """The sanctions in force at ``now`` (only ``sanction_id``'s, if given), oldest first;
    ``con`` is the store's reading connection (``?`` placeholders)."""
    sql = f"SELECT {_COLUMNS} FROM sanctions WHERE lifted IS NULL AND (until IS NULL OR until > ?)"
    params: tuple[Any, ...] = (now,)
    if sanction_id is not None:
        sql += " AND id = ?"
        params += (sanction_id,)
    rows = con.execute(sql + " ORDER BY since, id", params).fetchall()
    return [Sanction(*row) for row in rows]
