"""The synchronous parts a ``Table`` holds, driven here without an event loop, a store
or a table: the people at it (``server.core.seating``), what each of them hears
(``server.core.telling``) and the computer players standing in
(``server.core.standins``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest

from server.core.errors import TableError
from server.core.journal import Step
from server.core.lineup import Lineup
from server.core.seating import Seating
from server.core.standins import StandIns
from server.core.telling import Telling
from shared.clock import TimeRules
from shared.events import Event
from shared.game import Game
from shared.options import Options
from shared.record import Record
from shared.result import GameResult
from shared.view import View


@dataclass(eq=False)
class Ear:
    """An occupant that keeps what it hears (a stand-in too: it is never stopped here)."""

    minor: int = 3
    heard: list[tuple[str, Any]] = field(default_factory=list)

    def deliver_view(self, table: object, view: View, version: int) -> None:
        self.heard.append(("view", view))

    def deliver_update(
        self,
        table: object,
        events: Sequence[Event],
        view: View,
        version: int,
        re: int | None = None,
        by_computer: bool = False,
    ) -> None:
        self.heard.append(("update", (view, re)))

    def deliver_missed(
        self, table: object, since: int, version: int, steps: Sequence[Step], omitted: int, re: int
    ) -> None:
        self.heard.append(("missed", (since, version, list(steps), omitted, re)))

    def deliver_result(self, table: object, view: View, version: int) -> None:
        self.heard.append(("result", view))

    def deliver_presence(self, table: object) -> None:
        self.heard.append(("presence", None))

    def deliver_chat(self, table: object, seat: int | None, name: str, text: str) -> None:
        self.heard.append(("chat", (seat, name, text)))

    def deliver_finished(self, table: object, reason: str, seat: int | None) -> None:
        self.heard.append(("finished", reason))

    def deliver_rematch(self, table: object, new: object, seat: int | None) -> bool:
        return False

    def replaced(self, table: object, seat: int) -> None:
        pass

    async def stop(self) -> None:
        pass


@dataclass
class Scene:
    game: Game | None
    result: GameResult | None = None
    version: int = 0


class Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def test_a_join_takes_the_seat_asked_for_or_the_first_free_one() -> None:
    seating = Seating(3, Clock())
    first = seating.for_join(None, None)
    assert first.index == 0
    seating.sit(first, Ear(), "Ann", "h0", "player-1")
    assert seating.for_join(2, None).index == 2
    with pytest.raises(TableError) as taken:
        seating.for_join(0, None)
    assert taken.value.code == "seat_taken"
    with pytest.raises(TableError) as nowhere:
        seating.for_join(3, None)
    assert nowhere.value.code == "invalid_field"
    with pytest.raises(TableError):  # a registered player sits once a table
        seating.for_join(None, "player-1")
    seating.sit(seating.for_bot(None), Ear(), "easy bot", "h1", None)
    seating.sit(seating.for_join(None, None), Ear(), "Bo", "h2", None)
    with pytest.raises(TableError) as full:
        seating.for_join(None, None)
    assert full.value.code == "table_full"


def test_idle_since_counts_from_when_the_last_person_went() -> None:
    now = Clock()
    seating = Seating(2, now)
    assert seating.idle_since == 100.0 and not seating.attended
    ann, watcher = Ear(), Ear()
    seating.sit(seating.for_join(0, None), ann, "Ann", "h0", None)
    seating.watch(watcher)
    assert seating.idle_since is None and seating.seat_of(ann) == 0
    now.t = 150.0
    assert seating.detach(ann) == [0] and seating.idle_since is None  # still watched
    assert seating.unwatch(watcher) and not seating.unwatch(watcher)
    assert seating.idle_since == 150.0
    seat = seating.by_token("h0")
    assert seat is not None and seating.by_token("nope") is None
    newer = Ear()
    assert seating.resume(seat, newer) is None and seating.seat_of(newer) == 0
    assert seating.idle_since is None


def test_a_rematch_needs_every_person_s_vote_and_no_1_0_person() -> None:
    seating = Seating(3, Clock())
    old = Ear(minor=0)
    seating.sit(seating.for_join(0, None), Ear(), "Ann", "h0", None)
    seating.sit(seating.for_join(1, None), old, "Bo", "h1", None)
    bot = seating.for_bot(2)
    bot.name, bot.bot = "easy bot", "easy"
    with pytest.raises(TableError) as refused:
        seating.vote(0, True)
    assert refused.value.detail == "protocol_1_0"
    old.minor = 1
    seating.vote(0, True)
    assert not seating.rematch_agreed()  # Bo has not asked; the bot never votes
    seating.vote(1, True)
    assert [s.rematch for s in seating.public_seats(Lineup(3, TimeRules()))] == [
        True,
        True,
        False,
    ]
    assert seating.rematch_agreed() and not seating.rematch_votes  # spent on it


def test_everyone_hears_an_update_made_for_its_seat_the_mover_with_its_id() -> None:
    seating = Seating(2, Clock())
    lineup: Lineup[Ear] = Lineup(2, TimeRules())
    telling = Telling(seating, lineup, Clock())
    ann, bo, watcher, stand_in = Ear(), Ear(), Ear(), Ear()
    seating.sit(seating.for_join(0, None), ann, "Ann", "h0", None)
    seating.sit(seating.for_join(1, None), bo, "Bo", "h1", None)
    seating.watch(watcher)
    _, game = Record.deal(Options(players=2, seed=7))
    scene = Scene(game)
    mover = game.to_move
    assert telling.update(scene, [], ((ann, bo)[mover], 5))
    for seat, ear in ((0, ann), (1, bo), (None, watcher)):
        kind, (view, re) = ear.heard[-1]
        assert kind == "update" and view.seat == seat
        assert re == (5 if seat == mover else None)
        assert (view.takes is not None) == (seat == mover)
    lineup.stood_in(mover, stand_in)  # the mover's person is away: takes for the stand-in
    assert not telling.update(scene, [], (Ear(), 6))  # nobody here asked
    person = seating.seats[mover].occupant
    assert isinstance(person, Ear) and person.heard[-1][1][0].takes is None
    assert stand_in.heard[-1][1][0].takes is not None


def test_chat_speaks_under_the_seat_s_name_a_spectator_marked() -> None:
    seating = Seating(2, Clock())
    telling = Telling(seating, Lineup(2, TimeRules()), Clock())
    ann, watcher = Ear(), Ear()
    seating.sit(seating.for_join(0, None), ann, "Ann", "h0", None)
    seating.watch(watcher)
    telling.chat(Scene(None), ann, "Mallory", "hi")
    telling.chat(Scene(None), watcher, "Ann", "hello")
    assert ann.heard == [
        ("chat", (0, "Ann", "hi")),
        ("chat", (None, "Ann (spectator)", "hello")),
    ]
    telling.view_to(Scene(None), watcher)  # before the game: no view
    assert watcher.heard[-1][0] == "chat"


def _dealt(minor: int) -> tuple[Seating, Lineup[Ear], Telling, Scene, int]:
    """Two people seated (speaking protocol 1.``minor``) at a dealt game, and its mover."""
    seating = Seating(2, Clock())
    lineup: Lineup[Ear] = Lineup(2, TimeRules())
    telling = Telling(seating, lineup, Clock())
    for seat in range(2):
        seating.sit(seating.for_join(seat, None), Ear(minor=minor), f"p{seat}", f"h{seat}", None)
    _, game = Record.deal(Options(players=2, seed=11))
    return seating, lineup, telling, Scene(game), game.to_move


@pytest.mark.parametrize("minor", [0, 1])
def test_a_stand_in_for_the_mover_takes_the_takes_from_a_1_1_person(minor: int) -> None:
    seating, lineup, telling, scene, mover = _dealt(minor)
    started: list[int] = []
    stand_in = Ear()

    def start(seat: int) -> Ear:
        started.append(seat)
        return stand_in

    stand_ins = StandIns(lineup, seating, telling, start, "t1")
    stand_ins.take_over(scene, mover)
    stand_ins.take_over(scene, mover)  # it plays the seat already: none more
    assert started == [mover] and lineup.stand_ins == {mover: stand_in}
    person = seating.seats[mover].occupant
    assert isinstance(person, Ear)
    if minor:  # the same state, its takes gone
        assert [kind for kind, _ in person.heard] == ["view"]
        assert person.heard[0][1].takes is None
    else:  # 1.0 knows no takes: nothing is taken back from it
        assert person.heard == []
    assert stand_ins.plays(mover, stand_in) and not stand_ins.plays(mover, Ear())
    other = seating.seats[1 - mover]
    assert stand_ins.plays(other.index, other.occupant)  # a bot seated there plays it


def test_no_computer_player_to_start_leaves_the_seat_its_person_s() -> None:
    seating, lineup, telling, scene, mover = _dealt(1)
    stand_ins = StandIns(lineup, seating, telling, lambda seat: None, "t1")
    stand_ins.take_over(scene, mover)
    assert lineup.stand_ins == {} and lineup.may_take(mover)
    take = stand_ins.expiry_move(scene, mover)  # a move made for a seat out of time
    assert take in scene.game.legal_actions()  # type: ignore[union-attr]
