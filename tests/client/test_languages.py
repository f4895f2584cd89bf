"""The terminal client in the player's language: chosen from the locale, the settings
or ``--lang``; every screen of a whole game (the lobby, its form, the table, the help,
the guide, the result) in the pseudo-locale and in German at 60x20 and 80x24, with no
word left in English, no line wider than the screen (``draw`` holds that)."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from prompt_toolkit.formatted_text import fragment_list_to_text
from prompt_toolkit.input import create_pipe_input

from client import i18n
from client.cli import build_parser
from client.commands.common import quiet_logging
from client.i18n.pseudo import pseudo
from client.lib import BadAddress, Client, normalize_url
from client.settings import Settings
from client.ui.app import KupferApp
from client.ui.guide import PAGES, guide_lines
from client.ui.log import missed_entries
from client.ui.players import account_form
from client.ui.recent import Recent
from client.ui.refusals import DETAILS, REFUSALS, client_error_words, refusal_words
from client.ui.render import text_of
from client.ui.score import seat_end_lines
from protocol import messages as m
from protocol.convert import view_model
from shared.options import Options
from shared.record import Record
from shared.view import view as shared_view
from tests.helpers.languages import template, untranslated
from tests.helpers.screens import ADA, SizedOutput, draw, took

SMALL_AND_USUAL = [(60, 20), (80, 24)]


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    """One language for the whole process: each test leaves English behind."""
    yield
    i18n.use("en")


@pytest.mark.parametrize(
    ("env", "lang"),
    [
        ({"LANG": "de_DE.UTF-8"}, "de"),
        ({"LANG": "fr_CA.UTF-8", "LC_MESSAGES": "es_ES.UTF-8"}, "es"),
        ({"LANG": "de_DE.UTF-8", "LC_ALL": "fr_FR.UTF-8"}, "fr"),
        ({"LANGUAGE": "it:es", "LANG": "de_DE.UTF-8"}, "es"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANG": "it_IT.UTF-8"}, "en"),
        ({"LC_ALL": "POSIX", "LANG": "de_DE.UTF-8"}, "en"),
        ({}, "en"),
    ],
)
def test_the_locale_chooses_the_language(env: dict[str, str], lang: str) -> None:
    assert i18n.pick(env) == lang


def test_the_flag_wins_then_the_setting_then_the_locale(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = {"LANG": "fr_FR.UTF-8"}
    assert i18n.detect(None, None, env) == "fr"
    assert i18n.detect("de", None, env) == "de"
    assert i18n.detect("de", "es", env) == "es"
    assert i18n.detect("", "xx", env) == "xx"
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    monkeypatch.delenv("LANGUAGE", raising=False)
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    args = build_parser("join").parse_args(["join", "--lang", "es"])
    quiet_logging(args)
    assert i18n.language() == "es"
    quiet_logging(build_parser("join").parse_args(["join"]))
    assert i18n.language() == "fr"
    Settings.load().save(lang="de")  # as l in the lobby keeps it
    quiet_logging(build_parser("join").parse_args(["join"]))
    assert i18n.language() == "de"
    with pytest.raises(SystemExit):
        build_parser("join").parse_args(["join", "--lang", "klingon"])


def test_l_in_the_lobby_goes_round_the_languages_and_keeps_the_choice(data_dir: Path) -> None:
    kapp = KupferApp(name="Ann", settings=Settings.load())
    said = []
    for _ in i18n.LANGUAGES:
        kapp.key("l")
        said.append(i18n.language())
        assert Settings.load().lang == i18n.language()
    assert said == [*i18n.LANGUAGES[1:], "en"]
    kapp.key("l")
    screen = fragment_list_to_text(kapp.text())
    assert "Sprache: Deutsch" in screen and "l: Sprache (Deutsch)" in screen, screen


def test_the_pseudo_locale_is_longer_and_keeps_its_placeholders() -> None:
    text = "{who} takes {card} from {line}"
    said = pseudo(text)
    assert "{who}" in said and "{card}" in said and "{line}" in said
    assert len(said) >= len(text) + 4 and "takes" not in said
    assert said.format(who="Ann", card="Toad 2", line="row 3").startswith("Ann ţàķéš Toad 2")


def test_numbers_lists_and_places_are_the_languages() -> None:
    i18n.use("de")
    assert i18n.fmt_number(30) == "30,0" and i18n.ordinal(2) == "2."
    assert i18n.fmt_list(["A", "B", "C"]) == "A, B und C"
    i18n.use("fr")
    assert i18n.ordinal(1) == "1er" and i18n.ordinal(2) == "2e"
    i18n.use("en")
    assert [i18n.ordinal(n) for n in (1, 2, 3, 4)] == ["1st", "2nd", "3rd", "4th"]
    assert i18n.fmt_list(["A", "B", "C"]) == "A, B and C"


@pytest.mark.parametrize("lang", ["de", "fr", "es", i18n.PSEUDO])
def test_every_refusal_is_said_in_the_language(lang: str) -> None:
    """Every error code of the protocol has its own sentence, said from the code and
    its fields, never the server's English ``message``."""
    from protocol.messages.errors import ErrorCode

    i18n.use(lang)
    assert set(REFUSALS) == {c.value for c in ErrorCode}
    for code in ErrorCode:
        assert untranslated(refusal_words(code.value), lang, set()) == [], code
    for detail in DETAILS:  # the details that say more than their code
        said = refusal_words("invalid_field", detail)
        assert untranslated(said, lang, set()) == [] and said != refusal_words("invalid_field")
    said = refusal_words("rate_limited", None, 30)
    assert "30" in said and untranslated(said, lang, set()) == []


