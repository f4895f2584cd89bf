"""What ``kupferkessel replay`` and ``kupferkessel bot`` print for a person, in the
language the terminal client would speak (``--lang``, the settings, the locale), with
no word left in English; ``--json`` keeps the ids (a program reads it)."""

from __future__ import annotations

import argparse
import asyncio
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from client import i18n
from client.bot_runner import run_bot
from client.cli import main
from client.lib import Client
from client.settings import Settings
from shared.record import Record
from shared.result import judge
from tests.helpers.languages import untranslated
from tests.shared.helpers import rules_example

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
LANGS = ["de", i18n.PSEUDO]


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    """One language for the whole process: each test leaves English behind."""
    yield
    i18n.use("en")


def replay(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code = main(["replay", *argv])
    out, err = capsys.readouterr()
    assert code == 0 and err == "", err
    return out


def resigned_record(tmp_path: Path) -> str:
    """The rules' example, ended early: White resigned."""
    record = Record.loads(json.dumps(rules_example()))
    record.result = judge(record.replay(), "resigned", resigned=[0])
    path = tmp_path / "resigned.json"
    path.write_text(json.dumps(record.to_dict()), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("lang", LANGS)
def test_a_replay_reads_in_the_language(
    lang: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A running game, a finished one with recipes (every score and breakdown), one that
    ended early (its result): every word in the language, cards in its words."""
    for record in (
        str(EXAMPLES / "rules-example.json"),
        str(EXAMPLES / "two-players-recipes.json"),
        resigned_record(tmp_path),
    ):
        out = replay(capsys, record, "--lang", lang)
        assert untranslated(out, lang, set()) == [], out
        assert "_" not in out, out  # no card or ingredient id
    i18n.use(lang)
    toad = i18n.ingredient("toad")
    assert toad in replay(capsys, str(EXAMPLES / "two-players.json"), "--lang", lang)


def test_the_language_is_the_clients(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without ``--lang``: the one kept in the settings, else the locale."""
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    game = str(EXAMPLES / "rules-example.json")
    assert "Pions :" in replay(capsys, game)
    Settings.load().save(lang="de")
    assert "Figuren:" in replay(capsys, game)
    assert "Pawns:" in replay(capsys, game, "--lang", "en")


@pytest.mark.parametrize("lang", LANGS)
def test_an_analysis_reads_in_the_language(lang: str, capsys: pytest.CaptureFixture[str]) -> None:
    """The text names cards in the language's words; the JSON keeps the card ids."""
    game = str(EXAMPLES / "rules-example.json")
    out = replay(capsys, game, "--analyse", "--budget", "1", "--lang", lang)
    assert untranslated(out, lang, {game}) == [], out
    assert "_" not in out, out  # no card id
    raw = json.loads(replay(capsys, game, "--analyse", "--budget", "1", "--json", "--lang", lang))
    assert all("-" in d["take"]["take"] for d in raw["decisions"])  # ids: ``moss-2``


@pytest.mark.parametrize("lang", LANGS)
async def test_a_bot_says_its_game_in_the_language(
    url: str, lang: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two ``kupferkessel bot`` runs at one table: what each prints, in the language."""

    def args(table: str | None, name: str) -> argparse.Namespace:
        return argparse.Namespace(
            url=url, table=table, invite=None, level="beginner", name=name, players=2
        )

    i18n.use(lang)
    host = asyncio.create_task(run_bot(args(None, "Ann")))
    async with Client(url, name="lister", persist_tokens=False) as c:
        tables = ()
        async with asyncio.timeout(20):
            while not tables and not host.done():
                tables = await c.list_tables()
                await asyncio.sleep(0.05)
    assert await asyncio.wait_for(run_bot(args(tables[0].id, "Bob")), 60) == 0
    assert await asyncio.wait_for(host, 10) == 0
    out, err = capsys.readouterr()
    assert err == "" and out.count("\n") >= 6, out
    assert untranslated(out, lang, {"Ann", "Bob", tables[0].id}) == [], out
