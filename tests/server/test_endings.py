"""A table's whole life in protocol 1.1 (RULES.md section 12, docs/PROTOCOL.md "Protocol
1.1"): every ending reaches every seat and spectator as a final view with the result,
which the stored record replays to; clocks and grace periods run on an injected clock
(no sleeping); a 1.0 and a 1.1 client at one table each get their own version; rematch.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import msgpack  # type: ignore[import-untyped]

from server.app import Server
from server.commands.export import export_game
from server.lobby.registry import rematch_name
from server.store import SqlStore
from shared.record import Record
from tests.helpers.servers import MakeServer
from tests.helpers.tables import expire, table_of

from ..helpers import FakeClock
from .wsclient import WsClient, create, join, random_take, serving


async def hello(port: int, name: str, minor: int = 1, **fields: Any) -> WsClient:
    c = await WsClient.open(port, None)
    welcome = await c.request("hello", protocol=[1, minor], client=name, **fields)
    assert welcome.type == "welcome" and tuple(welcome.protocol) == (1, minor)
    return c


async def final_view(c: WsClient) -> Any:
    """The final view this client got (waits for it): it carries the result."""
    msg = await c.wait_for(lambda x: x.type == "view" and x.view.game_over)
    assert msg.view.result is not None, msg
    return msg.view


def stored(server: Server, table_id: str) -> Record:
    """The table's record as the server keeps it, checked: it replays to its result."""
    table = server.lobby.tables.get(table_id)
    assert table is not None and table.record is not None and table.record.result is not None
    record = Record.loads(table.record.dumps())
    record.check_result(record.replay())
    return record


async def take_for(c: WsClient, rng: random.Random) -> Any:
    """The take ``c`` sends on its latest view, which must be its turn: one of the
    view's ``takes``, exactly as listed."""
    v = c.latest_view()
    assert v.view.to_move == v.view.seat and v.view.takes, v
    fields = v.view.takes[rng.randrange(len(v.view.takes))].model_dump(exclude_defaults=True)
    return await c.request("take", state_version=v.state_version, **fields)


async def play_out(clients: list[WsClient], rng: random.Random) -> None:
    """Whoever is to move takes one of its ``takes`` until the game is over."""
    while True:
        version = max(c.latest_view().state_version for c in clients)
        for c in clients:
            await c.wait_until(lambda c=c, v=version: c.latest_view().state_version >= v)
        view = clients[0].latest_view().view
        if view.game_over:
            return
        answer = await take_for(clients[view.to_move], rng)
        assert answer.type == "ack", answer


# ---------------------------------------------------------------------------- endings
async def test_played_out_every_seat_and_spectator_gets_the_result(server: Server) -> None:
    table_id, clients, _ = await table_of(server)
    watcher = await hello(server.port, "watcher")
    await watcher.request("watch", table=table_id)
    await play_out(clients, random.Random(3))
    views = [await final_view(c) for c in (*clients, watcher)]
    record = stored(server, table_id)
    assert record.result is not None and record.result.ending == "played_out"
    for v in views:
        assert v.result.ending == "played_out" and list(v.winners) == list(v.result.winners)
        assert tuple(v.result.winners) == record.result.winners
        assert v.takes is None and v.to_move is None


async def test_two_player_resign_ends_the_game_the_other_wins(server: Server) -> None:
    table_id, (a, b), _ = await table_of(server)
    watcher = await hello(server.port, "watcher")
    await watcher.request("watch", table=table_id)
    version = a.latest_view().state_version
    ack = await a.request("resign")
    assert ack.type == "ack" and ack.state_version == version
    for c in (a, b, watcher):
        v = await final_view(c)
        assert v.result.ending == "resigned" and tuple(v.result.winners) == (1,)
        assert tuple(v.result.resigned) == (0,) and tuple(v.result.places) == (2, 1)
        assert v.scores is not None and v.ended_by is None  # scored as it stands
        assert all(k.cards is not None for k in v.kettles)  # the end reveals every kettle
        presence = await c.wait_for(lambda x: x.type == "presence" and x.state == "finished")
        assert presence.seats[0].resigned
    record = stored(server, table_id)
    assert record.result is not None and record.result.winners == (1,)