async def until(cond: object, timeout: float = 60.0, tick: object = None) -> None:
    async with asyncio.timeout(timeout):
        while not cond():  # type: ignore[operator]
            if tick is not None:
                tick()  # type: ignore[operator]
            await asyncio.sleep(0.05)


def read_every_size(kapp: KupferApp, lang: str, names: set[str], what: str) -> None:
    for width, height in SMALL_AND_USUAL:
        screen = draw(kapp, width, height)  # no line cut, none wider than the screen
        left = untranslated(screen, lang, names)
        assert left == [], f"{what} at {width}x{height} in {lang}: {left}\n{screen}"


@pytest.mark.parametrize("lang", ["xx", "de", "fr", "es"])
async def test_a_whole_game_reads_in_the_language_at_every_size(url: str, lang: str) -> None:
    """From the lobby through a game against the computer to the score table, each
    screen on the way at 60x20 and 80x24."""
    i18n.use(lang)
    names = {"Ann", "Annabelle"}
    with create_pipe_input() as inp:
        kapp = KupferApp(name="Ann", input=inp, output=SizedOutput(), address=url)
        run = asyncio.create_task(kapp.run())
        try:
            await until(lambda: kapp.lobby is not None)
            inp.send_text("a\r")
            await until(lambda: kapp.client is not None and kapp.client.connected)
            client = kapp.client
            assert client is not None and client.welcome is not None
            names |= {*client.welcome.server.split(), *client.url.split("/")}
            read_every_size(kapp, lang, names, "the lobby")
            inp.send_text("n")
            await until(lambda: kapp.lobby.form is not None)
            read_every_size(kapp, lang, names, "the new-table form")
            form = kapp.lobby.form
            assert form is not None
            keys = [f.key for f in form.fields()]
            inp.send_text("\x1b[B" * keys.index("bot1") + "\x1b[C")
            await until(lambda: form.values["bot1"] == "easy")
            names.add(form.values["table"])  # the table's name, as given
            inp.send_text("\x1b[B\r")
            await until(lambda: kapp.game.table.view is not None)
            assert client.table is not None
            names.add(client.table)
            read_every_size(kapp, lang, names, "the table")
            kapp.key("?")
            read_every_size(kapp, lang, names, "the help")
            kapp.key("x")
            kapp.key("G")
            for page in range(3):
                read_every_size(kapp, lang, names, f"the guide's page {page + 1}")
                kapp.key("right")
            kapp.key("L")
            read_every_size(kapp, lang, names, "the log")
            kapp.key("x")
            turns = 0

            def take() -> None:
                nonlocal turns
                if kapp.game.table.my_turn or kapp.game.table.decision is not None:
                    turns += 1
                    if turns % 7 == 0:  # now and then, mid-game
                        read_every_size(kapp, lang, names, "the table, later")
                    inp.send_text("\r")

            view = kapp.game.table
            await until(lambda: view.view is not None and view.view.game_over, 120, take)
            read_every_size(kapp, lang, names, "the score table")
            kapp.key("g")
            read_every_size(kapp, lang, names, "the board at the end")
            if lang == i18n.PSEUDO:  # every message shown is one a translator is given
                pot = {(msg.context, msg.id) for msg in template() if msg.id}
                pot |= {(c, i[0]) for c, i in pot if isinstance(i, tuple)}
                asked = i18n.translations(lang).asked  # type: ignore[attr-defined]
                assert asked and asked <= pot, sorted(asked - pot)
        finally:
            kapp.exit()
            await asyncio.wait_for(run, 10)
            if kapp.client is not None:
                await kapp.client.close()


