"""The refusals whose particulars a person needs, said from the error's fields in the
player's language, never from the server's English ``message``: the field
``invalid_field`` refuses (1.5), how long and until when a ban or a mute lasts, the
versions a server speaks that refused the client's, and the limit that refused a new
table (1.6); a wait said once, and a server with all its connections. A real server (its real admin
socket for the sanctions), the real client library and the terminal client's words."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from client import i18n
from client.lib import Client, ServerError
from client.ui.refusals import (
    FULL,
    GOODBYES,
    REFUSALS,
    SANCTIONS,
    bye_words,
    client_error_words,
    error_words,
    refusal_words,
)
from protocol import messages as m
from server.app import Server, ServerConfig
from server.lobby import NO_QUOTAS, Quotas
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


HARD = [(0, "hard"), (1, "hard")]

LIMITED = {
    "lobby": {"quotas": Quotas(lobby_tables=1, unattended_games=0, bot_games=0)},
    "unattended": {"quotas": Quotas(lobby_tables=0, unattended_games=1, bot_games=0)},
    "bots": {"quotas": Quotas(lobby_tables=0, unattended_games=0, bot_games=1)},
    "tables": {"quotas": NO_QUOTAS, "max_tables": 1},
}
"""A server refusing a second table by each limit (1.6's ``limit`` of ``server_full``)."""


async def table_refused(limit: str, version: tuple[int, int]) -> ServerError:
    """A new table refused by ``limit`` on a connection of ``version``: another of the
    address took what the limit allows (a game it left running, for ``unattended``)."""
    config = ServerConfig(host="127.0.0.1", port=0, bot_think=0.01, **LIMITED[limit])
    srv = Server(config, MemoryStore())
    await srv.start()
    first = Client(url_of(srv), name="Ann", persist_tokens=False, protocol=m.PROTOCOL_VERSION)
    client = Client(url_of(srv), name="Cy", persist_tokens=False, protocol=version)
    try:
        await first.connect()
        options = m.TableOptions(players=2)
        if limit == "unattended":
            await first.create_table("Ann's", options, bots=[(1, "easy")], player="Ann", seat=0)
            await first.ready()
            await until(lambda: first.view is not None, timeout=30)
            await first.close()  # the game runs on with nobody at it
            await until(lambda: not any(t.seating.attended for t in srv.lobby.tables.values()))
        else:
            await first.create_table("Ann's", options, bots=HARD if limit == "bots" else [])
        await client.connect()
        with pytest.raises(ServerError) as caught:
            await client.create_table("Cy's", options, bots=HARD if limit == "bots" else [])
    finally:
        await client.close()
        await first.close()
        await srv.stop()
    assert caught.value.code == "server_full"
    return caught.value


@pytest.mark.parametrize("limit", list(LIMITED))
async def test_each_limit_is_said_in_words_with_its_way_out(limit: str) -> None:
    """1.6: the limit that refused the table, said as it is (a game of yours left
    running is not "the server is full"), in every language."""
    error = await table_refused(limit, m.PROTOCOL_VERSION)
    assert error.limit == limit
    for lang in ("en", *LANGS):
        i18n.use(lang)
        said = client_error_words(error)
        assert said == i18n._(FULL[limit]) != i18n._(REFUSALS["server_full"]), said
        assert lang == "en" or untranslated(said, lang, set()) == [], said


async def test_a_limit_is_not_named_to_an_older_client() -> None:
    """1.0 to 1.5 get the error their version's server sent (the golden frames)."""
    error = await table_refused("unattended", (1, 5))
    assert error.limit is None
    assert client_error_words(error) == i18n._(REFUSALS["server_full"])


@pytest.mark.parametrize("lang", ["en", *LANGS])
def test_a_wait_is_said_once(lang: str) -> None:
    """``rate_limited`` with ``retry_after``: when to try again, once (it said "wait a
    moment and try again. Try again in 30 seconds.")."""
    i18n.use(lang)
    said = refusal_words("rate_limited", None, 30)
    assert "30" in said and (lang == "en" or untranslated(said, lang, set()) == []), said
    assert i18n._(REFUSALS["rate_limited"]).rstrip(".") not in said, said
    if lang == "en":
        assert said.lower().count("try again") == 1, said


@pytest.mark.parametrize("lang", ["en", *LANGS])
def test_a_server_with_all_its_connections_says_so(lang: str) -> None:
    """``bye`` ``server_full`` before ``welcome`` is the connection limit (no table's)."""
    i18n.use(lang)
    said = bye_words("server_full")
    assert i18n._(GOODBYES["server_full"]) in said
    assert lang == "en" or untranslated(said, lang, set()) == [], said
    assert i18n._(REFUSALS["server_full"]) not in said
