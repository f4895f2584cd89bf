"""The terminal client and the ``kupferkessel`` command (``client.cli``)."""

__kupferkessel__ = True  # ours, not another distribution's (client.packages)
