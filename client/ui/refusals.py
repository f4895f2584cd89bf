"""A server's refusal and goodbye in the player's language, from the code and fields.

The protocol sends a stable code (``ErrorCode``), a ``detail`` that refines it and,
for a sign-in asked too often, ``retry_after``; the particulars of some refusals as
fields (``field``, ``until``, ``versions``, ``limit``); its ``message`` is English for
logs and is not shown. A code this client does not know (a later minor version may add some)
is said as a refusal with its code.
"""

from __future__ import annotations

import time
from datetime import datetime
from typing import Protocol

from client.i18n import N_, _, fmt_datetime, fmt_duration, fmt_list, ngettext

from ..lib import BadAddress, ConnectionLost, ServerError
from ..lib.address import EXAMPLE

__all__ = [
    "FULL",
    "WAY_BACK",
    "Refusal",
    "address_words",
    "bye_words",
    "client_error_words",
    "error_words",
    "refusal_words",
]

REFUSALS: dict[str, str] = {
    "malformed": N_("The server could not read a message of this client."),
    "unknown_type": N_("The server does not know that request."),
    "invalid_field": N_("The server refused a field of that request."),
    "too_large": N_("That message is too large for the server."),
    "rate_limited": N_("Too many requests: wait a moment and try again."),
    "version_unsupported": N_("The server speaks another version of the protocol."),
    "hello_required": N_("The server expected a greeting first."),
    "not_allowed": N_("That is not allowed now."),
    "not_your_turn": N_("It is not your turn."),
    "stale_state": N_("The game moved on meanwhile: choose again."),
    "illegal_move": N_("That take is not allowed."),
    "bad_token": N_("The seat's token is not valid (any more)."),
    "not_seated": N_("You are not seated at a table."),
    "table_full": N_("That table is full."),
    "seat_taken": N_("That seat is taken."),
    "no_such_table": N_("There is no such table."),
    "bad_invite": N_("The invite code is missing or wrong."),
    "bad_options": N_("The server cannot play a table with these options."),
    "not_in_lobby": N_("The game at that table has started: the seats are set."),
    "not_started": N_("The game has not started yet."),
    "already_seated": N_("You are already seated at a table."),
    "game_over": N_("The game is over."),
    "cannot_claim": N_("No opponent is away: there is no win to claim."),
    "not_finished": N_("The game has not ended yet."),
    "name_taken": N_("That name is taken (or looks like one that is): pick another."),
    "bad_secret": N_("This player's secret is not known to the server."),
    "not_signed_in": N_("Sign in first (m: your player)."),
    "bad_code": N_("That device code is unknown, used or expired."),
    "no_such_player": N_("There is no registered player of that name."),
    "no_such_game": N_("There is no such game, or you may not see it."),
    "no_such_device": N_("That is none of your devices."),
    "server_full": N_("The server is full: no room for another table or connection."),
    "banned": N_("The server's operator has banned this player for a time."),
    "muted": N_("The server's operator has muted this player for a time: no chat."),
    "internal": N_("The server failed on that request (its fault): nothing changed."),
}
"""Every error code of the protocol, in a sentence."""

DETAILS: dict[str, str] = {
    "not_in_line": N_("That card is not in the line your pawn faces."),
    "bad_target": N_("That kettle cannot be hit."),
    "unknown_card": N_("There is no such card."),
    "bad_action": N_("That take is not allowed."),
    "game_over": N_("The game is over."),
    "hints": N_("No hints here: the table allows none, or a computer plays your seat."),
    "seeded": N_("The table's creator chose the deal: join it knowing they may know every card."),
    "protocol_1_0": N_("This needs a newer protocol than the connection speaks."),
    "devices": N_("This player has all the devices the server keeps: revoke one first."),
    "invisible": N_("That name has letters that cannot be seen: pick another."),
    "ambiguous": N_("That name has letters that read as others: pick another."),
    "marks": N_("That name has too many marks on its letters: pick another."),
    "blank": N_("That name is blank: pick another."),
    "mixed_script": N_("That name mixes alphabets: pick another."),
    "store_unavailable": N_("The server cannot reach its database now: try again in a moment."),
    "cluster_unavailable": N_(
        "The server cannot reach its other nodes now: try again in a moment."
    ),
}
"""The ``detail`` that says more than its code: the engine's reason for
``illegal_move``, why ``not_allowed`` or ``invalid_field`` (a name), what ``internal``
could not reach."""

_DETAILED = ("illegal_move", "not_allowed", "invalid_field", "internal")
"""The codes whose ``detail`` is said instead of the code's own sentence."""

FULL: dict[str, str] = {
    "unattended": N_(
        "A game you started is still running with nobody at it:"
        " go back to it, or resign it, before you start another."
    ),
    "lobby": N_(
        "A table you made is still waiting in the lobby:"
        " go back to it, or leave it, before you make another."
    ),
    "bots": N_(
        "Games of computers only that you started are still running:"
        " wait for one to end, or watch it."
    ),
    "tables": N_("This server has all the tables it can hold: try again later."),
}
"""``server_full``'s ``limit`` (1.6): which limit refused a new table, and the way out
(the same sentences as the browser's)."""

