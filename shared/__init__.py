"""The rules engine of Kupferkessel Co.: the game, its cards, views and bots (standard
library only)."""

__kupferkessel__ = True  # ours, not another distribution's (client.packages)