async def test_three_player_resign_a_computer_plays_the_seat_to_the_end(
    make_server: MakeServer,
) -> None:
    server = await make_server(bot_think=0.01)
    table_id, clients, _ = await table_of(server, players=3)
    quitter = clients[1]
    assert (await quitter.request("resign")).type == "ack"
    presence = await clients[0].wait_for(
        lambda x: x.type == "presence" and x.seats[1].resigned and x.seats[1].computer
    )
    assert presence.state == "playing" and not presence.seats[1].absent
    err = await quitter.request("take", state_version=0, card="root-1")
    assert err.type == "error"
    rng = random.Random(5)
    while True:  # the two others play; the computer plays seat 1
        v = clients[0].latest_view()
        if v.view.game_over:
            break
        mover = v.view.to_move
        if mover == 1:
            await clients[0].wait_until(
                lambda v=v: clients[0].latest_view().state_version > v.state_version
            )
            continue
        c = clients[mover]
        await c.wait_until(lambda c=c, v=v: c.latest_view().state_version >= v.state_version)
        answer = await take_for(c, rng)
        assert answer.type in ("ack", "error"), answer
        await clients[0].wait_until(
            lambda v=v: clients[0].latest_view().state_version > v.state_version
        )
    for c in clients:
        fv = await final_view(c)
        assert fv.result.ending == "played_out"
        assert fv.result.places[1] == 3 and 1 not in fv.result.winners
        assert 1 in fv.result.replaced and tuple(fv.result.resigned) == (1,)
    stored(server, table_id)


async def test_abandoned_game_ends_and_leaves_memory(make_server: MakeServer) -> None:
    clock = FakeClock()
    server = await make_server(now=clock, abandon_ttl=600)
    table_id, clients, tokens = await table_of(server)
    table = server.lobby.get(table_id)
    for c in clients:
        await c.close()
    await clients[0].wait_until(lambda: table.seating.idle_since is not None)
    clock.t += 599
    assert await server.lobby.sweep_all() == 0
    clock.t += 2
    assert await server.lobby.sweep_all() == 1
    assert table_id not in server.lobby.tables
    assert table.result is not None and table.result.ending == "abandoned"
    assert table.result.winners == ()
    assert table.record is not None and table.record.result == table.result
    table.record.check_result(table.record.replay())  # the record replays to it
    back = await hello(server.port, "p0")
    err = await back.request("resume", token=tokens[0])
    assert err.type == "error" and err.code == "bad_token"


async def test_a_game_of_bots_nobody_watches_is_abandoned(make_server: MakeServer) -> None:
    """The flood the issue saw: games against bots, left at once, filled the server."""
    clock = FakeClock()
    server = await make_server(now=clock, abandon_ttl=60, bot_think=2)  # slow bots
    c = await hello(server.port, "flood")
    bots = [{"seat": 0, "level": "medium"}, {"seat": 1, "level": "medium"}]
    created = await c.request("create_table", name="bots", options={"players": 2}, bots=bots)
    assert created.type == "table_created"
    table = server.lobby.get(created.table.id)
    assert table.state == "playing" and table.seating.idle_since is not None
    clock.t += 59
    assert await server.lobby.sweep_all() == 0
    clock.t += 2
    assert await server.lobby.sweep_all() == 1
    assert created.table.id not in server.lobby.tables
    assert table.result is not None and table.result.ending == "abandoned"
    assert server.lobby.health_counts()["tables_abandoned"] == 1


# ---------------------------------------------------------------------- absent players
async def test_grace_then_a_computer_plays_until_the_person_resumes(
    make_server: MakeServer,
) -> None:
    clock = FakeClock()
    server = await make_server(now=clock, bot_think=0.01)
    table_id, (a, b), tokens = await table_of(server, timing={"grace": 30})
    table = server.lobby.get(table_id)
    await b.close()
    await a.wait_for(lambda x: x.type == "presence" and not x.seats[1].connected)
    clock.t += 29
    await server.lobby.tick()
    assert 1 not in table.lineup.stand_ins  # within the grace period nothing happens
    clock.t += 2
    await server.lobby.tick()
    p = await a.wait_for(lambda x: x.type == "presence" and x.seats[1].absent)
    assert p.seats[1].computer
    # the computer plays seat 1 whenever it is to move; seat 0 keeps playing
    rng = random.Random(1)
    for _ in range(4):
        v = a.latest_view()
        if v.view.game_over:
            break
        if v.view.to_move == 0:
            assert (await take_for(a, rng)).type == "ack"
        await a.wait_until(lambda v=v: a.latest_view().state_version > v.state_version)
    assert 1 in table.lineup.replaced
    again = await hello(server.port, "p1 again")
    assert (await again.request("resume", token=tokens[1])).type == "resumed"
    p = await a.wait_for(lambda x: x.type == "presence" and not x.seats[1].absent)
    assert not p.seats[1].computer and 1 not in table.lineup.stand_ins


