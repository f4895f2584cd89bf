"""The engine and the bots decide exactly as they did before they were made fast.

Why: speed work (issue 25) must change no event, record, legal list, refusal, sampled
position or bot decision for the same seeds; ``data/before.json`` was recorded from the
code before the optimisation (see ``before.py``).
"""

from __future__ import annotations

import json
from pathlib import Path

from .before import compute

BEFORE = Path(__file__).parent / "data" / "before.json"


def test_every_game_sample_and_decision_is_as_before() -> None:
    want = json.loads(BEFORE.read_text(encoding="utf-8"))
    got = compute()
    assert sorted(got) == sorted(want)
    assert {k: v for k, v in got.items() if want[k] != v} == {}
