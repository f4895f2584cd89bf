"""The authoritative server (docs/ARCHITECTURE.md has the map).

``app`` composes one process (``Server``): ``core`` (a table and its game), ``lobby``
(the tables served here, where the others are, the quotas), ``net`` (connections and
their sessions), ``cluster`` (a node among others on PostgreSQL and Redis), ``bots``
(computer players), ``store`` (SQLite, PostgreSQL, or nothing). ``commands`` are the
command line (``serve``, ``admin``, ``export``, ``ratings``). Lower parts never import
higher ones (``pyproject.toml``'s import-linter contracts).
"""

__kupferkessel__ = True  # ours, not another distribution's (client.packages)