async def test_claim_while_the_opponent_is_absent(make_server: MakeServer) -> None:
    clock = FakeClock()
    server = await make_server(now=clock, bot_think=5)  # the stand-in thinks slowly
    table_id, (a, b), _ = await table_of(server)
    watcher = await hello(server.port, "watcher")
    await watcher.request("watch", table=table_id)
    err = await a.request("claim")
    assert err.type == "error" and err.code == "cannot_claim"  # b is here
    await b.close()
    clock.t += 61
    await server.lobby.tick()
    await a.wait_for(lambda x: x.type == "presence" and x.seats[1].absent)
    ack = await a.request("claim")
    assert ack.type == "ack", ack
    for c in (a, watcher):
        v = await final_view(c)
        assert v.result.ending == "claimed" and v.result.claimed_by == 0
        assert tuple(v.result.winners) == (0,) and 1 in v.result.replaced
    stored(server, table_id)


async def test_back_takes_the_seat_back_after_time_outs(make_server: MakeServer) -> None:
    clock = FakeClock()
    server = await make_server(now=clock, bot_think=5)  # the stand-in thinks slowly
    table_id, (a, b), _ = await table_of(server, timing={"move": 10, "absent_after": 1})
    table = server.lobby.get(table_id)
    err = await a.request("back")
    assert (err.type, err.code) == ("error", "not_allowed")  # nobody plays a's seat
    mover = a.latest_view().view.to_move
    sleeper = (a, b)[mover]
    await expire(server, clock, a, 11)  # one expiry is enough here: absent
    p = await a.wait_for(lambda x: x.type == "presence" and x.seats[mover].absent)
    assert p.seats[mover].computer and mover in table.lineup.timed_out
    ack = await sleeper.request("back")
    assert ack.type == "ack", ack
    p = await a.wait_for(lambda x: x.type == "presence" and not x.seats[mover].computer)
    assert mover not in table.lineup.stand_ins and table.lineup.expiries[mover] == 0


async def test_clock_expiry_moves_for_the_seat_and_says_so(make_server: MakeServer) -> None:
    clock = FakeClock()
    server = await make_server(now=clock)
    table_id, (a, _b), _ = await table_of(server, timing={"move": 20, "reserve": 10})
    v = a.latest_view().view
    assert v.clock is not None and v.clock.move_ms == 20000
    assert v.clock.running == v.to_move and tuple(v.clock.reserve_ms) == (10000, 10000)
    mover = v.to_move
    clock.t += 25  # within move time plus reserve: nothing yet
    await server.lobby.tick()
    assert a.latest_view().view.to_move == mover
    ev = await expire(server, clock, a, 6)
    assert ev is not None and ev.events[0].kind == "timed_out" and ev.events[0].seat == mover
    assert any(e.kind == "took" and e.seat == mover for e in ev.events)
    after = a.latest_view().view.clock
    assert after.reserve_ms[mover] == 0  # the whole reserve went
    assert server.lobby.get(table_id).lineup.expiries[mover] == 1


