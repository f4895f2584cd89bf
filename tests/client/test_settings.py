"""The terminal client's settings: a person's defaults, settings.json, the environment
(which wins), values that make no sense ignored; and the your-turn alert they drive."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from prompt_toolkit.output import DummyOutput

from client.settings import Settings
from client.ui.app import KupferApp
from client.ui.table import TableModel
from protocol import messages as m
from protocol.convert import view_model
from shared.options import Options
from shared.record import Record
from shared.view import view


def test_defaults_file_and_environment(data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert Settings() == Settings(pace=0.0, hold=0.0, bell=False, title=False, guide=False)
    person = Settings.load()
    assert (person.pace, person.hold, person.bell, person.title) == (0.8, 0.4, True, True)
    data_dir.mkdir(parents=True, exist_ok=True)
    (data_dir / "settings.json").write_text(
        json.dumps({"pace": 1.5, "hold": "x", "bell": False, "title": "off", "nope": 1})
    )
    s = Settings.load()
    assert (s.pace, s.hold, s.bell, s.title) == (1.5, 0.4, False, False)
    monkeypatch.setenv("KUPFERKESSEL_PACE", "0")
    monkeypatch.setenv("KUPFERKESSEL_BELL", "on")
    monkeypatch.setenv("KUPFERKESSEL_HOLD", "99")
    s = Settings.load()
    assert (s.pace, s.hold, s.bell) == (0.0, 10.0, True)  # clamped to 0..10 s
    s = s.save(guide=False)
    assert not s.guide and json.loads((data_dir / "settings.json").read_text())["guide"] is False


class Recorder(DummyOutput):
    def __init__(self) -> None:
        self.said: list[str] = []

    def set_title(self, title: str) -> None:
        self.said.append(f"title {title}")

    def bell(self) -> None:
        self.said.append("bell")


def test_the_turn_alert_rings_once_and_titles_the_window() -> None:
    out = Recorder()
    kapp = KupferApp(name="Ann", output=out, settings=Settings(bell=True, title=True))
    kapp.game.table = TableModel(me=0)
    game = Record.new(Options(seed=3)).start([])
    v = view_model(view(game, 0))
    theirs = v.model_copy(update={"to_move": 1})
    for turn in (theirs, v, v, theirs):  # the second view of our turn says nothing new
        kapp.on_update(m.ViewMsg(table="t", state_version=1, view=turn))
    assert out.said == ["title Your turn - Kupferkessel Co.", "bell", "title Kupferkessel Co."]
    quiet = Recorder()
    kapp = KupferApp(name="Ann", output=quiet, settings=Settings())
    kapp.game.table = TableModel(me=0)
    kapp.on_update(m.ViewMsg(table="t", state_version=1, view=v))
    assert quiet.said == []
