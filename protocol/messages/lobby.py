"""Tables as the lobby shows them: options, timing, seats, summaries, bot seats.

What ``create_table`` asks for and what ``tables`` and ``presence`` list, in one place.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, field_validator

from shared.cards import ThirdColour
from shared.options import Memory, StartCard
from shared.result import SeatEnding

from .base import Model
from .fields import MAX_ID, BotLevel, SeatNo, Seconds, TableState

__all__ = ["BotSeat", "SeatInfo", "TableOptions", "TableSummary", "Timing"]


class Timing(Model):
    """1.1: a table's time rules (RULES.md section 12.5), chosen at ``create_table`` and
    listed in ``tables``. Without ``move`` there is no clock."""

    move: Annotated[int, Field(ge=1, le=86400)] | None = None
    """Seconds per move; when they (and the reserve) run out, a computer player moves
    for the seat. Absent: no clock."""
    reserve: Seconds = 0
    """Seconds each seat may use beyond its move times, over the whole game."""
    grace: Seconds = 60
    """Seconds a disconnected seat waits before a computer player takes it over."""
    absent_after: Annotated[int, Field(ge=1, le=100)] = 3
    """Expiries in a row after which a seat counts as absent."""


class TableOptions(Model):
    """Table options (RULES.md section 10). ``seed`` is accepted from ``create_table``
    for a reproducible deal (the server may refuse it with ``bad_options``) and is never
    sent by the server: it fixes the secret deck order."""

    players: Literal[2, 3] = 2
    """2 or 3 seats (RULES.md section 7)."""
    recipes: bool = False
    """The recipe variant (section 8)."""
    start_card: StartCard = "no_player_colors"
    """How a starting kettle card is drawn (section 3)."""
    memory: Memory = "strict"
    """``casual``: each seat sees its own whole kettle."""
    third_colour: ThirdColour = "lilac"
    """The third seat's colour (3 players)."""
    seed: Annotated[int, Field(ge=0, le=MAX_ID)] | None = None
    """Client to server only: a reproducible deal. Never sent by a server."""
    hints: bool = False
    """1.5: a seated person may ask for the expert's suggestion (``ask_hint``); never
    at a rated table (``bad_options``). Sent only when on."""

    @field_validator("players", mode="before")
    @classmethod
    def _players_is_an_integer(cls, value: Any) -> Any:
        """A literal 2 or 3 matches the float 2.0 too (equal numbers): integers only,
        as for every other number of the protocol."""
        if type(value) is not int:
            raise ValueError("must be the integer 2 or 3")
        return value


class SeatInfo(Model):
    """One seat of a table as everyone may see it."""

    seat: int
    name: str | None = None
    """Absent while the seat is empty."""
    connected: bool = False
    """A person (or bot) is connected for this seat now."""
    bot: str | None = None
    """The bot level, when a bot plays this seat."""
    ready: bool = False
    """Ready to start (lobby)."""
    resigned: bool = False
    """The seat resigned the game."""
    absent: bool = False
    """1.1: the seat's person is away (disconnected past the grace period, or its time
    ran out several moves in a row)."""
    computer: bool = False
    """1.1: a computer player plays this person's seat now (absent, or resigned with
    three players)."""
    rematch: bool = False
    """1.1: after the end, this seat asked for a rematch."""
    registered: bool = False
    """1.2: a registered player sits here, signed in as this name (not merely someone
    who typed it)."""
    computer_takes: int = 0
    """1.4: how many takes a computer player made for this person's seat so far
    (standing in while the person was away, after its time ran out, or after it
    resigned with three players). A server-side bot's own seat counts none."""
    ended: SeatEnding | None = None
    """1.4, once the game has ended: how it ended for this seat: ``played_out`` (it
    played on to the end, whatever ended the game), ``resigned``, ``timed_out`` (its
    time ran out in a row until the computer took the seat over), ``claimed`` (it
    claimed the win), ``lost_claim`` (its opponent claimed the win while it was away),
    ``abandoned`` (nobody stayed: no result counts)."""
    rating_before: float | None = None
    """1.4, at a finished rated table whose game changed this seat's rating: the
    player's rating before the game (absent: it had none, its first rated game) ..."""
    rating_after: float | None = None
    """... and after it (``rating`` of ``profile``: mu - 3 sigma)."""


class TableSummary(Model):
    """A table as listed in ``tables``."""

    id: str
    """The table id to ``join`` or ``watch``."""
    name: str
    private: bool
    """Joining or watching needs the invite code."""
    state: TableState
    options: TableOptions
    """The table options (never the seed)."""
    seats: tuple[SeatInfo, ...]
    spectators: int
    """Connections watching."""
    seeded: bool = False
    """The creator chose the deal's seed (``options.seed``), so may know every card of
    it: ``join`` needs ``seeded`` to sit down here."""
    timing: Timing | None = None
    """1.1: the table's clock and grace period."""
    rated: bool = False
    """1.2: a rated table (``create_table.rated``): only signed-in players sit here."""


class BotSeat(Model):
    """A seat to fill with a bot."""

    seat: SeatNo
    level: BotLevel
    """One of ``welcome.bot_levels``."""