async def test_the_clock_counts_each_seats_time_outs_in_a_row(make_server: MakeServer) -> None:
    """1.2: ``clock.timeouts`` counts a seat's time-outs in a row, and ``absent_after``
    says where the computer takes over; an illegal take does not reset the count, the
    seat's own take does. A 1.1 connection's clock has neither field."""
    clock = FakeClock()
    server = await make_server(now=clock)
    timing = {"move": 10, "absent_after": 4}
    table_id, (a, b), _ = await table_of(server, minors=(2, 1), timing=timing)
    assert a.latest_view().view.clock.timeouts == ()  # none yet: left out
    mover = a.latest_view().view.to_move
    sleeper = (a, b)[mover]
    await expire(server, clock, a, 11)
    seen = a.latest_view().view.clock
    assert seen.timeouts[mover] == 1 and seen.timeouts[1 - mover] == 0
    assert seen.absent_after == 4
    for raw in b.raw[-2:]:  # b speaks 1.1: the clock as 1.1 had it
        frame = msgpack.unpackb(raw)
        if frame.get("type") in ("view", "update"):
            assert set(frame["view"]["clock"]) == {"move_ms", "running", "left_ms", "reserve_ms"}
    while a.latest_view().view.to_move != mover:  # the other seat moves in time
        other = (a, b)[1 - mover]
        await other.wait_until(lambda o=other: o.latest_view().view.to_move == 1 - mover)
        before = a.latest_view().state_version
        assert (await take_for(other, random.Random(1))).type == "ack"
        # a wand plays again: the take is seen, whoever is to move next
        await a.wait_until(lambda v=before: a.latest_view().state_version > v)
    v = sleeper.latest_view()
    offered = {c.card for c in v.view.choices}
    elsewhere = next(c for row in v.view.grid for c in row if c and c not in offered)
    bad = await sleeper.request("take", state_version=v.state_version, card=elsewhere)
    assert (bad.type, bad.code) == ("error", "illegal_move")
    assert server.lobby.get(table_id).lineup.expiries[mover] == 1  # a refused take is no take
    assert (await take_for(sleeper, random.Random(2))).type == "ack"
    await a.wait_until(lambda: a.latest_view().view.clock.timeouts == ())
    assert server.lobby.get(table_id).lineup.expiries[mover] == 0


async def test_time_outs_in_a_row_make_the_seat_absent_then_the_game_ends(
    make_server: MakeServer,
) -> None:
    """Against a bot, a person who lets every clock run out loses: ``timed_out``."""
    clock = FakeClock()
    server = await make_server(now=clock, bot_think=0.01)
    a = await hello(server.port, "sleepy")
    created = await a.request(
        "create_table",
        name="clocked",
        player="sleepy",
        options={"players": 2},
        bots=[{"seat": 1, "level": "easy"}],
        timing={"move": 10, "absent_after": 2},
    )
    table_id = created.table.id
    await a.send("ready")
    await a.wait_type("view")
    expiries = 0
    while expiries < 2:
        v = a.latest_view()
        if v.view.to_move != 0:  # the bot moves by itself
            await a.wait_until(lambda v=v: a.latest_view().state_version > v.state_version)
            continue
        await expire(server, clock, a, 11)
        expiries += 1
    fv = await final_view(a)
    assert fv.result.ending == "timed_out" and tuple(fv.result.winners) == (1,)
    assert tuple(fv.result.timed_out) == (0,)
    stored(server, table_id)


async def test_deadlines_survive_a_restart_without_charging_downtime(tmp_path: Path) -> None:
    clock = FakeClock()
    db = tmp_path / "kk.db"
    async with serving(db, now=clock) as server:
        table_id, (a, b), tokens = await table_of(server, timing={"move": 30, "reserve": 60})
        mover = a.latest_view().view.to_move
        c = (a, b)[mover]
        clock.t += 50  # 20 s of reserve used once this move ends
        assert (await take_for(c, random.Random(2))).type == "ack"
        for x in (a, b):
            await x.close()
    clock.t += 3600  # the server is down for an hour
    async with serving(db, now=clock) as server:
        table = server.lobby.get(table_id)
        assert table.lineup.clock is not None
        assert table.lineup.clock.reserve[mover] == 40.0
        back = await hello(server.port, "back")
        assert (await back.request("resume", token=tokens[1 - mover])).type == "resumed"
        v = await back.wait_type("view")
        assert v.view.clock.running == v.view.to_move
        # the move in progress starts afresh: its full time and reserve are left
        to_move = v.view.to_move
        full = 30000 + v.view.clock.reserve_ms[to_move]
        assert v.view.clock.left_ms[to_move] == full
        assert tuple(v.view.clock.reserve_ms) == tuple(
            40000 if s == mover else 60000 for s in range(2)
        )


