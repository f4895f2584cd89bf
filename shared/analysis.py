"""The analysis of a game: every decision weighed by the expert, from what its seat knew
then (docs/BOTS.md, "Analysis").

``analyse(record)`` replays a game record (RULES.md section 11) take by take, as a host
does for its bots (``shared.bots.match``): after every batch of public events each
seat's ``Memory`` follows them and syncs with that seat's view. At each decision of a
seat, the appraisal (``shared.bots.appraise``) gets only that seat's view and memory:
it samples the hidden cards, never reads them. The result, an ``Analysis``, is plain
data (``to_dict`` is JSON, ``from_dict`` reads it back): per decision the person's take,
the expert's, the cost and its mark; per seat the points lost, the best and worst
decisions and the expected margin after each decision, for a graph.

Values are in points of the seat's expected final **margin**: its total minus the best
other seat's total (the highest total wins the game).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from .bots.appraise import Appraisal, appraise, as_listed
from .bots.memory import Memory
from .errors import RecordError, RuleError
from .events import Event
from .game import Game, Take
from .record import Record, action_from_dict, action_to_dict
from .scoring import totals as seat_totals
from .view import views

__all__ = [
    "DEFAULT_BUDGET",
    "FORMAT",
    "MARKS",
    "Analysis",
    "Decision",
    "SeatSummary",
    "Suggestion",
    "TakeValue",
    "analyse",
    "mark",
    "suggest",
]

FORMAT = "kupferkessel-analysis/1"
DEFAULT_BUDGET = 300
"""Sampled deals per decision: every legal take is searched once in each."""
MARKS: tuple[tuple[str, float], ...] = (
    ("blunder", 12.0),
    ("mistake", 6.0),
    ("inaccuracy", 3.0),
)
"""A decision's mark by its cost, in points of expected margin, worst first: the
thresholds and how they were chosen are in docs/BOTS.md."""


def mark(cost: float) -> str | None:
    """The mark of a decision that cost ``cost`` points (None: no mark)."""
    for name, least in MARKS:
        if cost >= least:
            return name
    return None


def _r(x: float) -> float:
    return round(x, 2)


@dataclass(frozen=True, slots=True)
class TakeValue:
    """A legal take and its ``value``: the expected final margin after it."""

    take: Take
    value: float


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of ``seat``, the record's action ``ply`` (0-based: the position of
    ``replay --upto ply``). ``take``: the person's take, ``best``: the expert's (both
    written as the legal takes are). ``value``: the expected final margin after the
    person's take, ``points``: the expected own total after it. ``cost``: the best
    value minus ``value`` (0 when the person chose the best), ``noise``: the cost's
    standard error over the samples, ``mark``: by ``MARKS``. ``edge``: how much better
    the person's take is than every other take (0 if it is not the best, or the only
    one). ``takes``: every legal take with its value, in the order of the legal takes."""

    ply: int
    seat: int
    take: Take
    best: Take
    value: float
    points: float
    cost: float
    noise: float
    mark: str | None
    edge: float
    takes: tuple[TakeValue, ...]


@dataclass(frozen=True, slots=True)
class SeatSummary:
    """One seat over its analysed decisions: how many, the points ``lost`` in all, the
    number of each mark, ``best`` (the ply of the decision with the largest edge, None
    if the seat never found a take better than all others) and ``worst`` (the ply of
    the largest cost, None if nothing was lost), ``series`` (ply, expected margin after
    the decision) for a graph, and ``final`` (the margin the game ended with, if over)."""

    seat: int
    decisions: int
    lost: float
    inaccuracies: int
    mistakes: int
    blunders: int
    best: int | None
    worst: int | None
    series: tuple[tuple[int, float], ...]
    final: int | None


