"""The clock of a timed game (``shared.clock``): what it stores lets a restart resume
the move in progress with the time it had used (RULES.md section 12.5)."""

from __future__ import annotations

from typing import Any

import pytest

from shared.clock import Clock, TimeRules

TIMING = TimeRules(move=30, reserve=60)


def test_the_stored_clock_keeps_the_running_move_and_resumes_it() -> None:
    clock = Clock(TIMING, 2)
    clock.start(1, 1000.0)
    clock.stop(1000.0 + 40)  # 10 s over the move time: off the reserve
    clock.start(0, 1040.0)
    raw = clock.to_dict()
    assert raw == {"reserve": [60.0, 50.0], "seat": 0, "started": 1040.0}
    again = Clock.from_dict(TIMING, 2, raw)
    assert (again.reserve, again.seat, again.started) == ([60.0, 50.0], 0, 1040.0)
    used = again.spent(1052.0)  # the server's last note: 12 s into the move
    assert used == 12.0
    again.start(0, 5000.0, used)  # back an hour later: the 12 s stay used
    assert again.deadline() == 5000.0 - 12 + 30 + 60
    assert again.view(5000.0).left_ms[0] == 78_000


def test_spent_is_bounded_by_what_the_seat_had() -> None:
    clock = Clock(TIMING, 2)
    assert clock.spent(123.0) == 0.0  # no move runs
    clock.start(1, 100.0)
    assert clock.spent(90.0) == 0.0  # a note from before the move began
    assert clock.spent(100.0 + 500) == 90.0  # move time plus reserve, no more
    stopped = Clock(TIMING, 2)
    assert "seat" not in stopped.to_dict()  # between moves: nothing runs


@pytest.mark.parametrize(
    "raw",
    [
        None,
        {},
        {"reserve": [1.0]},
        {"reserve": [1.0, True]},
        {"reserve": [1.0, 2.0], "seat": 2, "started": 5.0},
        {"reserve": [1.0, 2.0], "seat": True, "started": 5.0},
        {"reserve": [1.0, 2.0], "seat": 0, "started": "5"},
        {"reserve": [1.0, 2.0], "seat": 0, "started": float("nan")},
        {"reserve": [1.0, 2.0], "seat": 0},
    ],
)
def test_a_malformed_stored_clock_runs_no_move(raw: Any) -> None:
    """Anything malformed (or stored before the running move was kept) restores a
    clock with no running move: the caller starts the move afresh."""
    clock = Clock.from_dict(TIMING, 2, raw)
    assert clock.seat is None
    assert clock.reserve in ([60.0, 60.0], [1.0, 2.0])