async def test_a_restart_neither_charges_downtime_nor_gives_back_used_time(
    store_url: str,
) -> None:
    """The move in progress goes on after a restart with the time it had used when the
    server stopped: not from full (which gave back what the player had spent before),
    and the downtime charged to nobody; a second restart neither (SQLite, PostgreSQL)."""
    clock = FakeClock()
    async with serving(store_url, now=clock) as server:
        table_id, (a, b), tokens = await table_of(server, timing={"move": 30, "reserve": 60})
        mover = a.latest_view().view.to_move
        clock.t += 12  # the mover thinks for 12 s; then the server stops
        for x in (a, b):
            await x.close()

    async def left_after_restart() -> int:
        back = await hello(server.port, "back")
        assert (await back.request("resume", token=tokens[mover])).type == "resumed"
        v = (await back.wait_type("view")).view
        assert v.to_move == mover and v.clock.running == mover
        await back.close()
        return int(v.clock.left_ms[mover])

    clock.t += 3600  # down for an hour
    async with serving(store_url, now=clock) as server:
        assert await left_after_restart() == 30_000 + 60_000 - 12_000
        clock.t += 5  # 5 s more of thinking, then down again for ten minutes
    clock.t += 600
    async with serving(store_url, now=clock) as server:
        assert await left_after_restart() == 30_000 + 60_000 - 17_000
        table = server.lobby.get(table_id)
        assert table is not None and table.lineup.clock is not None
        assert table.lineup.clock.deadline() == clock.t + 73  # the expiry follows: in 73 s


# ------------------------------------------------------------------ versions and takes
async def test_a_1_0_and_a_1_1_client_at_one_table(server: Server) -> None:
    table_id, (old, new), _ = await table_of(server, minors=(0, 1))
    combined = await hello(server.port, "combined", combined=True)
    await combined.request("watch", table=table_id)
    old_watcher = await hello(server.port, "old watcher", minor=0)
    await old_watcher.request("watch", table=table_id)
    rng = random.Random(9)
    for _ in range(6):
        v = old.latest_view()
        c = (old, new)[v.view.to_move]
        await c.wait_until(lambda c=c, v=v: c.latest_view().state_version >= v.state_version)
        fields = random_take(c.latest_view().view, rng)
        fields["state_version"] = c.latest_view().state_version
        assert (await c.request("take", **fields)).type == "ack"
        await old.wait_until(lambda v=v: old.latest_view().state_version > v.state_version)
    assert (await new.request("resign")).type == "ack"
    await final_view(new)
    await old.wait_for(lambda x: x.type == "presence" and x.state == "finished")
    await combined.wait_for(lambda x: x.type == "update" and x.view.game_over)
    for c in (old, old_watcher):
        await c.ping()
        for frame in c.raw:
            raw = msgpack.unpackb(frame)
            assert raw["type"] in {
                "welcome",
                "table_created",
                "joined",
                "watching",
                "events",
                "view",
                "presence",
                "ack",
                "pong",
                "tables",
                "chat",
            }, raw
            view = raw.get("view", {})
            assert not {"takes", "result", "clock"} & set(view), raw
            for e in raw.get("events", []):
                assert e["kind"] != "timed_out"
            assert not {"absent", "computer", "rematch"} & {
                k for s in raw.get("seats", []) for k in s
            }
        views = [m.view for m in c.msgs if m is not None and m.type == "view"]
        assert not views[-1].game_over  # 1.0 never saw a final view after a resignation
    for m in (x for x in new.msgs if x is not None and x.type == "view"):
        mine = m.view.to_move == m.view.seat and not m.view.game_over
        assert (m.view.takes is not None) == mine  # takes: the mover's view only
    kinds = {m.type for m in combined.msgs if m is not None}
    assert "update" in kinds and not {"events", "view"} & kinds


async def test_combined_update_answers_the_movers_take(server: Server) -> None:
    a = await hello(server.port, "a", combined=True)
    b = await hello(server.port, "b", combined=True)
    table_id, _, _ = await create(a, options={"players": 2})
    await join(b, table_id, "b")
    for c in (a, b):
        await c.send("ready")
    for c in (a, b):
        await c.wait_type("update")
    rng = random.Random(4)
    for _ in range(5):
        last = max((a, b), key=lambda c: c.of_type("update")[-1].state_version)
        v = last.of_type("update")[-1]
        mover = (a, b)[v.view.to_move]
        await mover.wait_until(
            lambda m=mover, v=v: m.of_type("update")[-1].state_version >= v.state_version
        )
        mine = mover.of_type("update")[-1]
        take = mine.view.takes[rng.randrange(len(mine.view.takes))]
        answer = await mover.request(
            "take", state_version=mine.state_version, **take.model_dump(exclude_defaults=True)
        )
        assert answer.type == "update" and answer.state_version == mine.state_version + 1
        assert answer.events and not mover.of_type("ack")


