"""Game records (RULES.md section 11): write any game, read one, replay it.

A record fixes a deal (an explicit ``setup``, or a ``seed`` with the options) and the
takes made in it. Reading is strict: a malformed or illegal record raises ``RecordError``
whose ``where`` names the field (``setup.deck[3]``) or the action (``actions[12]``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from .cards import CARD_IDS
from .errors import RecordError, RuleError
from .events import Event
from .game import Game, Setup, Take
from .options import Options
from .result import GameResult, judge
from .scoring import score_game

__all__ = [
    "FORMAT",
    "Record",
    "action_from_dict",
    "action_to_dict",
    "position",
]

FORMAT = "kupferkessel-record/1"
_ACTION_KEYS = {"take", "special", "targets", "keep"}
_SETUP_KEYS = {"grid", "deck", "kettles", "pawns", "recipes", "to_move"}


def action_to_dict(take: Take) -> dict[str, Any]:
    """The record form of a take; fields at their default are left out."""
    d: dict[str, Any] = {"take": take.card}
    if not take.special:
        d["special"] = False
    if take.targets is not None:
        d["targets"] = list(take.targets)
    if not take.keep:
        d["keep"] = False
    return d


def action_from_dict(raw: Any, where: str = "action") -> Take:
    """Read one action; ``RecordError`` naming ``where`` if it is malformed."""
    if not isinstance(raw, dict):
        raise RecordError("an action must be an object", where, "malformed")
    unknown = set(raw) - _ACTION_KEYS
    if unknown:
        raise RecordError(f"unknown field(s) {sorted(unknown)}", where, "malformed")
    card = raw.get("take")
    if not isinstance(card, str):
        raise RecordError("'take' must be a card id", f"{where}.take", "malformed")
    special = raw.get("special", True)
    keep = raw.get("keep", True)
    if not isinstance(special, bool):
        raise RecordError("must be true or false", f"{where}.special", "malformed")
    if not isinstance(keep, bool):
        raise RecordError("must be true or false", f"{where}.keep", "malformed")
    targets = raw.get("targets")
    if targets is not None:
        if not isinstance(targets, list) or any(
            isinstance(t, bool) or not isinstance(t, int) for t in targets
        ):
            raise RecordError("must be a list of seats", f"{where}.targets", "malformed")
        targets = tuple(targets)
    return Take(card, special, targets, keep)


def _setup_from_dict(raw: Any) -> Setup:
    if not isinstance(raw, dict):
        raise RecordError("must be an object", "setup", "malformed")
    unknown = set(raw) - _SETUP_KEYS
    if unknown:
        raise RecordError(f"unknown field(s) {sorted(unknown)}", "setup", "malformed")
    for k in ("grid", "deck", "kettles", "pawns"):
        if not isinstance(raw.get(k), list):
            raise RecordError("missing or not a list", f"setup.{k}", "malformed")
    grid = raw["grid"]
    if len(grid) != 6 or any(not isinstance(r, list) or len(r) != 6 for r in grid):
        raise RecordError("must be 6 rows of 6 slots", "setup.grid", "malformed")
    kettles = raw["kettles"]
    if any(not isinstance(k, list) for k in kettles):
        raise RecordError("each kettle must be a list", "setup.kettles", "malformed")
    recipes = raw.get("recipes", [])
    if not isinstance(recipes, list) or any(not isinstance(h, list) for h in recipes):
        raise RecordError("must be a list of lists", "setup.recipes", "malformed")
    return Setup(
        grid=tuple(tuple(r) for r in grid),
        deck=tuple(raw["deck"]),
        kettles=tuple(tuple(k) for k in kettles),
        pawns=tuple(raw["pawns"]),
        recipes=tuple(tuple(h) for h in recipes),
        to_move=raw.get("to_move", 0),
    )


@dataclass
class Record:
    """A deal and the takes made in it. ``setup`` None means: deal from ``options.seed``."""

    options: Options
    setup: Setup | None
    actions: list[Take] = field(default_factory=list)
    result: GameResult | None = None
    """How the game ended (section 12); None while it runs, and in older records."""

    @classmethod
    def new(cls, options: Options) -> Record:
        """An empty record of the deal ``options.seed`` gives, with its explicit set-up."""
        return cls(options, Game.deal_setup(options), [])

    @classmethod
    def deal(cls, options: Options, events: list[Event] | None = None) -> tuple[Record, Game]:
        """``Record.new(options)`` and its started game, dealt once (a server starting
        a game needs both): the game equals ``record.start(events)``."""
        game = Game._dealt(options)
        record = cls(options, game.position(), [])
        game._advance(events)
        return record, game

    def start(self, events: list[Event] | None = None) -> Game:
        """The game at its start (forced first moves made)."""
        try:
            if self.setup is None:
                return Game.deal(self.options, events)
            return Game.from_setup(self.options, self.setup, events)
        except RuleError as e:
            raise RecordError(e.message, "setup", e.code) from e

    def replay(self, upto: int | None = None, events: list[Event] | None = None) -> Game:
        """Replay the first ``upto`` actions (all by default); ``RecordError`` names the
        first action that is illegal."""
        game = self.start(events)
        for i, take in enumerate(self.actions[:upto]):
            try:
                game.apply(take, events=events)
            except RuleError as e:
                raise RecordError(e.message, f"actions[{i}]", e.code) from e
        return game

    def to_dict(self, *, with_setup: bool = True) -> dict[str, Any]:
        """The record as a JSON-ready dict. ``with_setup`` false writes the seed form
        (only for a record dealt from a seed)."""
        d: dict[str, Any] = {"format": FORMAT, "options": self.options.to_dict(public=True)}
        if with_setup or self.options.seed is None:
            d["setup"] = self.start_setup().to_dict()
        else:
            d["setup"] = {"seed": self.options.seed}
        d["actions"] = [action_to_dict(a) for a in self.actions]
        if self.result is not None:
            d["result"] = self.result.to_dict()
        return d

    def check_result(self, game: Game) -> None:
        """``RecordError`` unless the stored result is what ``judge`` makes of ``game``
        (the whole record replayed) with the result's own facts."""
        r = self.result
        if r is None:
            return
        try:
            again = judge(
                game,
                r.ending,
                resigned=r.resigned,
                replaced=r.replaced,
                timed_out=r.timed_out,
                claimed_by=r.claimed_by,
            )
        except ValueError as e:
            raise RecordError(str(e), "result", "bad_result") from e
        if again != r:
            raise RecordError(
                f"the actions give {again.to_dict()}, not the stored result", "result", "bad_result"
            )

    def start_setup(self) -> Setup:
        """The explicit set-up of this record's deal."""
        if self.setup is not None:
            return self.setup
        return Game.deal_setup(self.options)

    def dumps(self, **kw: Any) -> str:
        return json.dumps(self.to_dict(**kw), indent=1)

    @classmethod
    def from_dict(cls, raw: Any) -> Record:
        if not isinstance(raw, dict):
            raise RecordError("a record must be a JSON object", "record", "malformed")
        unknown = set(raw) - {"format", "options", "setup", "actions", "result"}
        if unknown:
            raise RecordError(f"unknown field(s) {sorted(unknown)}", "record", "malformed")
        if raw.get("format") != FORMAT:
            raise RecordError(f"expected {FORMAT!r}", "format", "bad_format")
        try:
            options = Options.from_dict(raw.get("options", {}))
        except RuleError as e:
            raise RecordError(e.message, "options", e.code) from e
        except TypeError as e:
            raise RecordError(str(e), "options", "malformed") from e
        setup_raw = raw.get("setup")
        setup: Setup | None
        if isinstance(setup_raw, dict) and set(setup_raw) == {"seed"}:
            seed = setup_raw["seed"]
            if isinstance(seed, bool) or not isinstance(seed, int):
                raise RecordError("must be an integer", "setup.seed", "malformed")
            options = options.replace(seed=seed)
            setup = None
        else:
            setup = _setup_from_dict(setup_raw)
        actions_raw = raw.get("actions", [])
        if not isinstance(actions_raw, list):
            raise RecordError("must be a list", "actions", "malformed")
        actions = [action_from_dict(a, f"actions[{i}]") for i, a in enumerate(actions_raw)]
        result = None
        if raw.get("result") is not None:
            result = GameResult.from_dict(raw["result"], options.players)
        return cls(options, setup, actions, result)

    @classmethod
    def loads(cls, text: str) -> Record:
        try:
            raw = json.loads(text)
        except json.JSONDecodeError as e:
            raise RecordError(
                f"not JSON ({e.msg} at line {e.lineno})", "record", "malformed"
            ) from e
        except RecursionError as e:  # the parser recurses once per nesting level
            raise RecordError("JSON nested too deeply", "record", "malformed") from e
        return cls.from_dict(raw)


def position(game: Game, result: GameResult | None = None) -> dict[str, Any]:
    """The whole position (full knowledge, as for a replay): grid, deck top first,
    kettles bottom first, pawns, player to move or game over, cards out of the game,
    and once over the scores with their breakdowns. With a ``result`` (a game that
    ended, perhaps early) the scores of the position as it stands and the result."""
    d: dict[str, Any] = {
        "ply": game.ply,
        "grid": game.grid_ids(),
        "deck": [CARD_IDS[c] for c in reversed(game.deck)],
        "kettles": [game.kettle_ids(s) for s in range(game.players)],
        "pawns": list(game.pawns),
        "recipes": [list(h) for h in game.recipes],
        "to_move": None if game.over else game.to_move,
        "turn_in_row": game.turn_in_row,
        "game_over": game.over,
        "removed": [CARD_IDS[c] for c in game.out],
    }
    if game.over:
        scored = score_game(game)
        d["ended_by"] = game.ended_by
        d["winners"] = list(scored.winners)
        d["scores"] = [s.to_dict() for s in scored.scores]
    if result is not None:
        d["result"] = result.to_dict()
        if not game.over:
            d["scores"] = [s.to_dict() for s in score_game(game).scores]
        d["winners"] = list(result.winners)
    return d