@dataclass(frozen=True, slots=True)
class Analysis:
    """A game's analysis: ``budget`` samples a decision, ``seed``; the table's
    ``players`` and ``colours``; the ``seats`` analysed; ``thresholds`` of the marks;
    the ``decisions`` in order and a ``summaries`` entry per analysed seat."""

    budget: int
    seed: int
    players: int
    colours: tuple[str, ...]
    seats: tuple[int, ...]
    thresholds: tuple[tuple[str, float], ...]
    decisions: tuple[Decision, ...]
    summaries: tuple[SeatSummary, ...]

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data; takes written as record actions (RULES.md section 11.3)."""
        return {
            "format": FORMAT,
            "budget": self.budget,
            "seed": self.seed,
            "players": self.players,
            "colours": list(self.colours),
            "seats": list(self.seats),
            "thresholds": dict(self.thresholds),
            "decisions": [_decision_dict(d) for d in self.decisions],
            "summaries": [_summary_dict(s) for s in self.summaries],
        }

    @classmethod
    def from_dict(cls, raw: Any) -> Analysis:
        """Read ``to_dict``'s data back; ``ValueError`` if it is not that."""
        try:
            if raw["format"] != FORMAT:
                raise ValueError(f"expected format {FORMAT!r}")
            return cls(
                int(raw["budget"]),
                int(raw["seed"]),
                int(raw["players"]),
                tuple(map(str, raw["colours"])),
                tuple(map(int, raw["seats"])),
                tuple((str(k), float(v)) for k, v in raw["thresholds"].items()),
                tuple(_decision_of(d) for d in raw["decisions"]),
                tuple(_summary_of(s) for s in raw["summaries"]),
            )
        except (KeyError, TypeError, AttributeError, RecordError) as e:
            raise ValueError(f"not an analysis: {e}") from e


def _decision_dict(d: Decision) -> dict[str, Any]:
    return {
        "ply": d.ply,
        "seat": d.seat,
        "take": action_to_dict(d.take),
        "best": action_to_dict(d.best),
        "value": d.value,
        "points": d.points,
        "cost": d.cost,
        "noise": d.noise,
        "mark": d.mark,
        "edge": d.edge,
        "takes": [{**action_to_dict(t.take), "value": t.value} for t in d.takes],
    }


def _decision_of(raw: dict[str, Any]) -> Decision:
    takes = []
    for t in raw["takes"]:
        fields = {k: v for k, v in t.items() if k != "value"}
        takes.append(TakeValue(action_from_dict(fields), float(t["value"])))
    return Decision(
        int(raw["ply"]),
        int(raw["seat"]),
        action_from_dict(raw["take"]),
        action_from_dict(raw["best"]),
        float(raw["value"]),
        float(raw["points"]),
        float(raw["cost"]),
        float(raw["noise"]),
        None if raw["mark"] is None else str(raw["mark"]),
        float(raw["edge"]),
        tuple(takes),
    )


def _summary_dict(s: SeatSummary) -> dict[str, Any]:
    return {
        "seat": s.seat,
        "decisions": s.decisions,
        "lost": s.lost,
        "inaccuracies": s.inaccuracies,
        "mistakes": s.mistakes,
        "blunders": s.blunders,
        "best": s.best,
        "worst": s.worst,
        "series": [list(p) for p in s.series],
        "final": s.final,
    }


def _summary_of(raw: dict[str, Any]) -> SeatSummary:
    return SeatSummary(
        int(raw["seat"]),
        int(raw["decisions"]),
        float(raw["lost"]),
        int(raw["inaccuracies"]),
        int(raw["mistakes"]),
        int(raw["blunders"]),
        None if raw["best"] is None else int(raw["best"]),
        None if raw["worst"] is None else int(raw["worst"]),
        tuple((int(p), float(v)) for p, v in raw["series"]),
        None if raw["final"] is None else int(raw["final"]),
    )


# ---------------------------------------------------------------------- analysing


def decision_seed(seed: int, ply: int) -> int:
    """The appraisal's seed for the decision at ``ply``: each decision has its own, so
    analysing one seat gives that seat's decisions as a whole analysis does."""
    return seed * 65_536 + ply


def judge(ply: int, seat: int, take: Take, appraisal: Appraisal) -> Decision:
    """The decision ``take`` of ``seat`` at ``ply``, weighed by ``appraisal``."""
    a = appraisal
    mine = a.index(take)
    best = a.best
    others = [v for i, v in enumerate(a.values) if i != mine]
    cost = _r(a.cost(take))
    return Decision(
        ply,
        seat,
        take,
        a.takes[best],
        _r(a.values[mine]),
        _r(a.totals[mine]),
        cost,
        _r(a.noise(take)),
        mark(cost),
        _r(max(0.0, a.values[mine] - max(others))) if others and mine == best else 0.0,
        tuple(TakeValue(t, _r(v)) for t, v in zip(a.takes, a.values, strict=True)),
    )


