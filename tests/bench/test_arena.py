"""A small arena run (a few games) so that the ladder's benchmark cannot rot unnoticed,
and the arena's arithmetic."""

from __future__ import annotations

import re
import sys

import pytest

from shared.bots.base import SearchingBot

from .runner import ROOT, run_bench

sys.path.insert(0, str(ROOT / "bench"))

import arena


def _arena(*args: str) -> str:
    return run_bench("arena.py", *args)


@pytest.mark.e2e
@pytest.mark.long
def test_a_two_player_arena_run() -> None:
    out = _arena("hard:20", "medium", "--games", "4", "--workers", "1")
    assert "hard:20 vs medium: 2 players, 4 games (2 deals x 2 seatings)" in out
    a = re.search(r"hard:20: wins (\d+)/4 .*draws (\d+).*20 iterations/decision", out)
    b = re.search(r"medium: wins (\d+)/4 .*draws (\d+)", out)
    assert a and b, out
    assert int(a[1]) + int(b[1]) + int(a[2]) == 4 and a[2] == b[2]


@pytest.mark.e2e
def test_a_three_player_arena_run_and_the_speed_figures() -> None:
    out = _arena("expert:10", "hard:5", "--players", "3", "--games", "3", "--workers", "1")
    assert "expert:10 vs two hard:5: 3 players, 3 games (1 deals x 3 seatings)" in out
    assert re.search(r"hard:5 x2: wins \d/3", out), out
    out = _arena("--speed", "0.01", "--iterations", "10")
    for name in ("hard", "expert", "search"):
        assert re.search(rf"{name}: [\d,]+ iterations/s", out), out


def test_bot_specs() -> None:
    assert arena.parse("expert", 0.2, None) == ("expert", {"budget": 0.2, "iterations": None})
    assert arena.parse("expert:50", 0.2, None) == ("expert", {"budget": None, "iterations": 50})
    assert arena.parse("search:0.1s", None, 9) == ("search", {"budget": 0.1, "iterations": None})
    assert arena.parse("hard:50:plain", None, None) == ("hard", {"budget": None, "iterations": 50})
    for text, policy in (("hard:50:plain", "plain"), ("hard:50", "aware")):
        bot = arena.build(text, 0, 1, None, None)
        assert isinstance(bot, SearchingBot) and bot.policy == policy
    for bad in ("grandmaster", "hard:x", "hard:0.1x", "hard:5:wild"):
        with pytest.raises(Exception, match=r"unknown bot|bad work bound|unknown policy"):
            arena.spec(bad)


def test_wilson_interval() -> None:
    lo, hi = arena.wilson(260, 400)
    assert 0.601 < lo < 0.603 and 0.695 < hi < 0.697  # 65 % of 400
    assert arena.wilson(0, 0) == (0.0, 1.0)
    assert arena.seatings("a", "b", 3) == [("a", "b", "b"), ("b", "a", "b"), ("b", "b", "a")]
