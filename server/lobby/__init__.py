"""The lobby: the tables a process serves (``registry``), where the others are
(``directory``), and what counts against the limits and quotas (``quotas``)."""

from .directory import Directory, LocalDirectory
from .quotas import NO_QUOTAS, Counts, LocalCounts, Quotas
from .registry import INVITE_ALPHABET, Computers, Lobby, new_invite

__all__ = [
    "INVITE_ALPHABET",
    "NO_QUOTAS",
    "Computers",
    "Counts",
    "Directory",
    "Lobby",
    "LocalCounts",
    "LocalDirectory",
    "Quotas",
    "new_invite",
]