def analyse(
    record: Record,
    *,
    budget: int = DEFAULT_BUDGET,
    seed: int = 0,
    seats: Collection[int] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Analysis:
    """Analyse every decision of ``seats`` (default: all) in ``record`` with ``budget``
    sampled deals a decision (module docstring). The same record, budget and seed give
    the same analysis. ``progress(done, total)`` is called after each action.
    ``RecordError`` for a record that does not replay; ``ValueError`` for a bad budget
    or seat."""
    if budget < 1:
        raise ValueError("the budget must be at least 1 sample a decision")
    players = record.options.players
    wanted = tuple(range(players)) if seats is None else tuple(sorted(set(seats)))
    if any(not 0 <= s < players for s in wanted):
        raise ValueError(f"no such seat: the seats are 0 to {players - 1}")
    decisions: list[Decision] = []
    game: Game | None = None
    for ply, game, memories in _positions(record):
        if progress is not None and ply > 0:
            progress(ply, len(record.actions))
        if ply == len(record.actions):
            break
        seat = game.to_move
        if seat in wanted and not game.over:
            seen = views(game, (seat,))[0]
            try:
                take = as_listed(seen, record.actions[ply])
            except ValueError as e:
                raise RecordError(str(e), f"actions[{ply}]", "not_in_line") from e
            appraisal = appraise(
                seen, memories[seat], samples=budget, seed=decision_seed(seed, ply)
            )
            decisions.append(judge(ply, seat, take, appraisal))
    assert game is not None
    return Analysis(
        budget,
        seed,
        players,
        tuple(game.options.colours),
        wanted,
        MARKS,
        tuple(decisions),
        tuple(summarise(s, decisions, _final(game, record, s)) for s in wanted),
    )


@dataclass(frozen=True, slots=True)
class Suggestion:
    """The expert's take for ``seat`` (to move) and what it expects of it: ``value``,
    the final margin, and ``points``, the own total, over ``budget`` sampled deals."""

    seat: int
    take: Take
    value: float
    points: float
    budget: int


def suggest(record: Record, *, budget: int = DEFAULT_BUDGET, seed: int = 0) -> Suggestion:
    """A hint: the expert's take for the seat to move after ``record``'s actions,
    weighed as ``analyse`` weighs a decision, from that seat's view and memory only (the
    record's hidden cards are sampled, never read). ``ValueError`` once the game is
    over or for a bad budget; ``RecordError`` for a record that does not replay."""
    if budget < 1:
        raise ValueError("the budget must be at least 1 sample a decision")
    *_, (ply, game, memories) = _positions(record)
    if game.over:
        raise ValueError("the game is over: nobody is to move")
    seat = game.to_move
    seen = views(game, (seat,))[0]
    a = appraise(seen, memories[seat], samples=budget, seed=decision_seed(seed, ply))
    best = a.best
    return Suggestion(seat, a.takes[best], _r(a.values[best]), _r(a.totals[best]), budget)


def _positions(record: Record) -> Iterator[tuple[int, Game, list[Memory]]]:
    """The record replayed as a host replays it for its bots: before each action ``ply``
    and after the last, the game (the same object, moved on) and each seat's memory of
    the public events and its views so far."""
    events: list[Event] = []
    game = record.start(events)
    memories = [Memory(s) for s in range(game.players)]
    _tell(game, memories, events)
    for ply, written in enumerate(record.actions):
        yield ply, game, memories
        events = []
        try:
            game.apply(written, events=events)
        except RuleError as e:
            raise RecordError(e.message, f"actions[{ply}]", e.code) from e
        _tell(game, memories, events)
    yield len(record.actions), game, memories


def _tell(game: Game, memories: list[Memory], events: list[Event]) -> None:
    """What a host tells its bots after a batch of events (``shared.bots.match``)."""
    for memory, seen in zip(memories, views(game, range(game.players)), strict=True):
        memory.observe(events)
        memory.sync(seen)


def _final(game: Game, record: Record, seat: int) -> int | None:
    """The margin ``seat`` ended the game with (None while it runs)."""
    if record.result is not None:
        points = list(record.result.totals)
    elif game.over:
        points = seat_totals(game)
    else:
        return None
    return points[seat] - max(p for s, p in enumerate(points) if s != seat)


def summarise(seat: int, decisions: Iterable[Decision], final: int | None) -> SeatSummary:
    """``seat``'s summary over ``decisions`` (those of other seats are left out)."""
    mine = [d for d in decisions if d.seat == seat]
    marks = [d.mark for d in mine]
    best = max(mine, key=lambda d: d.edge, default=None)
    worst = max(mine, key=lambda d: d.cost, default=None)
    return SeatSummary(
        seat,
        len(mine),
        _r(sum(d.cost for d in mine)),
        marks.count("inaccuracy"),
        marks.count("mistake"),
        marks.count("blunder"),
        best.ply if best is not None and best.edge > 0 else None,
        worst.ply if worst is not None and worst.cost > 0 else None,
        tuple((d.ply, d.value) for d in mine),
        final,
    )