# ------------------------------------------------------------------------- rematch
async def test_rematch_rotates_colours_and_keeps_tokens(server: Server) -> None:
    table_id, (a, b), tokens = await table_of(server)
    err = await a.request("rematch")
    assert err.type == "error" and err.code == "not_finished"
    assert (await a.request("resign")).type == "ack"
    await final_view(b)
    await a.send("rematch")
    await b.wait_for(lambda x: x.type == "presence" and x.seats[0].rematch)
    await b.send("rematch")
    ra = await a.wait_type("rematched")
    rb = await b.wait_type("rematched")
    assert ra.table == rb.table != table_id
    assert (ra.seat, rb.seat) == (1, 0)  # everyone one seat on: colours rotate
    for c in (a, b):
        v = await c.wait_for(lambda x: x.type == "view" and not x.view.game_over)
        assert v.state_version == 0
    new = server.lobby.get(ra.table)
    assert new.state == "playing" and [s.name for s in new.seats] == ["p1", "p0"]
    old_name = server.lobby.get(table_id).name
    assert new.name == f"{old_name}, game 2"  # not the finished table's name again
    await a.close()
    again = await hello(server.port, "p0 again")
    resumed = await again.request("resume", token=tokens[0])
    assert resumed.type == "resumed" and (resumed.table, resumed.seat) == (ra.table, 1)


async def test_the_store_and_export_keep_the_result(tmp_path: Path) -> None:
    async with serving(tmp_path / "kk.db") as server:
        table_id, (a, b), _ = await table_of(server)
        assert (await b.request("resign")).type == "ack"
        await final_view(a)
        found = server.store.load_record(table_id)
        assert found is not None
        record, finished = found
        assert finished and record.result is not None and record.result.winners == (0,)
        assert isinstance(server.store, SqlStore)
        exported = export_game(server.store, table_id)  # what ``kupferkessel export`` writes
        assert exported["result"]["ending"] == "resigned"
        assert exported["result"]["winners"] == [0]
        again = Record.from_dict(exported)
        again.check_result(again.replay())


async def test_a_resignation_and_stand_ins_survive_a_restart(tmp_path: Path) -> None:
    clock = FakeClock()
    db = tmp_path / "kk.db"
    async with serving(db, now=clock, bot_think=5) as server:
        table_id, clients, tokens = await table_of(server, players=3)
        assert (await clients[2].request("resign")).type == "ack"
        await clients[0].wait_for(lambda x: x.type == "presence" and x.seats[2].computer)
        for c in clients:
            await c.close()
    clock.t += 600
    async with serving(db, now=clock, bot_think=5) as server:
        table = server.lobby.get(table_id)
        assert table.state == "playing" and table.lineup.resigned == [2]
        assert 2 in table.lineup.stand_ins and 2 in table.lineup.replaced  # the computer plays on
        assert set(table.lineup.absent_since) == {0, 1}  # the people are away from the restart
        clock.t += 59
        await server.lobby.tick()
        assert not {0, 1} & set(table.lineup.stand_ins)  # within their grace period
        back = await hello(server.port, "p0 back")
        assert (await back.request("resume", token=tokens[0])).type == "resumed"
        p = await back.wait_type("presence")
        assert p.seats[2].resigned and p.seats[2].computer and not p.seats[0].absent


def test_a_rematch_is_named_after_its_table_and_counts_its_games() -> None:
    assert rematch_name("Kitchen") == "Kitchen, game 2"
    assert rematch_name("Kitchen, game 2") == "Kitchen, game 3"
    assert rematch_name("Kitchen, game 9") == "Kitchen, game 10"
    assert rematch_name("Score 3, game x") == "Score 3, game x, game 2"
    long = rematch_name("x" * 48)
    assert len(long) == 48 and long.endswith(", game 2")