WAY_BACK = ("unattended", "lobby")
"""The limits whose way out is the person's own table: back to it."""

GOODBYES: dict[str, str] = {
    "shutdown": N_("the server stops"),
    "idle": N_("the connection was idle too long"),
    "replaced": N_("your seat was taken over by another connection"),
    "server_full": N_("the server has all the connections it can take: try again later"),
}
"""Why a server closes the connection, besides an error code."""


def refusal_words(code: str, detail: str | None = None, retry_after: int | None = None) -> str:
    """A refusal in a sentence: the detail where it says more than the code; a wait
    (``retry_after``) said once, instead of the code's "wait a moment"."""
    if code == "rate_limited" and retry_after:
        return ngettext(
            "Too many requests: try again in {n} second.",
            "Too many requests: try again in {n} seconds.",
            retry_after,
        ).format(n=retry_after)
    if detail in DETAILS and code in _DETAILED:
        return _(DETAILS[detail])
    if code in REFUSALS:
        return _(REFUSALS[code])
    return _("The server refused this ({code}).").format(code=code)


class Refusal(Protocol):
    """What a refusal carries: an ``error`` message, or the library's ``ServerError``."""

    @property
    def code(self) -> str: ...
    @property
    def detail(self) -> str | None: ...
    @property
    def retry_after(self) -> int | None: ...
    @property
    def field(self) -> str | None: ...
    @property
    def until(self) -> int | None: ...
    @property
    def until_lifted(self) -> bool: ...
    @property
    def versions(self) -> tuple[tuple[int, int], ...]: ...
    @property
    def limit(self) -> str | None: ...


SANCTIONS: dict[str, tuple[str, str]] = {
    "banned": (
        N_("The server's operator has banned this player for {left} more, until {when}."),
        N_("The server's operator has banned this player until they lift the ban."),
    ),
    "muted": (
        N_("The server's operator has muted this player for {left} more, until {when}: no chat."),
        N_("The server's operator has muted this player until they lift it: no chat."),
    ),
}
"""A ban's and a mute's sentences: for a time (how long and until when), until lifted."""


def error_words(e: Refusal) -> str:
    """A refusal in a sentence from everything it carries: its particulars where the
    server sent them (the field refused, a sanction's end, the versions spoken, the
    limit that refused a table), else its code and detail (``refusal_words``)."""
    if e.code == "server_full" and e.limit in FULL:
        return _(FULL[e.limit])
    if e.code == "invalid_field" and e.field and e.detail not in DETAILS:
        return _("The server refused the field {field} of that request.").format(field=e.field)
    if e.code in SANCTIONS:
        timed, lifted = SANCTIONS[e.code]
        now = time.time()
        if e.until is not None and e.until > now:  # in the reader's time zone
            when = fmt_datetime(datetime.fromtimestamp(e.until).astimezone())
            return _(timed).format(left=fmt_duration(e.until - now), when=when)
        if e.until_lifted:
            return _(lifted)
    if e.code == "version_unsupported" and e.versions:
        spoken = fmt_list((_versions(*v) for v in e.versions), "or")
        return _("The server speaks only version {versions} of the protocol.").format(
            versions=spoken
        )
    return refusal_words(e.code, e.detail, e.retry_after)


def _versions(major: int, newest: int) -> str:
    """``1.0-1.4``: the versions of a major up to its newest minor."""
    return f"{major}.0-{major}.{newest}" if newest else f"{major}.0"


def bye_words(reason: str) -> str:
    """``server: the server stops``: why the connection was closed."""
    why = (
        _(GOODBYES[reason])
        if reason in GOODBYES
        else refusal_words(reason)
        if reason in REFUSALS
        else reason
    )
    return _("server: {why}").format(why=why)


def client_error_words(error: Exception) -> str:
    """What the client library raised, in a sentence: a server's refusal by its code,
    the connection gone, an address that is no game server's."""
    if isinstance(error, ServerError):
        return error_words(error)
    if isinstance(error, ConnectionLost):
        return _("the connection closed") if "closed" in str(error) else _("not connected")
    if isinstance(error, BadAddress):
        return address_words(error)
    return str(error)


def address_words(error: BadAddress) -> str:
    """Why an address is no game server's, from the library's ``reason``."""
    said = {
        "empty": _("no address: type one like {example}"),
        "bad_port": _("{address} has a bad port: use a number 1-65535"),
        "web_address": _(
            "{address} is a web address; a game server's starts with {scheme}:// (like {example})"
        ),
        "not_ws": _("{address} is not a game server address (like {example})"),
        "no_host": _("{address} names no server: type one like {example}"),
    }.get(error.reason)
    if said is None:
        return str(error)
    scheme = "wss" if error.address.lower().startswith("https") else "ws"
    return said.format(address=repr(error.address), example=EXAMPLE, scheme=scheme)
