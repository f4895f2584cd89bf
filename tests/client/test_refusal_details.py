"""The refusals whose particulars a person needs, said from the error's fields in the
player's language, never from the server's English ``message``: the field
``invalid_field`` refuses (1.5), how long and until when a ban or a mute lasts, and
the versions a server speaks that refused the client's. A real server (its real admin
socket for the sanctions), the real client library and the terminal client's words."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from client import i18n
from client.lib import Client, ServerError
from client.ui.refusals import REFUSALS, SANCTIONS, client_error_words, error_words
from protocol import messages as m
from server.app import Server, ServerConfig
from server.store import MemoryStore
from tests.helpers import until
from tests.helpers.admin import ask
from tests.helpers.languages import untranslated

LANGS = ["de", i18n.PSEUDO]


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    """One language for the whole process: each test leaves English behind."""
    yield
    i18n.use("en")


@pytest.fixture
async def operated(tmp_path: Path) -> AsyncIterator[Server]:
    """A server with its admin socket, through which the operator bans and mutes."""
    config = ServerConfig(host="127.0.0.1", port=0, admin_socket=str(tmp_path / "admin.sock"))
    srv = Server(config, MemoryStore())
    await srv.start()
    yield srv
    await srv.stop()


def url_of(server: Server) -> str:
    return f"ws://127.0.0.1:{server.port}"


@pytest.mark.parametrize("lang", LANGS)
async def test_a_version_refused_says_which_the_server_speaks(server: Server, lang: str) -> None:
    i18n.use(lang)
    client = Client(url_of(server), name="Ann", persist_tokens=False, protocol=(2, 0))
    with pytest.raises(ServerError) as caught:
        await client.connect()
    await client.close()
    assert caught.value.code == "version_unsupported"
    said = client_error_words(caught.value)
    newest = f"{m.PROTOCOL_VERSION[0]}.{m.PROTOCOL_VERSION[1]}"
    assert f"1.0-{newest}" in said, said
    assert untranslated(said, lang, set()) == [], said
    assert said != i18n._(REFUSALS["version_unsupported"])


@pytest.mark.parametrize("lang", LANGS)
async def test_a_ban_says_how_long_and_until_when(operated: Server, lang: str) -> None:
    banned = await ask(operated, "ban", name="Ann", seconds=2 * 3600, reason="rude")
    assert banned["ok"]
    i18n.use(lang)
    client = Client(url_of(operated), name="Ann", persist_tokens=False, protocol=(1, 4))
    await client.connect()
    try:
        with pytest.raises(ServerError) as caught:
            await client.create_table("Ann's", player="Ann")
    finally:
        await client.close()
    error = caught.value
    assert error.code == "banned" and error.until is not None
    assert abs(error.until - (time.time() + 2 * 3600)) < 120
    said = client_error_words(error)
    two_hours = i18n.fmt_duration(2 * 3600)
    assert two_hours in said and ("2 Stunden" in said) == (lang == "de"), said
    assert untranslated(said, lang, set()) == [], said
    assert said != i18n._(REFUSALS["banned"])


@pytest.mark.parametrize("lang", LANGS)
async def test_a_mute_until_lifted_says_so(operated: Server, lang: str) -> None:
    i18n.use(lang)
    client = Client(url_of(operated), name="Bo", persist_tokens=False, protocol=(1, 0))
    await client.connect()
    try:
        await client.create_table("Bo's", player="Bo")
        muted = await ask(operated, "mute", name="Bo", reason="spam")
        assert muted["ok"]
        with pytest.raises(ServerError) as caught:
            await client.chat("hello")
    finally:
        await client.close()
    error = caught.value
    assert error.code == "muted" and error.until_lifted and error.until is None  # 1.0 too
    said = error_words(error)
    assert untranslated(said, lang, set()) == [], said
    assert said == i18n._(SANCTIONS["muted"][1]) != i18n._(REFUSALS["muted"])


async def seat_refused(server: Server, version: tuple[int, int]) -> ServerError:
    """A join of a seat the table does not have, on a connection of ``version``."""
    client = Client(url_of(server), name="Cy", persist_tokens=False, protocol=version)
    await client.connect()
    try:
        created = await client.create_table("Cy's")
        with pytest.raises(ServerError) as caught:
            await client.join(created.table.id, "Cy", seat=2)
    finally:
        await client.close()
    assert caught.value.code == "invalid_field"
    return caught.value


@pytest.mark.parametrize("lang", LANGS)
async def test_a_field_refused_is_named(server: Server, lang: str) -> None:
    i18n.use(lang)
    error = await seat_refused(server, (1, m.FIELD_ADDED_IN))
    assert error.field == "seat"
    said = client_error_words(error)
    assert "seat" in said and untranslated(said, lang, {"seat"}) == [], said
    assert said != i18n._(REFUSALS["invalid_field"])


async def test_a_field_is_not_named_to_an_older_client(server: Server) -> None:
    """1.0 to 1.4 get the error their version's server sent (the golden frames)."""
    error = await seat_refused(server, (1, 4))
    assert error.field is None
    assert client_error_words(error) == i18n._(REFUSALS["invalid_field"])


async def test_a_ban_met_on_coming_back_keeps_its_particulars(operated: Server) -> None:
    """Banned while seated: the connection closes, the client comes back and its resume
    is refused; the refusal it passes on says how long the ban lasts."""
    i18n.use("de")
    client = Client(url_of(operated), name="Di", persist_tokens=False, protocol=(1, 4))
    await client.connect()
    seen: list[m.ErrorMsg] = []

    async def read() -> None:
        async for u in client.updates():
            if isinstance(u, m.ErrorMsg):
                seen.append(u)

    reading = asyncio.create_task(read())
    try:
        await client.create_table("Di's", player="Di")
        assert (await ask(operated, "ban", name="Di", seconds=600))["ok"]
        await until(lambda: bool(seen), timeout=30)
    finally:
        reading.cancel()
        await client.close()
    assert seen[0].code == "banned" and seen[0].until is not None
    said = error_words(seen[0])
    assert i18n.fmt_duration(600) in said and untranslated(said, "de", set()) == [], said