@pytest.fixture(params=["xx", "de", "fr", "es"])
def speaking(request: pytest.FixtureRequest) -> str:
    """A language spoken from before the table is set up (its first log lines too)."""
    lang: str = request.param
    i18n.use(lang)
    return lang


async def test_three_players_with_one_away_and_a_clock_read_in_the_language(
    speaking: str, away3: tuple[KupferApp, Client]
) -> None:
    """The fullest table screen: three seats with recipes, Black away (a computer plays
    for them), the others' takes since yours, a boom, a clock and its warning."""
    kapp, client = away3
    lang = speaking
    game = kapp.game
    game.recent = Recent()
    game.recent.decided = True
    boom = m.TookEvent(
        seat=2, card="frog_slime-2", line="row3", row=3, col=1, special=True, ends_game=False
    )
    view = game.table.view
    assert view is not None and view.kettles[0].top is not None
    hit = m.ExplodedEvent(seat=2, target=0, card=view.kettles[0].top, to="deck")
    events = (*took(1, "moss-3", 2), m.MovedEvent(seat=2, from_space=11, to_space=14, skipped=()))
    game.on_update(m.EventsMsg(state_version=1, events=(*events, boom, hit)))
    clock = m.ClockInfo(
        move_ms=30_000, running=0, left_ms=(29_000,) * 3, reserve_ms=(0,) * 3, timeouts=(1, 0, 0)
    )
    game.table.set_view(view.model_copy(update={"clock": clock}), game.table.state_version + 1)
    names = {"Ann", "Bob", client.table or ""}
    read_every_size(kapp, lang, names, "the table")
    kapp.key("L")
    read_every_size(kapp, lang, names, "the kettles and the log")
    kapp.key("x")
    kapp.key("w")  # claim? not with three players: nothing asked
    kapp.key("R")
    read_every_size(kapp, lang, names, "resign?")
    kapp.key("n")


@pytest.mark.parametrize("lang", ["de", "fr", "es", i18n.PSEUDO])
def test_a_bad_address_is_said_in_the_language(lang: str) -> None:
    """The library says why an address is none (``reason``); the lobby says it in the
    language, the address as typed."""
    i18n.use(lang)
    for typed in ("", "http://h:1", "ws://h:99999", "ftp://h", "ws://:8765", "ws://h:0"):
        with pytest.raises(BadAddress) as caught:
            normalize_url(typed)
        said = client_error_words(caught.value)
        assert caught.value.reason and untranslated(said, lang, {"ws", "h"}) == [], said
        assert typed.strip() in said, said


