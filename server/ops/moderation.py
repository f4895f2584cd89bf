"""The operator's mutes and bans: of a player name (by its key) or a client address,
for a time or until lifted, stored durably and checked at every handshake, seat and
chat line.

Theory of operation. ``Moderation`` keeps the sanctions in force in memory (read from
the store at start, ``load``), so a check of a name costs a dictionary look-up, one of
an address a look at each address sanction (few: an operator makes them). An operator's
sanction (``add``, through ``kupferkessel admin``) is stored first, then takes effect:
the sessions it concerns are closed (a ban) at once. A sanction ends at its ``until``
by itself (each check compares with the clock), or early when lifted. Nodes of a
cluster share the store: the node where a sanction is made tells the others at once
(``Server.enforce_here`` at each, through the bus), and each also reloads it every
sweep (``load``), for a node that missed the word. An address sanction names an
address or a CIDR range (``server.ops.addresses``). ``Moderation`` is the sessions'
``Conduct``: ``banned`` and ``muted`` are typed errors, the state untouched.
"""

from __future__ import annotations

import logging
import math
import secrets
import time
import unicodedata
from collections.abc import Callable, Iterable
from typing import Protocol

from ..core.errors import TableError
from ..players.names import name_key
from ..store import Sanction, Store
from .addresses import address_target, covers

__all__ = ["KINDS", "TARGETS", "Moderation", "Sanctioned", "fold", "until_text"]

log = logging.getLogger("kupferkessel.admin")

KINDS = ("mute", "ban")
TARGETS = ("name", "address")


def fold(name: str) -> str:
    """A player name as a sanction keeps it: Unicode-normalized (NFKC), case-folded,
    stripped (``Ａｎｎａ`` is kept as ``anna``). Names are compared by their key
    (``name_key``: look-alikes, case, invisible characters set aside)."""
    return unicodedata.normalize("NFKC", name).casefold().strip()


def until_text(s: Sanction) -> str:
    if s.until is None:
        return "until the operator lifts it"
    return "until " + time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(s.until))


def _refusal(code: str, message: str, s: Sanction) -> TableError:
    """``banned`` or ``muted`` with the end of ``s`` as fields a client says in its words
    (rounded up to the second, so it never reads as over before it is)."""
    until = None if s.until is None else math.ceil(s.until)
    return TableError(code, message, until=until, until_lifted=s.until is None)


class Sanctioned(Protocol):
    """A connection a ban may close: its player name, its address, and how to close."""

    name: str
    address: str

    def close(self, code: int, reason: str) -> None: ...


CLOSE_POLICY = 1008


