"""The smaller findings of the hostile-client review (issue 14, findings 9 to 11), each
against a real server over loopback, or the real command line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from client.cli import main as cli_main
from server.app import Server

from ..helpers.games import game_db as _game_db
from .wsclient import WsClient, create, join, serving

KUPFERKESSEL = Path(sys.executable).parent / "kupferkessel"


# ------------------------------------------------------------------ 10: chosen seeds
async def test_a_seeded_table_says_so_and_takes_only_those_who_know(server: Server) -> None:
    host = await WsClient.open(server.port, "host")
    table, _, _ = await create(host, options={"seed": 12345})
    plain, _, _ = await create(await WsClient.open(server.port, "other"))
    guest = await WsClient.open(server.port, "guest", protocol=(1, 1))  # seeded: 1.1
    listed = {t.id: t.seeded for t in (await guest.request("list_tables")).tables}
    assert listed == {table: True, plain: False}
    refused = await guest.request("join", table=table, player="g")
    assert (refused.type, refused.code) == ("error", "not_allowed")
    assert "seed" in refused.message
    assert [s.name for s in server.lobby.tables[table].seats] == ["p0", None]  # untouched
    seat, _ = await join(guest, table, "g", seeded=True)  # knowing it, they may sit
    assert seat == 1
    solo = await WsClient.open(server.port, "solo", protocol=(1, 1))
    bot_game = await solo.request(  # solo play with a seed (and tests) needs nothing
        "create_table", name="solo", options={"seed": 7}, bots=[{"seat": 1, "level": "easy"}]
    )
    assert bot_game.type == "table_created" and bot_game.table.seeded


# --------------------------------------------------------------- 11: smaller items
async def test_a_spectator_never_chats_under_a_seated_players_name(server: Server) -> None:
    alice = await WsClient.open(server.port, "alice-client")
    table, _, _ = await create(alice, player="alice")
    impostor = await WsClient.open(server.port, "alice")  # hello'd with her name
    assert (await impostor.request("watch", table=table)).type == "watching"
    await impostor.send("chat", text="I resign, you all win")
    line = await alice.wait_type("chat")
    assert (line.seat, line.name) == (None, "alice (spectator)")
    await alice.send("chat", text="no I don't")
    mine = await impostor.wait_for(lambda x: x.type == "chat" and x.seat == 0)
    assert mine.name == "alice"


async def test_players_as_a_float_is_refused(server: Server) -> None:
    c = await WsClient.open(server.port)
    for bad in (2.0, 3.0, True):
        err = await c.request("create_table", name="x", options={"players": bad})
        assert (err.type, err.code) == ("error", "invalid_field"), err
    assert server.lobby.tables == {}


async def test_resume_while_watching_the_same_table_is_already_seated(server: Server) -> None:
    player = await WsClient.open(server.port)
    table, _, token = await create(player, player="p")
    player.abort()
    watcher = await WsClient.open(server.port, "w")
    await watcher.request("watch", table=table)
    err = await watcher.request("resume", token=token)
    assert (err.type, err.code) == ("error", "already_seated")
    assert server.lobby.tables[table].seats[0].occupant is None


# -------------------------------------------------------------------- 9: the race
async def test_leave_racing_a_resume_of_its_token_leaves_no_ghost(tmp_path: Path) -> None:
    """A lobby ``leave`` and a ``resume`` of the same token sent together (a store write
    in between): either the resume wins (the seat moves) or the leave does (the resume
    gets ``bad_token``); never a connection wedged in a seat without a name."""
    async with serving(tmp_path / "kk.db") as server:
        resumer = await WsClient.open(server.port, "resumer")
        for _ in range(20):
            leaver = await WsClient.open(server.port, "leaver")
            table, _, token = await create(leaver, player="p")
            left_id = await leaver.send("leave")
            resume_id = await resumer.send("resume", token=token)
            resumed = await resumer.wait_for(lambda x, i=resume_id: getattr(x, "re", None) == i)
            t = server.lobby.tables[table]
            for seat in t.seats:
                assert seat.occupant is None or seat.name is not None, "a ghost seat"
            if resumed.type == "resumed":
                assert t.seats[0].name == "p" and t.seats[0].occupant is not None
                assert (await resumer.request("leave")).type == "left"
            else:
                assert resumed.code == "bad_token"
                assert t.seats[0].name is None and t.seats[0].occupant is None
                left = await leaver.wait_for(lambda x, i=left_id: getattr(x, "re", None) == i)
                assert left.type == "left"
            free = await resumer.request("create_table", name="proof")  # not wedged
            assert free.type == "table_created"
            await leaver.close()


# ------------------------------------------------------- 11: one-line errors, exit 2
def _kk(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(KUPFERKESSEL), *args],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, **(env or {})},
    )


def _one_line(err: str) -> str:
    """The one line that says why the server cannot serve: the start's own lines (the
    settings in force, the open-file limit) are said at any log level before it."""
    said = ('"open-file limit"', '"msg": "settings"')
    lines = [line for line in err.splitlines() if not any(s in line for s in said)]
    assert "Traceback" not in err
    assert len(lines) == 1, err
    return lines[0]


@pytest.mark.e2e
@pytest.mark.parametrize("db", ["/etc/passwd", "DIR", ":memory:"])
def test_serve_on_what_cannot_be_a_database_says_why_and_exits_2(tmp_path: Path, db: str) -> None:
    target = str(tmp_path) if db == "DIR" else db
    done = _kk("serve", "--port", "0", "--db", target)
    assert done.returncode == 2
    line = _one_line(done.stderr)
    assert '"cannot serve"' in line and target in line
    assert not Path(f"{target}.lock").exists() or db == ":memory:"


@pytest.mark.e2e
def test_a_bad_port_in_the_environment_is_a_usage_error_and_help_still_works() -> None:
    helped = _kk("serve", "--help", env={"KK_PORT": "abc"})
    assert helped.returncode == 0 and "--port" in helped.stdout
    bad = _kk("serve", env={"KK_PORT": "abc"})
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert "KK_PORT must be a whole number, not 'abc'" in bad.stderr
    bad_ttl = _kk("serve", env={"KK_LOBBY_TTL": "soon"})
    assert bad_ttl.returncode == 2 and "KK_LOBBY_TTL must be a number, not 'soon'" in bad_ttl.stderr


async def test_export_to_a_path_that_cannot_be_written_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, gid, _ = await _game_db(str(tmp_path / "kk.db"), finish=True)
    capsys.readouterr()  # what making the database printed is not the export's
    target = tmp_path / "no-such-folder" / "x"  # its folder is missing: it cannot be written
    assert cli_main(["export", gid, "--db", str(db), "-o", str(target)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"cannot write {target}" in err, err


def test_replay_of_deeply_nested_json_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 200_000 + "]" * 200_000)
    assert cli_main(["replay", str(deep)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "nested too deeply" in err


async def test_bidi_overrides_are_refused_in_table_names_and_chat(server: Server) -> None:
    """An override in a table's name or a chat line would reorder what the lobby or the
    chat shows after it (``txt.exe`` shown as ``exe.txt``, a line seeming another's)."""
    host = await WsClient.open(server.port, "host")
    for bad in ("Bo\u202etxt.exe", "\u2067Ada's table", "a\u202ab\u202c"):
        err = await host.request("create_table", name=bad, options={"players": 2})
        assert (err.type, err.code, err.detail) == ("error", "invalid_field", "bidi"), err
    assert server.lobby.tables == {}
    table, _, _ = await create(host, name="طاولة\u200f Bo 👩\u200d👩\u200d👧")  # marks, ZWJ
    assert server.lobby.tables[table].name.startswith("طاولة")
    guest = await WsClient.open(server.port, "guest")
    await join(guest, table, "g")
    err = await guest.request("chat", text="host: I resign\u202e")
    assert (err.type, err.code, err.detail) == ("error", "invalid_field", "bidi"), err
    await guest.send("chat", text="gg \u200f")
    line = await host.wait_type("chat")
    assert line.text == "gg \u200f"
