"""Every sample record in docs/examples/ replays; the complete ones to the end."""

from __future__ import annotations

from pathlib import Path

import pytest

from shared.record import Record

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "docs" / "examples").glob("*.json"))


def test_there_are_examples() -> None:
    names = {p.name for p in EXAMPLES}
    assert "rules-example.json" in names and len(names) >= 4


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_replays(path: Path) -> None:
    record = Record.loads(path.read_text(encoding="utf-8"))
    game = record.replay()
    assert game.over == (path.name != "rules-example.json")
    # Written back, it reads and replays to the same game.
    assert Record.loads(record.dumps()).replay() == game