class Moderation:
    """The sanctions in force here, and the checks of them."""

    def __init__(self, store: Store, now: Callable[[], float] = time.time) -> None:
        self.store = store
        self.now = now
        self._in_force: dict[str, Sanction] = {}  # id -> sanction
        self._by: dict[tuple[str, str, str], Sanction] = {}  # (kind, target, value) -> the latest
        self._addresses: list[Sanction] = []  # of addresses and ranges, the latest first

    # ------------------------------------------------------------------ state
    def load(self) -> list[Sanction]:
        """Read the sanctions in force from the store (at start, and at each refresh);
        returns those not known here before (another node's, for ``enforce``)."""
        found = self.store.load_sanctions(self.now())
        fresh = [s for s in found if s.id not in self._in_force]
        self._set(found)
        return fresh

    def _set(self, sanctions: Iterable[Sanction]) -> None:
        self._in_force = {s.id: s for s in sanctions}
        self._by = {}
        self._addresses = []
        for s in sorted(self._in_force.values(), key=lambda s: s.since):
            self._by[(s.kind, s.target, _compared(s.target, s.value))] = s
            if s.target == "address":
                self._addresses.insert(0, s)  # the latest first

    def in_force(self) -> list[Sanction]:
        now = self.now()
        return sorted(
            (s for s in self._in_force.values() if s.in_force(now)), key=lambda s: s.since
        )

    def _find(self, kind: str, target: str, value: str) -> Sanction | None:
        s = self._by.get((kind, target, value))
        if s is None or not s.in_force(self.now()):
            return None
        return s

    # ------------------------------------------------------------------ checks
    def _find_address(self, kind: str, address: str) -> Sanction | None:
        """The latest ``kind`` in force of an address or range covering ``address``."""
        now = self.now()
        for s in self._addresses:
            if s.kind == kind and s.in_force(now) and covers(s.value, address):
                return s
        return None

    def by_id(self, sanction_id: str) -> Sanction | None:
        """The sanction ``sanction_id`` if it is in force here."""
        s = self._in_force.get(sanction_id)
        return s if s is not None and s.in_force(self.now()) else None

    def banned_address(self, address: str) -> Sanction | None:
        return self._find_address("ban", address)

    def banned(self, name: str, address: str) -> Sanction | None:
        return self._find("ban", "name", name_key(name)) or self.banned_address(address)

    def muted(self, name: str, address: str) -> Sanction | None:
        return self._find("mute", "name", name_key(name)) or self._find_address("mute", address)

    def may_sit(self, name: str, address: str) -> None:
        s = self.banned(name, address)
        if s is not None:
            log.info("refused: banned", extra={"sanction": s.id, "address": address})
            raise _refusal("banned", f"the operator banned {_what(s)} {until_text(s)}", s)

    def may_chat(self, name: str, address: str) -> None:
        self.may_sit(name, address)  # a banned name does not chat either
        s = self.muted(name, address)
        if s is not None:
            log.info("refused: muted", extra={"sanction": s.id, "address": address})
            raise _refusal("muted", f"the operator muted {_what(s)} {until_text(s)}", s)

    # ------------------------------------------------------------------ actions
    async def add(
        self,
        kind: str,
        target: str,
        value: str,
        seconds: float | None,
        reason: str,
        actor: str | None = None,
    ) -> Sanction:
        """Store a new sanction made by ``actor``, then let it take effect (the caller
        closes whom a ban concerns, ``concerns``). ``ValueError`` for a kind, target,
        address (``address_target``) or time that is not one."""
        if kind not in KINDS or target not in TARGETS:
            raise ValueError(f"a sanction is one of {KINDS} of one of {TARGETS}")
        if seconds is not None and not seconds > 0:
            raise ValueError("a sanction lasts more than 0 seconds (or until lifted)")
        value = fold(value) if target == "name" else address_target(value)
        if not value or not _compared(target, value):
            raise ValueError(f"an empty {target} cannot be sanctioned")
        now = self.now()
        s = Sanction(
            id=secrets.token_hex(4),
            kind=kind,
            target=target,
            value=value,
            since=now,
            until=None if seconds is None else now + seconds,
            reason=reason,
            actor=actor,
        )
        await self.store.add_sanction(s)
        self._set([*self._in_force.values(), s])
        return s

    async def lift(self, sanction_id: str) -> Sanction | None:
        """Lift a sanction in force (stored lifted); the sanction, or None if none."""
        s = self._in_force.get(sanction_id)
        if s is None or not await self.store.lift_sanction(sanction_id, self.now()):
            return None
        self._set(x for x in self._in_force.values() if x.id != sanction_id)
        return s

    def concerns(self, s: Sanction, who: Sanctioned) -> bool:
        """Whether sanction ``s`` is about the connection ``who``."""
        if s.target == "address":
            return covers(s.value, who.address)
        return name_key(who.name) == name_key(s.value)

    def enforce(self, s: Sanction, connections: Iterable[Sanctioned]) -> int:
        """A new ban closes every connection it concerns (``bye`` ``banned``, 1008); a
        mute closes nothing. Returns how many were closed."""
        if s.kind != "ban":
            return 0
        closed = 0
        for c in list(connections):
            if self.concerns(s, c):
                log.info(
                    "closed: banned",
                    extra={"sanction": s.id, "player": c.name, "address": c.address},
                )
                c.close(CLOSE_POLICY, f"banned: the operator banned {_what(s)} {until_text(s)}")
                closed += 1
        return closed


def _compared(target: str, value: str) -> str:
    return name_key(value) if target == "name" else value


def _what(s: Sanction) -> str:
    return "this player name" if s.target == "name" else "this address"
