"""What PROTOCOL.md says and the server does agree, against a real server: a server
without a database (``--no-persist``) keeps protocol 1.2's history while it runs; a
``rejoin`` from a seated connection follows the session state table; a JSON ``tables``
page keeps the documented byte cap; a rematch's name is the one PROTOCOL.md gives."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from protocol import messages as m
from server.lobby.registry import rematch_name
from server.net.summaries import TABLES_OVERHEAD
from shared.record import Record
from tests.helpers.servers import MakeServer
from tests.server.wsclient import WsClient, create, join

from .helpers import new_secret, signed_in

DOCS = Path(__file__).resolve().parents[2] / "docs"


async def _resigned_game(port: int, **fields: Any) -> tuple[WsClient, WsClient, str]:
    """Ada and Bob, signed in, play a game (``create_table``'s ``fields``) that Ada
    ends by resigning."""
    ada = await signed_in(port, "Ada", new_secret(), register=True)
    bob = await signed_in(port, "Bob", new_secret(), register=True)
    table, _, _ = await create(ada, "Ada", **fields)
    await join(bob, table, "Bob")
    for c in (ada, bob):
        await c.send("ready")
    for c in (ada, bob):
        await c.wait_type("view")
    assert (await ada.request("resign")).type == "ack"
    await bob.wait_for(lambda x: x.type == "presence" and x.state == "finished")
    return ada, bob, table


async def test_a_server_without_a_database_keeps_history_while_it_runs(
    make_server: MakeServer,
) -> None:
    server = await make_server()  # the memory store: --no-persist
    ada, bob, table = await _resigned_game(server.port, rated=True, name="Friday")
    profile = await bob.request("show_profile")
    assert (profile.player.games, profile.player.wins) == (1, 1)  # (resigned at once: unrated)
    games = await bob.request("list_games", name="Ada")
    assert [(g.table, g.name, g.ending, g.rated) for g in games.games] == [
        (table, "Friday", "resigned", True)
    ]
    assert games.total == 1
    record = await ada.request("get_record", table=table)
    assert record.type == "record", record
    assert record.names == ("Ada", "Bob") and record.record.result.ending == "resigned"
    for c in (ada, bob):
        await c.close()


async def test_rejoin_of_another_table_while_seated_is_already_seated(
    make_server: MakeServer,
) -> None:
    """The state table: ``rejoin`` while seated is ✓ for the same table, else
    ``already_seated``, whether the other table exists or not."""
    server = await make_server()
    ada = await signed_in(server.port, "Ada", new_secret(), register=True)
    table, _, _ = await create(ada, "Ada")
    other = await WsClient.open(server.port, "other", (1, 2))
    elsewhere, _, _ = await create(other, None)
    for missing in ("nosuchtable", elsewhere):
        answer = await ada.request("rejoin", table=missing)
        assert answer.type == "error" and answer.code == "already_seated", (missing, answer)
    assert (await ada.request("rejoin", table=table)).type == "resumed"
    for c in (ada, other):
        await c.close()


async def test_a_json_tables_page_keeps_the_byte_cap(make_server: MakeServer) -> None:
    """100 three-player tables whose names escape to six bytes a character in JSON
    (the page is measured as this connection encodes it, not as msgpack)."""
    limits = m.DEFAULT_LIMITS.model_copy(update={"rate_messages": 1000, "rate_burst": 1000})
    server = await make_server(limits=limits)
    maker = await WsClient.open(server.port, "maker", (1, 2))
    name = "Ω" * 48
    for _ in range(100):
        await create(maker, None, name=name, options={"players": 3})
    cap = server.config.max_listing_bytes
    for json in (True, False):
        reader = await WsClient.open(server.port, "reader", (1, 2), json=json)
        seen, cursor = 0, None
        while True:
            page = await reader.request("list_tables", cursor=cursor, limit=100)
            frame = reader.raw[-1]
            size = len(frame.encode() if isinstance(frame, str) else frame)
            assert size <= cap, (json, size)
            seen += len(page.tables)
            if (cursor := page.next) is None:
                break
            assert size > cap - TABLES_OVERHEAD - 1000  # a full page: the cap, not the limit
        assert seen == 100
        await reader.close()
    await maker.close()


def test_a_rematchs_name_is_the_one_the_docs_give() -> None:
    """PROTOCOL.md names a rematch as the server does."""
    text = " ".join((DOCS / "PROTOCOL.md").read_text().split())
    assert rematch_name("Kitchen") == "Kitchen, game 2"
    assert rematch_name("Kitchen, game 2") == "Kitchen, game 3"
    assert "the same options, name," not in text
    assert '"Kitchen" plays "Kitchen, game 2", then "Kitchen, game 3"' in text


async def test_a_record_message_reads_as_a_record_file(make_server: MakeServer) -> None:
    """The ``record`` message writes ``recipes`` as the protocol does (a boolean), the
    exported file as RULES.md does (``"on"``); both read as the same record, and
    PROTOCOL.md says so."""
    server = await make_server()
    ada, bob, table = await _resigned_game(server.port, options={"recipes": True})
    msg = await bob.request("get_record", table=table)
    assert msg.type == "record", msg
    sent = msg.record.model_dump(mode="json", exclude_none=True)
    assert sent["options"]["recipes"] is True
    stored = server.store.load_record(table)
    assert stored is not None
    file_form = stored[0].to_dict()
    assert file_form["options"]["recipes"] == "on"
    assert Record.from_dict(sent).to_dict() == file_form
    text = " ".join((DOCS / "PROTOCOL.md").read_text().split())
    assert '`recipes` is `true` or `false` where a record file writes `"on"` or `"off"`' in text
    for c in (ada, bob):
        await c.close()
