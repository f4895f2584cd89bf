"""``kupferkessel replay``: the position and scores, as text or JSON; bad input exits 2."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from client.cli import main
from client.ui.render.side import recipe_text
from protocol.convert import catalogue
from shared.names import ingredient_name
from tests.shared.helpers import rules_example

from .tmux import KK, Tmux, needs_tmux, showing

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"


def _write(tmp_path: Path, raw: Any, name: str = "game.json") -> str:
    path = tmp_path / name
    path.write_text(raw if isinstance(raw, str) else json.dumps(raw), encoding="utf-8")
    return str(path)


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["replay", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_json_position_of_the_rules_example(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _run(capsys, _write(tmp_path, rules_example()), "--json")
    assert code == 0 and err == ""
    pos = json.loads(out)
    assert pos["pawns"] == [4, 15] and pos["to_move"] == 0 and not pos["game_over"]
    assert pos["kettles"] == [["rat_tail-1", "root-2"], ["pumpkin-3", "rat_tail-2"]]
    assert pos["deck"][-1] == "eye_of_newt-2" and pos["removed"] == []
    assert "scores" not in pos


def test_upto(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, _write(tmp_path, rules_example()), "--json", "--upto", "1")
    pos = json.loads(out)
    assert code == 0 and pos["ply"] == 1 and pos["to_move"] == 1 and pos["pawns"] == [1, 13]


def test_text_of_a_running_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, _write(tmp_path, rules_example()))
    assert code == 0
    assert "White (seat 1) to move" in out  # seats from 1, as the client shows them
    assert "Spider web 3" in out and "(corner)" in out  # card words; --json keeps the ids
    assert "spider_web-3" not in out
    assert "Black (seat 2): space 15 (corner)" in out
    assert "Score" not in out


def test_text_of_a_finished_game_shows_every_score(capsys: pytest.CaptureFixture[str]) -> None:
    path = EXAMPLES / "two-players-recipes.json"
    code, out, _ = _run(capsys, str(path))
    assert code == 0 and "game over" in out
    _, js, _ = _run(capsys, str(path), "--json")
    pos = json.loads(js)
    for score in pos["scores"]:
        assert f"Score of {score['colour'].capitalize()} (seat {score['seat'] + 1})" in out
        assert f"  total: {score['total']}\n" in out
        for ing in score["ingredients"]:
            assert f"  {ingredient_name(ing['ingredient']):<14}" in out
        for rec in score["recipes"]:
            said = "met" if rec["met"] else "missed"
            assert f"recipe {recipe_text(rec['id'], catalogue())}: {said}" in out
    assert "value-1 cards:" in out and "Winner" in out


def test_finished_game_json_has_scores(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, str(EXAMPLES / "three-players.json"), "--json")
    pos = json.loads(out)
    assert code == 0 and pos["game_over"] and len(pos["scores"]) == 3
    assert pos["winners"] and pos["colours"] == ["white", "black", "green"]
    assert {"ingredients", "value_one_bonus", "recipes", "total"} <= set(pos["scores"][0])


@pytest.mark.parametrize(
    ("change", "where"),
    [
        (lambda r: r["actions"].__setitem__(1, {"take": "moss-2"}), "actions[1]"),
        (lambda r: r["actions"].append({"take": "moss-2", "keep": "no"}), "actions[3].keep"),
        (lambda r: r.update(format="other"), "format"),
        (lambda r: r["setup"]["deck"].append("moss-2"), "setup"),
    ],
)
def test_bad_record_exits_2_naming_the_place(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], change: Any, where: str
) -> None:
    raw = rules_example()
    change(raw)
    code, out, err = _run(capsys, _write(tmp_path, raw))
    assert code == 2 and out == ""
    assert f": {where}: " in err and "Traceback" not in err
    assert err.count(where) == 1, err  # the place is named once (RULES.md section 11.6)


def test_not_json_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(capsys, _write(tmp_path, "{oops"))
    assert code == 2 and "record: not JSON" in err


def test_missing_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(capsys, str(tmp_path / "nope.json"))
    assert code == 2 and "cannot read" in err and "nope.json" in err


def test_binary_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bin.json"
    path.write_bytes(b"\xff\xfe\x00")
    code, _, err = _run(capsys, str(path))
    assert code == 2 and "UTF-8" in err


def test_negative_upto_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["replay", _write(tmp_path, rules_example()), "--upto", "-1"])
    assert exc.value.code == 2
    assert "--upto" in capsys.readouterr().err


def test_a_game_that_ended_early_shows_its_result(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from shared.record import Record
    from shared.result import judge

    record = Record.loads(json.dumps(rules_example()))
    record.result = judge(record.replay(), "resigned", resigned=[0])
    path = _write(tmp_path, record.to_dict())
    code, out, err = _run(capsys, path)
    assert code == 0 and err == ""
    assert "game ended early (by resignation)" in out
    assert "resigned: White (seat 1)" in out
    assert "Winner: Black (seat 2)" in out
    code, out, _ = _run(capsys, path, "--json")
    pos = json.loads(out)
    assert pos["result"]["ending"] == "resigned" and pos["winners"] == [1]
    assert len(pos["scores"]) == 2  # the position scored as it stands
    # a result the record's actions do not give is refused, naming the field
    raw = record.to_dict()
    raw["result"]["winners"] = [0]
    code, _, err = _run(capsys, _write(tmp_path, raw, "bad.json"))
    assert code == 2 and ": result:" in err


def test_a_closed_pipe_ends_quietly(tmp_path: Path) -> None:
    """``replay --json | head`` reads a few lines and closes the pipe: no traceback."""
    import subprocess
    import sys

    path = _write(tmp_path, rules_example())
    done = subprocess.run(
        f"{sys.executable} -m client.cli replay {path} --json | head -1",
        shell=True,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert done.stdout.strip() == "{" and "Traceback" not in done.stderr, done.stderr


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(["--version"])
    assert e.value.code == 0 and capsys.readouterr().out.startswith("kupferkessel ")


@pytest.mark.e2e
@needs_tmux
def test_step_through_a_record_on_the_board(tmp_path: Path) -> None:
    """``replay FILE --step``: the board take by take, forward and back, each take in
    words with its cell marked; q quits."""
    t = Tmux(tmp_path)
    path = EXAMPLES / "two-players.json"
    try:
        t.start(f"{KK} replay {path} --step")
        # each screen whole (a capture mid-redraw shows the title before the rest)
        t.wait(showing("review: the start", "White moves", "Left/Right: a take"))
        t.keys("Right")
        screen = t.wait(showing("review: take 1 of 47", "White takes", "fills the gap"))
        assert "[" in screen
        t.keys("End")
        t.wait(showing("review: take 47 of 47", "Game over: Black wins"))
        t.keys("Left")
        t.wait("review: take 46 of 47")
        t.keys("q")
        assert t.wait_gone(timeout=10)
    finally:
        t.kill()
