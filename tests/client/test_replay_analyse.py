"""``kupferkessel replay FILE --analyse``: the expert's analysis of a record as text and
JSON, with ``--budget``, ``--seat`` and ``--seed``; bad input exits 2 with a reason."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from client.cli import main
from client.commands.words import card_words
from shared.analysis import Analysis
from tests.shared.helpers import rules_example

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
GAME = str(EXAMPLES / "two-players.json")  # a whole game of 47 takes, Black won


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["replay", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_json_is_the_analysis_of_every_decision(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, GAME, "--analyse", "--json", "--budget", "2")
    assert code == 0 and err == ""  # no progress line when standard error is no terminal
    raw = json.loads(out)
    analysis = Analysis.from_dict(raw)
    assert raw["format"] == "kupferkessel-analysis/1" and raw["budget"] == 2
    assert raw["seed"] == 0 and raw["seats"] == [0, 1] and raw["colours"] == ["white", "black"]
    assert [d["ply"] for d in raw["decisions"]] == list(range(47))
    first = raw["decisions"][0]
    assert first["seat"] == 0 and set(first) == {
        "ply",
        "seat",
        "take",
        "best",
        "value",
        "points",
        "cost",
        "noise",
        "mark",
        "edge",
        "takes",
    }
    assert {"take", "value"} <= set(first["takes"][0])
    assert [s["seat"] for s in raw["summaries"]] == [0, 1]
    assert [s["final"] for s in raw["summaries"]] == [-8, 8]
    assert analysis.to_dict() == raw
    # the same seed, the same analysis; --seed changes the samples
    _, again, _ = _run(capsys, GAME, "--analyse", "--json", "--budget", "2")
    _, other, _ = _run(capsys, GAME, "--analyse", "--json", "--budget", "2", "--seed", "4")
    assert again == out and json.loads(other)["seed"] == 4 and other != out


def test_text_lists_each_decision_then_the_summaries_and_the_graph(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = _run(capsys, GAME, "--analyze", "--budget", "2")  # either spelling
    assert code == 0 and err == ""
    _, js, _ = _run(capsys, GAME, "--analyse", "--json", "--budget", "2")
    raw = json.loads(js)
    assert "the expert's search over 2 sampled deals a decision (seed 0)" in out
    rows = [line for line in out.splitlines() if re.match(r"\s+\d+  (White|Black) \(seat", line)]
    assert len(rows) == 47
    for row, d in zip(rows, raw["decisions"], strict=True):
        assert row.split()[0] == str(d["ply"] + 1)  # moves from 1
        assert f"(seat {d['seat'] + 1})  {card_words(d['take']['take'])}" in row  # ids in JSON
        assert (d["mark"] or "") == (row.split()[-1] if d["mark"] else "")
        if d["cost"]:
            assert f"{d['cost']:.1f} ±{d['noise']:.1f}" in row
    for s in raw["summaries"]:
        name = f"{raw['colours'][s['seat']].capitalize()} (seat {s['seat'] + 1})"
        assert f"{name}: {s['decisions']} decisions, {s['lost']:.1f} points lost" in out
        assert f"  final margin: {s['final']:+d}" in out
        if s["worst"] is not None:
            assert f"  worst decision: move {s['worst'] + 1}, " in out
    assert "Expected margin after each decision, by move (1 White (seat 1), 2 Black" in out
    graph = out[out.index("Expected margin") :].splitlines()[1:]
    plotted = "".join(line.partition("|")[2] for line in graph if "|" in line)
    assert set(plotted) <= {" ", "-", "1", "2", "*"} and "1" in plotted and "2" in plotted


def test_one_seat_and_part_of_the_game(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, GAME, "--analyse", "--json", "--budget", "2", "--seat", "2")
    raw = json.loads(out)
    assert code == 0 and raw["seats"] == [1]
    assert {d["seat"] for d in raw["decisions"]} == {1}
    _, whole, _ = _run(capsys, GAME, "--analyse", "--json", "--budget", "2")
    assert raw["decisions"] == [d for d in json.loads(whole)["decisions"] if d["seat"] == 1]
    code, out, _ = _run(capsys, GAME, "--analyse", "--json", "--budget", "2", "--upto", "5")
    part = json.loads(out)
    assert code == 0 and [d["ply"] for d in part["decisions"]] == [0, 1, 2, 3, 4]
    assert [s["final"] for s in part["summaries"]] == [None, None]  # not over then


def _write(tmp_path: Path, raw: object) -> str:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--budget", "3"], "--budget goes with --analyse"),
        (["--seat", "1"], "--seat goes with --analyse"),
        (["--seed", "1"], "--seed goes with --analyse"),
        (["--analyse", "--step"], "--analyse and --step do not go together"),
        (["--analyse", "--seat", "3"], "--seat 3: the game has 2 seats"),
    ],
)
def test_bad_arguments_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], says: str
) -> None:
    code, out, err = _run(capsys, GAME, *argv)
    assert code == 2 and out == "" and says in err and "Traceback" not in err


@pytest.mark.parametrize("argv", [["--budget", "0"], ["--seat", "0"], ["--budget", "x"]])
def test_bad_numbers_are_usage_errors(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["replay", GAME, "--analyse", *argv])
    assert exc.value.code == 2 and argv[0] in capsys.readouterr().err


def test_a_bad_record_is_refused_as_replay_refuses_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    raw = rules_example()
    raw["actions"][1] = {"take": "moss-2"}
    code, out, err = _run(capsys, _write(tmp_path, raw), "--analyse")
    assert code == 2 and out == "" and ": actions[1]: " in err and "Traceback" not in err
    code, _, err = _run(capsys, str(tmp_path / "nope.json"), "--analyse")
    assert code == 2 and "cannot read" in err
