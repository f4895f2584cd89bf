"""The owner's side of its tables' sessions at other nodes.

An intent a session at another node sends (through the ``Bus``) is served here:
``Serving`` finds the table (``NotServed`` if it is not served here any more: the
answer says it ``moved``), applies the intent for the ``RemoteOccupant`` standing for
that session, and answers (``Reply``); a one-way message it refuses is logged and, for
an attachment, sent back (``Refused``) so the session is not left waiting. A seat's
intent from a session that is not attached here (the table was adopted after its
attachment) is answered ``moved`` too: its node attaches again, then asks again. The
occupant frames whatever the table delivers exactly as a local session would, with
``seq`` 0, and sends it to the session's node, which splices in the connection's own
``seq``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any

from pydantic import BaseModel

from protocol.wire import encode_as

from ..core.errors import failed
from ..core.intents import Detach, Join, Leave, Play, Resume, Watch
from ..core.table import Table, TableError
from ..net.framing import Frame, Framing
from .bus import Bus
from .messages import (
    CloseTable,
    FrameFor,
    IntentFor,
    Moved,
    Refused,
    Rematched,
    Replaced,
    Reply,
    encode,
)

__all__ = ["NotServed", "RemoteOccupant", "Serving"]

log = logging.getLogger("kupferkessel.cluster")


class NotServed(Exception):
    """The table is not (or no longer) served by the node that was asked."""


class RemoteOccupant(Framing):
    """On the owner: a session of another node (``session_node``) at one of our tables. It
    frames what the table delivers exactly as a local session would (``Framing``, for
    the protocol version and ``combined`` mode the session agreed on at its hello, sent
    along when it attached), with ``seq`` 0, and sends the frames to the session's
    node."""

    def __init__(
        self,
        serving: Serving,
        session_node: str,
        handle_id: str,
        minor: int = 0,
        combined: bool = False,
    ) -> None:
        self.serving = serving
        self.session_node = session_node
        self.handle_id = handle_id
        self.minor = minor
        self.combined = combined
        self.closing = False
        self.at: str | None = None  # the table it was last put at (a rematch moves it)

    def send(self, message: BaseModel | Frame, re: int | None = None) -> None:
        if isinstance(message, BaseModel):
            frame = encode_as(type(message), message, seq=0, re=re)
        else:
            frame = message(0)
        self.serving.bus.send(self.session_node, encode(FrameFor(self.handle_id, frame)))

    def deliver_rematch(self, table: Table, new: Table, seat: int | None) -> bool:
        """The session follows to the rematch's new table (served here too), as a local
        session does: its node makes its remote table the new one and sends it
        ``rematched`` (1.0 knows no rematch: such a session stays, as on one node)."""
        if self.minor == 0:
            return False
        seats = [[s.name, s.bot] for s in new.seats]
        rematched = Rematched(self.handle_id, new.id, new.created, seat, seats)
        self.serving.bus.send(self.session_node, encode(rematched))
        self.at = new.id
        return True

    def replaced(self, table: Table, seat: int) -> None:
        self.serving.bus.send(self.session_node, encode(Replaced(self.handle_id, seat)))
        self.serving.occupants.pop((self.session_node, self.handle_id), None)

    async def stop(self) -> None:
        """Nothing runs here (the session lives at its own node)."""


class Serving:
    """Our tables' sessions at other nodes (by their node and session id)."""

    def __init__(
        self, bus: Bus, tables: Callable[[], Mapping[str, Table]], stopping: Callable[[], bool]
    ) -> None:
        self.bus = bus
        self._tables = tables  # the tables served here
        self._stopping = stopping  # the node is stopping: nothing is served any more
        self.occupants: dict[tuple[str, str], RemoteOccupant] = {}  # (session node, handle_id)
        self.served = 0  # intents of other nodes' sessions served here (for the metrics)

    def forget(self, table: Table) -> set[str]:
        """``table`` is not served here any more: forget its sessions of other nodes;
        returns their nodes (to be told the table ``moved``)."""
        session_nodes = set()
        for _, occ in table.telling.occupants():
            if isinstance(occ, RemoteOccupant):
                session_nodes.add(occ.session_node)
                self.occupants.pop((occ.session_node, occ.handle_id), None)
        return session_nodes

    async def serve(self, src: str, msg: IntentFor) -> None:
        """Serve the intent ``msg`` from node ``src``; answer it if it asks (``rid``)."""
        intent, rid, session_node = msg.intent, msg.rid, msg.front or src
        self.served += 1
        result: Any = None
        refused: TableError | None = None
        moved, answered = False, None
        try:
            table = self._tables().get(msg.table)
            if table is None or self._stopping():
                raise NotServed
            key = (session_node, msg.handle_id)
            occ = self.occupants.get(key)
            if occ is None:
                if intent.seat_only:
                    # a seat's intent from a session not attached here: the table came
                    # here (adopted) after its attachment, or the attachment came while
                    # the table was still on its way (answered ``moved``, as this is);
                    # ``moved`` makes its node attach again first, then ask again
                    raise NotServed
                occ = RemoteOccupant(
                    self, session_node, msg.handle_id, msg.minor or 0, msg.combined
                )
                self.occupants[key] = occ
            if isinstance(intent, Join | Watch) and not table.invite_ok(msg.invite):
                raise TableError(
                    "no_such_table", "no such table here (a private table needs its invite code)"
                )
            moved_on = occ.at not in (None, table.id)  # a rematch moved it on
            result = await table.apply(occ, intent)
            match intent:
                case Join():
                    occ.at, result = table.id, list(result)
                case Watch() | Resume():
                    occ.at = table.id
                case Play(re=re):
                    result, answered = result.version, (None if re is None else result.answered)
                case Leave() | Detach() if not moved_on:
                    self.occupants.pop(key, None)
        except NotServed:
            moved = True
            if rid is None:
                self.bus.send(session_node, encode(Moved(msg.table)))
        except TableError as e:
            refused = e
            if rid is None:  # a one-way message: never refused in silence
                log.warning(
                    "refused %s from another node",
                    intent.kind,
                    extra={"table": msg.table, "node": session_node, "code": e.code},
                )
                if isinstance(intent, Watch | Resume):  # its session waits for frames: tell it
                    told = Refused(msg.table, msg.handle_id, e.code, e.message)
                    self.bus.send(session_node, encode(told))
        except Exception as e:  # a bug (logged), or the store out of reach: ``failed``
            refused = failed(e, log, f"internal error serving {intent.kind}", {"table": msg.table})
        if rid is not None:
            reply = Reply(rid, result, None, moved, answered)
            if refused is not None:  # its particulars too (``field``, ``limit``...)
                reply = Reply.refusing(rid, refused)
            self.bus.send(session_node, encode(reply))

    def unreadable(self, src: str, raw: dict[str, Any]) -> None:
        """A message this node cannot read (a kind it does not know, a field missing):
        a request (an intent of a newer node) is refused, never left waiting."""
        kind = raw.get("k")
        log.warning("unreadable message from another node", extra={"node": src, "kind": kind})
        if raw.get("rid") is not None:
            refusal = ("not_allowed", f"{kind} is not a cluster intent", None)
            self.bus.send(raw.get("front", src), encode(Reply(raw["rid"], error=refusal)))

    async def close(self, src: str, msg: CloseTable) -> None:
        """The operator at node ``src`` closes one of our tables (``admin close``): the
        reply is the ending and the winners, the refusal, or ``moved``."""
        table = self._tables().get(msg.table)
        if table is None or self._stopping():
            self.bus.send(src, encode(Reply(msg.rid, moved=True)))
            return
        try:
            ending, winners = await table.end_by_operator(msg.resign)
            reply = Reply(msg.rid, [ending, winners])
            log.info("closed for another node's operator", extra={"table": msg.table, "node": src})
        except TableError as e:
            reply = Reply.refusing(msg.rid, e)
        except Exception:
            log.exception("internal error closing a table", extra={"table": msg.table})
            reply = Reply(msg.rid, error=("internal", "the table's node failed to close it", None))
        self.bus.send(src, encode(reply))
