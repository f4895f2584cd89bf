"""Table options (RULES.md section 10), validated in one place."""

from __future__ import annotations

import dataclasses
from dataclasses import asdict, dataclass, fields
from typing import Any, Literal, get_args

from .cards import THIRD_COLOURS, ThirdColour
from .errors import SetupError

__all__ = ["MEMORY_MODES", "START_CARD_MODES", "Memory", "Options", "StartCard"]

StartCard = Literal["no_player_colors", "not_own_color"]
"""How a starting kettle card is drawn (section 3)."""
Memory = Literal["strict", "casual"]
"""``casual``: each seat sees its own whole kettle."""
START_CARD_MODES: tuple[StartCard, ...] = get_args(StartCard)
MEMORY_MODES: tuple[Memory, ...] = get_args(Memory)


@dataclass(frozen=True, slots=True)
class Options:
    """The options of one table. ``seed`` is None until a deal is made; it is secret
    (it fixes the deck order) and never appears in any view."""

    players: int = 2
    recipes: bool = False
    start_card: StartCard = "no_player_colors"
    memory: Memory = "strict"
    third_colour: ThirdColour = "lilac"
    seed: int | None = None
    hints: bool = False
    """A seated person may ask the expert for its suggestion (never at a rated table:
    the server refuses that); not a rule of the game, which it does not change."""

    def __post_init__(self) -> None:
        if type(self.players) is not int or self.players not in (2, 3):
            raise SetupError(f"players must be 2 or 3, not {self.players!r}", "bad_option")
        if not isinstance(self.recipes, bool):
            raise SetupError("recipes must be on or off", "bad_option")
        if self.start_card not in START_CARD_MODES:
            raise SetupError(f"start_card must be one of {START_CARD_MODES}", "bad_option")
        if self.memory not in MEMORY_MODES:
            raise SetupError(f"memory must be one of {MEMORY_MODES}", "bad_option")
        if self.third_colour not in THIRD_COLOURS:
            raise SetupError(f"third_colour must be one of {THIRD_COLOURS}", "bad_option")
        if not isinstance(self.hints, bool):
            raise SetupError("hints must be on or off", "bad_option")
        if self.seed is not None and (
            isinstance(self.seed, bool) or not isinstance(self.seed, int)
        ):
            raise SetupError("seed must be an integer", "bad_option")

    @property
    def colours(self) -> tuple[str, ...]:
        """Each seat's colour in turn order: White, Black, then the third colour."""
        if self.players == 2:
            return ("white", "black")
        return ("white", "black", self.third_colour)

    @classmethod
    def from_dict(cls, raw: Any) -> Options:
        """Read options as written in records (``recipes`` may be "on"/"off" or a bool)."""
        if not isinstance(raw, dict):
            raise SetupError("options must be an object", "bad_option")
        known = {"players", "recipes", "start_card", "memory", "third_colour", "hints", "seed"}
        unknown = set(raw) - known
        if unknown:
            raise SetupError(f"unknown option(s): {', '.join(sorted(unknown))}", "bad_option")
        data = dict(raw)
        rec = data.get("recipes", False)
        if rec in ("on", "off"):
            data["recipes"] = rec == "on"
        return cls(**data)

    def to_dict(self, *, public: bool = False) -> dict[str, Any]:
        """The record form (``recipes`` as "on"/"off"; ``hints`` only when on, so that
        records without them read as they always did); ``public`` drops the seed."""
        d = asdict(self)
        d["recipes"] = "on" if self.recipes else "off"
        if not self.hints:
            d.pop("hints")
        if public or self.seed is None:
            d.pop("seed")
        return d

    @classmethod
    def from_args(cls, args: Any) -> Options:
        """The options named by attributes of ``args`` (e.g. command-line arguments of
        the same names; absent ones keep their defaults)."""
        names = [f.name for f in fields(cls)]
        return cls(**{n: getattr(args, n) for n in names if hasattr(args, n)})

    def replace(self, **changes: Any) -> Options:
        """These options with ``changes`` (validated again), without ``asdict``'s deep
        copy."""
        return dataclasses.replace(self, **changes)

    def public(self) -> Options:
        """These options without the seed, as every view shows them: ``replace(seed=None)``,
        but one object for all equal public options, kept here (at most 96: the
        choices of every field but the seed). So a take's views make no copy, and an
        encoder that reuses what it packed for the very same object (``protocol.wire``)
        packs them once (issue 25: ``bench/take.py``, a sixth of a take's cost)."""
        if self.seed is None:
            return self
        key = (
            self.players,
            self.recipes,
            self.start_card,
            self.memory,
            self.third_colour,
            self.hints,
        )
        public = _PUBLIC.get(key)
        if public is None:
            public = _PUBLIC[key] = self.replace(seed=None)
        return public


_PUBLIC: dict[tuple[object, ...], Options] = {}
"""``Options.public``'s options, by every field but the seed."""
