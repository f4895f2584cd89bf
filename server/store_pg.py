"""The PostgreSQL backend's old import path: ``server.store.postgres`` re-exported.

Why: the store became the package ``server.store``; code that imports
``server.store_pg`` keeps working for one release, then this module goes.
"""

from __future__ import annotations

from .store.postgres import PG_MIGRATIONS, PostgresStore

__all__ = ["PG_MIGRATIONS", "PostgresStore"]