@pytest.mark.parametrize("lang", ["xx", "de"])
async def test_the_players_screens_read_in_the_language(url: str, lang: str) -> None:
    """Protocol 1.2's screens: a profile with its games and a device code, the
    leaderboard, the account form, your devices."""
    i18n.use(lang)
    client = Client(url, name="Ada", persist_tokens=False, protocol=m.PROTOCOL_VERSION)
    await client.connect()
    ada = ADA
    games = [
        m.GameSummary(
            table=f"t{n}",
            name="Friday",
            finished=1764590400 + n * 600,
            seat=0,
            names=("Ada", "Grace"),
            ending=ending,
            places=(1, 2),
            rated=True,
            rating_before=10.0,
            rating_after=10.5,
        )
        for n, ending in enumerate(("played_out", "resigned", "claimed", "timed_out"))
    ]
    names = {"Ada", "Grace", "Friday", "Player", "KQ2"}
    try:
        with create_pipe_input() as inp:
            kapp = KupferApp(name="Ada", client=client, input=inp, output=SizedOutput())
            client.player = ada
            screen = kapp.players
            screen.page, screen.player = "profile", ada
            screen.games.add(games, "g4", 31)
            screen.code = m.DeviceCodeMsg(code="7KQ2-MX4V", expires_in=300)
            screen.code_at = time.monotonic()
            read_every_size(kapp, lang, names, "a profile")
            screen.page = "board"
            screen.board.add(
                [
                    m.LeaderEntry(
                        rank=1,
                        name="Player",
                        rating=30,
                        mu=35,
                        sigma=2,
                        rated_games=40,
                        provisional=False,
                    )
                ],
                "r1",
                12,
            )
            read_every_size(kapp, lang, names, "the leaderboard")
            screen.page, screen.form = "account", account_form("Ada")
            read_every_size(kapp, lang, names, "the account form")
    finally:
        await client.close()


@pytest.mark.parametrize("lang", [*i18n.LANGUAGES, i18n.PSEUDO])
def test_every_page_of_the_guide_is_whole_at_60x20(lang: str) -> None:
    """A longer language's guide gives up its blank lines, never a word (16 rows: a
    60x20 screen under a status line and the chat's newest line)."""
    i18n.use(lang)

    def letters(text: str) -> str:  # the words, wherever the lines broke them
        return re.sub(r"[\s·]+", "", text)

    for page, (title, paragraphs) in enumerate(PAGES):
        shown = letters(" ".join(text_of(line) for line in guide_lines(page, 60, 16)))
        assert letters(i18n._(title)) in shown
        for text in paragraphs:
            assert letters(i18n._(text)) in shown, (lang, page, text)


@pytest.mark.parametrize("lang", ["xx", "de"])
async def test_the_waiting_screen_of_a_private_table_reads_in_the_language(
    url: str, lang: str
) -> None:
    """Seated at a private three-seat table with a clock, waiting for the others:
    who sits where, the terms, the invite code, the chat."""
    i18n.use(lang)
    client = Client(url, name="Ada", persist_tokens=False, protocol=m.PROTOCOL_VERSION)
    await client.connect()
    try:
        created = await client.create_table(
            "Ada's",
            m.TableOptions(players=3, recipes=True, memory="casual"),
            private=True,
            player="Ada",
            timing=m.Timing(move=30),
        )
        with create_pipe_input() as inp:
            kapp = KupferApp(name="Ada", client=client, input=inp, output=SizedOutput())
            kapp.sat_down(client)
            kapp.lobby.tables = await client.list_tables()
            names = {"Ada", created.table.id, created.invite or ""}
            read_every_size(kapp, lang, names, "the waiting screen")
    finally:
        await client.close()


@pytest.mark.parametrize("lang", ["xx", "de", "fr", "es"])
def test_protocol_1_4s_words_are_the_languages(lang: str) -> None:
    """How each seat ended (every ending, the computer's takes, a rating's change) and
    what the log says before the takes missed while away."""
    i18n.use(lang)
    view = view_model(shared_view(Record.new(Options(players=3, seed=1)).start(), 0))
    endings = ("played_out", "resigned", "timed_out", "claimed", "lost_claim", "abandoned")
    seats = [
        m.SeatInfo(
            seat=s % 3,
            name="Ann",
            ended=ending,
            computer_takes=s,
            rating_after=12.5,
            rating_before=None if s else 10.0,
        )
        for s, ending in enumerate(endings)
    ]
    said = " ".join(text_of(line) for line in seat_end_lines(view, seats, 80))
    assert untranslated(said, lang, {"Ann"}) == [], said
    entries, notice = missed_entries(5, 2, 3)
    for text in (*(e.text for e in entries), notice):
        assert untranslated(text, lang, set()) == [], text
