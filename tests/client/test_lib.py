"""The client library against a real server on loopback: games, errors, reconnection,
resume after a restart, and the token file."""

from __future__ import annotations

import argparse
import asyncio
import logging
import stat
from pathlib import Path

import pytest

from client.bot_runner import play_seat
from client.lib import (
    BadOptions,
    BadToken,
    Client,
    IllegalMoveError,
    NoSuchTable,
    NotAllowed,
    NotSeated,
    NotYourTurn,
    Seated,
    StaleState,
    Status,
    normalize_url,
)
from client.tokens import TokenStore
from protocol import messages as m
from server.app import Server, ServerConfig
from server.store import MemoryStore


async def wait_for(cond, timeout: float = 10.0) -> None:  # type: ignore[no-untyped-def]
    async with asyncio.timeout(timeout):
        while not cond():
            await asyncio.sleep(0.01)


async def test_handshake_keeps_catalogue_and_limits(url: str) -> None:
    async with Client(url, name="Ann") as c:
        assert c.welcome is not None
        assert len(c.catalogue.cards) == 56
        assert c.limits.idle_timeout > 0
        assert "easy" in c.welcome.bot_levels
        await c.ping()
        assert await c.list_tables() == ()


async def test_full_game_against_a_server_bot(url: str, data_dir: Path) -> None:
    async with Client(url, name="Ann") as c:
        created = await c.create_table(
            "ann", m.TableOptions(recipes=True), bots=[(1, "easy")], player="Ann"
        )
        assert created.seated is not None and created.seated.seat == 0
        tokens = data_dir / "tokens.json"
        assert stat.S_IMODE(tokens.stat().st_mode) == 0o600
        assert c.saved_table(created.table.id)
        await c.ready()
        final = await asyncio.wait_for(play_seat(c, "easy", seed=1), 60)
        assert final.game_over and final.scores is not None and len(final.scores) == 2
        assert all(k.cards is not None for k in final.kettles)  # every kettle revealed
        assert not TokenStore(data_dir).seats(c.url)  # a finished seat is forgotten


async def test_two_library_clients_play_each_other(url: str) -> None:
    async with Client(url, name="Ann") as a, Client(url, name="Bob") as b:
        created = await a.create_table("duel", m.TableOptions(players=2), player="Ann")
        tables = await b.list_tables()
        assert [t.id for t in tables] == [created.table.id]
        seated = await b.join(created.table.id, "Bob")
        assert seated.seat == 1
        await a.ready()
        await b.ready()
        va, vb = await asyncio.wait_for(
            asyncio.gather(play_seat(a, "easy", seed=1), play_seat(b, "easy", seed=2)), 60
        )
        assert va.scores == vb.scores and va.winners == vb.winners


async def test_typed_errors(url: str) -> None:
    async with Client(url, name="Ann") as a, Client(url, name="Bob") as b:
        with pytest.raises(NoSuchTable):
            await a.join("nope", "Ann")
        with pytest.raises(NotSeated):
            await a.ready()  # refused: the barrier ping turns the error into an exception
        with pytest.raises(BadOptions):
            await a.create_table("x", bots=[(1, "grandmaster")])
        created = await a.create_table("t", player="Ann")
        await b.join(created.table.id, "Bob")
        await a.ready()
        await b.ready()
        await wait_for(lambda: a.view is not None and b.view is not None)
        view = a.view
        assert view is not None and view.to_move == 0
        offered = {ch.card for ch in view.choices}
        elsewhere = next(c for row in view.grid for c in row if c and c not in offered)
        with pytest.raises(IllegalMoveError) as err:
            await a.take(elsewhere)
        assert err.value.code == "illegal_move" and err.value.detail
        with pytest.raises(StaleState):
            await a.take(view.choices[0].card, state_version=a.state_version + 5)
        with pytest.raises(NotYourTurn):
            await b.take(view.choices[0].card)
        assert await a.take(view.choices[0].card, special=False) == 1


async def test_reconnects_after_the_server_drops_the_connection(url: str, server: Server) -> None:
    c = Client(url, name="Ann", backoff=(0.05, 0.5))
    await c.connect()
    statuses: list[str] = []
    try:
        await c.create_table("t", bots=[(1, "easy")], player="Ann")
        await c.ready()
        game = asyncio.create_task(play_seat(c, "easy", seed=3))
        await wait_for(lambda: c.state_version >= 4)
        for session in list(server.sessions):  # the server side of our connection
            if session.table is not None:
                session.ws.transport.abort()
        await wait_for(lambda: c.reconnections == 1)
        final = await asyncio.wait_for(game, 60)
        assert final.game_over
        assert c.seat == 0
    finally:
        await c.close()
    async for u in c.updates():  # the stream ended after close; what was left in it
        if isinstance(u, Status):
            statuses.append(u.state)
    assert statuses[-1] == "closed"


