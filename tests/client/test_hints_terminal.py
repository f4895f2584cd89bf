"""Hints in the terminal (protocol 1.5): at an unrated table made with hints, the
header tells everyone (seats and spectators), the seat to move has ``H``: it says it
is asking, then the cursor marks the expert's card and a sentence names it; a hint
asked too often, or where the table allows none, is refused in words; without hints
the key is not offered; the new-table form offers hints only when the table is not
rated; a 1.4 server gives none."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable, Iterator

import pytest
from prompt_toolkit.input import create_pipe_input

from client import i18n
from client.i18n import _
from client.lib import Client, ClientError
from client.ui.app import KupferApp
from client.ui.forms import create_form, table_request
from client.ui.hints import hint_words
from client.ui.refusals import refusal_words
from client.ui.render import Cards
from protocol import messages as m
from server.app import Server, ServerConfig
from server.players.analyses import AnalysisBounds
from server.store import MemoryStore
from tests.helpers.languages import untranslated
from tests.helpers.screens import SizedOutput, draw, whole

ONE_A_MINUTE = AnalysisBounds(budget=4, workers=0, hints_per_minute=1, hint_burst=1)
"""Hints weighed over 4 deals, one a minute from an address: the second is refused."""


@pytest.fixture
async def hinting() -> AsyncIterator[str]:
    """A server whose hints are quick and one a minute; its address."""
    config = ServerConfig(host="127.0.0.1", port=0, bot_think=0.01, analysis=ONE_A_MINUTE)
    srv = Server(config, MemoryStore())
    await srv.start()
    yield f"ws://127.0.0.1:{srv.port}"
    await srv.stop()


async def _until(what: Callable[[], object], deadline: float = 30) -> None:
    async with asyncio.timeout(deadline):
        while not what():
            await asyncio.sleep(0.02)


async def _seat(url: str, options: m.TableOptions) -> tuple[Client, str]:
    """A 1.5 connection seated at a new table against an easy bot, on its turn."""
    client = Client(url, name="Ann", persist_tokens=False, protocol=m.PROTOCOL_VERSION)
    await client.connect()
    made = await client.create_table("t", options, bots=[(1, "easy")], player="Ann", seat=0)
    await client.ready()
    await _until(lambda: client.view is not None and client.view.to_move == 0)
    return client, made.table.id


@contextlib.contextmanager
def _screen(client: Client) -> Iterator[KupferApp]:
    with create_pipe_input() as inp:
        kapp = KupferApp(name="Ann", client=client, input=inp, output=SizedOutput())
        kapp.sat_down(client)
        yield kapp


@pytest.mark.parametrize("lang", ["en", "de", "fr", "es"])
async def test_a_hint_is_asked_marked_and_said_at_a_table_with_hints(
    hinting: str, lang: str
) -> None:
    i18n.use(lang)
    try:
        client, table = await _seat(hinting, m.TableOptions(seed=5, hints=True))
        watcher = Client(hinting, name="Wes", persist_tokens=False, protocol=m.PROTOCOL_VERSION)
        await watcher.connect()
        await watcher.watch(table)
        await _until(lambda: watcher.view is not None)
        with _screen(client) as kapp, _screen(watcher) as watching:
            game, t = kapp.game, kapp.game.table
            hints_on = _("hints on")
            names = {"Ann", "Wes", table}
            for width, height in ((60, 20), (80, 24)):
                screen = draw(kapp, width, height)
                assert hints_on in screen.split("\n")[0]  # the header tells the seat
                whole(_("H: hint"), screen)
                assert lang == "en" or untranslated(screen, lang, names) == []
                seen = draw(watching, width, height)
                assert hints_on in seen.split("\n")[0]  # and the spectator
                assert _("H: hint") not in seen
            kapp.key("H")
            await _until(lambda: game.hints.hint is not None or kapp.status)
            hint = game.hints.hint
            assert hint is not None, kapp.status
            assert hint.state_version == t.state_version
            choice = next(c for c in t.choices if c.card == hint.take.take)
            assert t.cursor_cell() == (choice.row, choice.col)  # marked as a chosen card
            said = hint_words(hint, Cards.of(client.catalogue))
            assert Cards.of(client.catalogue).name(hint.take.take) in said
            for width, height in ((60, 20), (80, 24)):
                screen = draw(kapp, width, height)
                whole(said, screen)  # nothing of it cut
                assert lang == "en" or untranslated(screen, lang, names) == []
            kapp.key("H")  # the second in a minute: refused, in words, with the wait
            await _until(lambda: kapp.status)
            wait = int("".join(ch for ch in kapp.status if ch.isdigit()))  # retry_after
            assert kapp.status == "! " + refusal_words("rate_limited", None, wait)  # said once
            assert game.hints.asked is None
            assert t.view is not None  # a new state: the hint is old news
            t.set_view(t.view, t.state_version + 1)
            assert hint_words(hint, Cards.of(client.catalogue)) not in draw(kapp, 80, 24)
        await watcher.close()
        await client.close()
    finally:
        i18n.use("en")


async def test_no_hint_key_where_the_table_allows_none_and_a_refusal_in_words(
    hinting: str,
) -> None:
    i18n.use("en")
    client, _table = await _seat(hinting, m.TableOptions(seed=5))
    with _screen(client) as kapp:
        game = kapp.game
        screen = draw(kapp, 80, 24)
        assert "H: hint" not in screen and "hints on" not in screen
        kapp.key("H")  # not offered: nothing is asked
        assert game.hints.asked is None and kapp.status == ""
        kapp.act(lambda: game.hints.ask(client, game.table))  # asked anyway: refused
        await _until(lambda: kapp.status)
        assert (
            kapp.status == "! No hints here: the table allows none, or a computer plays your seat."
        )
    await client.close()


async def test_an_older_server_gives_no_hint(hinting: str) -> None:
    client = Client(hinting, name="Ann", persist_tokens=False, protocol=(1, 4))
    await client.connect()
    try:
        with pytest.raises(ClientError, match="no hints"):
            await client.hint()
    finally:
        await client.close()


def test_the_form_offers_hints_only_at_a_table_that_is_not_rated() -> None:
    i18n.use("en")
    assert "hints" not in [f.key for f in create_form("Ann").fields()]  # a 1.4 server
    form = create_form("Ann", hints=True, rated=True)
    keys = [f.key for f in form.fields()]
    form.focus = keys.index("hints")
    form.key("right")
    _name, options, *_rest = table_request(form.values)
    assert options.hints
    form.focus = [f.key for f in form.fields()].index("rated")
    form.key("right")  # rated: no hints offered, and none asked for
    assert "hints" not in [f.key for f in form.fields()]
    _name, options, *_rest = table_request(form.values)
    assert not options.hints


async def test_a_table_made_with_the_forms_hints_has_them(hinting: str) -> None:
    i18n.use("en")
    client = Client(hinting, name="Ann", persist_tokens=False, protocol=m.PROTOCOL_VERSION)
    await client.connect()
    with create_pipe_input() as inp:
        kapp = KupferApp(name="Ann", client=client, input=inp, output=SizedOutput())
        kapp.key("n")
        form = kapp.lobby.form
        assert form is not None
        whole("Hints (H: the expert)", draw(kapp, 60, 20))
        form.focus = [f.key for f in form.fields()].index("hints")
        kapp.key("right")
        form.focus = [f.key for f in form.fields()].index("bot1")
        kapp.key("right")  # an easy bot
        form.focus = len(form.fields()) - 1
        kapp.key("enter")  # Create table
        await _until(lambda: client.view is not None)  # created, seated, started
        assert client.view is not None and client.view.options.hints
        kapp.sat_down(client)
        assert "hints on" in draw(kapp, 80, 24).split("\n")[0]
    await client.close()