async def test_resume_after_the_client_restarts(url: str, data_dir: Path) -> None:
    first = Client(url, name="Ann")
    await first.connect()
    created = await first.create_table("t", bots=[(1, "easy")], player="Ann")
    table = created.table.id
    await first.ready()
    await wait_for(lambda: first.view is not None)
    await first.close()  # the process "exits"; the seat stays Ann's

    second = Client(url, name="Ann")  # a new process: only the token file remains
    await second.connect()
    try:
        assert second.saved_table(table)
        seated = await second.resume(table)
        assert seated.seat == 0 and second.table == table
        final = await asyncio.wait_for(play_seat(second, "easy", seed=4), 60)
        assert final.game_over
    finally:
        await second.close()


async def test_bad_token_is_forgotten(url: str, data_dir: Path) -> None:
    store = TokenStore(data_dir)
    store.save(normalize_url(url), "gone", 0, "x" * 32, "Ann")
    async with Client(url, name="Ann", tokens=store) as c:
        with pytest.raises(BadToken):
            await c.resume("gone")
    assert store.token(normalize_url(url), "gone") is None


async def test_tokens_are_never_logged_or_shown(
    url: str, data_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    async with Client(url, name="Ann") as c:
        await c.create_table("t", bots=[(1, "easy")], player="Ann")
        token = TokenStore(data_dir).token(c.url, c.table or "")
        assert token is not None
        assert token not in repr(c)
    assert token not in caplog.text


async def test_private_table_and_watching(url: str) -> None:
    async with Client(url, name="Ann") as a, Client(url, name="Eve") as w:
        created = await a.create_table("secret", private=True, bots=[(1, "easy")], player="Ann")
        assert created.invite
        assert await w.list_tables() == ()
        await w.watch(created.table.id, invite=created.invite)
        await a.chat("hello")
        await a.ready()
        await wait_for(lambda: w.view is not None)
        assert w.view is not None and w.view.seat is None
        lines = []
        async with asyncio.timeout(5):
            async for u in w.updates():
                if isinstance(u, m.ChatLineMsg):
                    lines.append(u.text)
                    break
        assert lines == ["hello"]


@pytest.mark.parametrize("protocol", [m.MINOR_1_0, m.PROTOCOL_VERSION], ids=["1.0", "1.1"])
async def test_join_a_seeded_table_knowingly(url: str, protocol: tuple[int, int]) -> None:
    """A table whose creator chose the deal refuses ``join`` unless the joiner says
    ``seeded`` (issue 14, finding 10); the library can say it, whatever its version."""
    async with (
        Client(url, name="Ann") as a,
        Client(url, name="Bob", persist_tokens=False, protocol=protocol) as b,
    ):
        created = await a.create_table("fixed", m.TableOptions(players=2, seed=7), player="Ann")
        (listed,) = await b.list_tables()
        assert listed.seeded is (protocol > m.MINOR_1_0)  # 1.0 knew no such field
        with pytest.raises(NotAllowed):
            await b.join(created.table.id, "Bob")
        seated = await b.join(created.table.id, "Bob", seeded=True)
        assert seated == Seated(created.table.id, 1)
        assert b.table == created.table.id and b.seat == 1


def test_normalize_url() -> None:
    assert normalize_url("host:1") == "ws://host:1"
    assert normalize_url("ws://host:1/") == "ws://host:1"


def test_views_and_events_convert_back_to_the_engine_types() -> None:
    from client.convert import event_from_model, view_from_model
    from protocol.convert import event_model, view_model
    from shared.bots import make_bot, play
    from shared.events import Event
    from shared.options import Options
    from shared.record import Record
    from shared.view import view

    game = play(Options(seed=5, players=3, recipes=True), [make_bot("random", s) for s in range(3)])
    for seat in (0, 1, None):
        v = view(game, seat)
        assert view_from_model(view_model(v)) == v
    events: list[Event] = []
    Record.new(Options(seed=5)).start(events)
    assert events and all(event_from_model(event_model(e)) == e for e in events)


async def test_bot_runner_creates_and_joins(url: str, capsys: pytest.CaptureFixture[str]) -> None:
    import argparse

    from client.bot_runner import run_bot

    def args(table: str | None, name: str) -> argparse.Namespace:
        return argparse.Namespace(
            url=url, table=table, invite=None, level="easy", name=name, players=2
        )

    host = asyncio.create_task(run_bot(args(None, "A")))
    async with Client(url, name="lister", persist_tokens=False) as c:
        await wait_for(lambda: host.done() or bool(c.state_version >= 0))
        tables: tuple[m.TableSummary, ...] = ()
        async with asyncio.timeout(10):
            while not tables:
                tables = await c.list_tables()
    # same user, same data dir: the second bot must take its own seat, not A's
    assert await asyncio.wait_for(run_bot(args(tables[0].id, "B")), 60) == 0
    assert await asyncio.wait_for(host, 10) == 0
    out = capsys.readouterr().out
    assert "playing seat 1" in out and "playing seat 2" in out and "(wins)" in out
    assert out.count("the game is over: leaving the table") == 2


def test_token_store_keeps_every_seat_of_a_table(data_dir: Path) -> None:
    """Two clients of one user at one table (a host and a player in two terminals)
    keep their own tokens: saving one never replaces the other."""
    store = TokenStore(data_dir)
    url = "ws://127.0.0.1:1"
    store.save(url, "t1", 1, "tok-b", "Hanna")
    store.save(url, "t1", 0, "tok-a", "Jo")
    store.save(url, "t2", 0, "tok-c", "Jo")
    assert store.token(url, "t1", "Hanna") == "tok-b"
    assert store.token(url, "t1", "Jo") == "tok-a"
    assert store.token(url, "t1") == "tok-a"  # the lowest seat
    assert store.token(url, "t1", seat=1) == "tok-b"
    assert store.token(url, "t1", "Jo", seat=1) is None
    assert [(s.table, s.seat, s.name) for s in store.seats(url)] == [
        ("t1", 0, "Jo"),
        ("t1", 1, "Hanna"),
        ("t2", 0, "Jo"),
    ]
    store.forget(url, "t1", 0)
    assert store.token(url, "t1", "Hanna") == "tok-b" and store.token(url, "t1", "Jo") is None
    store.forget_token(url, "t1", "tok-b")
    assert [s.table for s in store.seats(url)] == ["t2"]
    store.forget(url, "t2")
    assert store.seats(url) == [] and store.token(url, "t2") is None


def test_token_store_reads_the_older_one_seat_per_table_file(data_dir: Path) -> None:
    data_dir.mkdir(parents=True)
    (data_dir / "tokens.json").write_text(
        '{"ws://h:1": {"t1": {"seat": 2, "token": "old", "name": "Ann"}, "t2": 5}}'
    )
    store = TokenStore(data_dir)
    assert store.token("ws://h:1", "t1", "Ann", seat=2) == "old"
    store.save("ws://h:1", "t1", 0, "new", "Bob")
    assert store.token("ws://h:1", "t1", "Ann") == "old"


async def test_two_clients_of_one_user_keep_their_seats(url: str, data_dir: Path) -> None:
    """Host and joiner share a data dir; both can come back to their own seat."""
    host = Client(url, name="Hanna", max_attempts=0)
    jo = Client(url, name="Jo", max_attempts=0)
    await host.connect()
    await jo.connect()
    created = await host.create_table("t", player="Hanna", seat=1)
    table = created.table.id
    await host.ready()
    await jo.join(table, "Jo")
    await jo.ready()
    await host.close()
    await jo.close()
    for name, seat in (("Hanna", 1), ("Jo", 0)):
        async with Client(url, name=name) as again:
            assert again.saved_seats(table, name) == [seat]
            seated = await again.resume(table, name)
            assert seated.seat == seat


async def test_a_seat_left_before_the_game_is_no_longer_kept(url: str, data_dir: Path) -> None:
    """Leaving a table that has not started frees the seat: its token goes, so the
    lobby no longer marks the table as ours and sitting down there again joins."""
    from client.ui.seating import sit_down

    async with Client(url, name="Hanna") as c:
        created = await c.create_table("t", m.TableOptions(), player="Hanna")
        table = created.table.id
        assert c.saved_table(table, "Hanna")
        await c.leave()
        assert not c.saved_table(table, "Hanna")
        assert TokenStore(data_dir).seats(url, table) == []
        # a stale token (kept by an older client) is forgotten, and Hanna joins
        TokenStore(data_dir).save(url, table, 0, "x" * 24, "Hanna")
        await sit_down(c, table, "Hanna")
        assert c.table == table and c.seat == 0
        assert c.saved_table(table, "Hanna")


def _bot_args(url: str) -> argparse.Namespace:
    return argparse.Namespace(url=url, table=None, invite=None, level="easy", name="B", players=2)


async def test_the_bot_runner_says_in_a_line_why_it_was_refused(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from client.bot_runner import run_bot

    full = Server(ServerConfig(host="127.0.0.1", port=0, max_connections=1), MemoryStore())
    await full.start()
    try:
        async with Client(f"ws://127.0.0.1:{full.port}", name="A", persist_tokens=False):
            assert await run_bot(_bot_args(f"ws://127.0.0.1:{full.port}")) == 1
    finally:
        await full.stop()
    err = capsys.readouterr().err
    assert "closed the connection at once (1013 server_full" in err, err

    async def forbid(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readuntil(b"\r\n\r\n")  # as a ban does: the handshake answered 403
        writer.write(b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        await writer.drain()
        writer.close()

    http = await asyncio.start_server(forbid, "127.0.0.1", 0)
    port = http.sockets[0].getsockname()[1]
    async with http:
        assert await run_bot(_bot_args(f"ws://127.0.0.1:{port}")) == 1
    err = capsys.readouterr().err
    assert err == f"kupferkessel bot: ws://127.0.0.1:{port} refused the connection (HTTP 403)\n"
