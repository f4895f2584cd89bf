"""Where the server and docs/PROTOCOL.md disagreed (issue 22), each held on a real
server on loopback: one set of winners in every frame, ``takes`` only to a person who
may take now, your own table first in the listing, and 1.1 intents unknown to a 1.0
connection.
"""

from __future__ import annotations

import random
from typing import Any

from server.app import Server
from shared.game import Take
from shared.options import Options
from shared.record import Record
from shared.scoring import score_game
from tests.helpers.servers import MakeServer

from ..helpers import FakeClock
from .wsclient import WsClient, create, human_table, join


def _fields(take: Take) -> dict[str, Any]:
    """A ``take`` message's fields for ``take``, defaults left out."""
    out: dict[str, Any] = {"card": take.card}
    if not take.special:
        out["special"] = False
    if take.targets is not None:
        out["targets"] = list(take.targets)
    if not take.keep:
        out["keep"] = False
    return out


def _planned(seed: int) -> tuple[list[tuple[int, Take]], list[int]]:
    """A three-player game of ``seed`` played by seeded random takes, as (seat, take),
    and its final totals (the engine's, before any resignation)."""
    _, game = Record.deal(Options(players=3, seed=seed), [])
    rng = random.Random(seed)
    plan = []
    while not game.over:
        actions = game.legal_actions()
        take = actions[rng.randrange(len(actions))]
        plan.append((game.to_move, take))
        game.apply(take, game.to_move, [])
    return plan, [s.total for s in score_game(game).scores]


def _winners_seen(c: WsClient) -> set[tuple[str, tuple[int, ...]]]:
    """Every place a client was told who won: the event, the view, the result."""
    seen = set()
    for msg in c.msgs:
        if msg is None or msg.type not in ("events", "view", "update"):
            continue
        for e in getattr(msg, "events", ()) or ():
            if e.kind == "game_over":
                seen.add(("event", tuple(e.winners)))
        view = getattr(msg, "view", None)
        if view is not None and view.game_over:
            seen.add(("view", tuple(view.winners)))
            if view.result is not None:
                seen.add(("result", tuple(view.result.winners)))
    return seen


# ------------------------------------------------------------------ 1. winners
async def test_a_resigned_seat_with_the_best_total_is_named_winner_nowhere(
    server: Server,
) -> None:
    """Three players: a seat resigns just before the last take while it has the best
    total. The event, the view and the result name the same winners (not it), for 1.0
    and 1.1 seats and a combined 1.1 spectator alike."""
    seed = 2
    plan, totals = _planned(seed)
    last = plan[-1][0]
    quitter = max((s for s in range(3) if s != last), key=lambda s: totals[s])
    assert totals[quitter] == max(totals) and totals.count(max(totals)) == 1, totals
    best = max(totals[s] for s in range(3) if s != quitter)
    expected = tuple(s for s in range(3) if s != quitter and totals[s] == best)
    table_id, clients, _ = await human_table(server.port, 3, minors=(1, 0, 1), seed=seed)
    watcher = await WsClient.open(server.port, None)
    await watcher.request("hello", protocol=[1, 1], client="watcher", combined=True)
    await watcher.request("watch", table=table_id)
    for version, (seat, take) in enumerate(plan):
        if version == len(plan) - 1:
            assert (await clients[quitter].request("resign")).type == "ack"
        answer = await clients[seat].request("take", state_version=version, **_fields(take))
        assert answer.type == "ack", answer
    for c in (*clients, watcher):
        await c.wait_for(lambda x: x.type == "presence" and x.state == "finished")
        seen = _winners_seen(c)
        assert {w for _, w in seen} == {expected}, seen
        assert ("event", expected) in seen and ("view", expected) in seen
    for c in (clients[0], clients[2], watcher):
        assert ("result", expected) in _winners_seen(c)


# ------------------------------------------------------------------ 2. takes
def _views(c: WsClient) -> list[Any]:
    return [x.view for x in c.msgs if x is not None and x.type in ("view", "update")]


async def test_a_resigned_seat_is_never_sent_takes(make_server: MakeServer) -> None:
    server = await make_server(bot_think=0.01)
    _, clients, _ = await human_table(server.port, 3, minors=(1, 1, 1))
    assert (await clients[1].request("resign")).type == "ack"
    rng = random.Random(7)
    while True:
        v = clients[0].latest_view()
        if v.view.game_over:
            break
        mover = v.view.to_move
        if mover != 1:
            c = clients[mover]
            await c.wait_until(lambda c=c, v=v: c.latest_view().state_version >= v.state_version)
            takes = c.latest_view().view.takes
            assert takes, c.latest_view()
            fields = takes[rng.randrange(len(takes))].model_dump(exclude_defaults=True)
            answer = await c.request("take", state_version=v.state_version, **fields)
            assert answer.type == "ack", answer
        await clients[0].wait_until(
            lambda v=v: clients[0].latest_view().state_version > v.state_version
        )
    await clients[1].wait_for(lambda x: x.type == "presence" and x.state == "finished")
    resigned_views = _views(clients[1])
    assert any(v.to_move == 1 for v in resigned_views)  # seat 1 was to move, played by a computer
    assert all(v.takes is None for v in resigned_views[1:])  # never after it resigned
    for seat in (0, 2):
        for view in _views(clients[seat]):
            assert (view.takes is not None) == (view.to_move == seat and not view.game_over)


async def test_an_absent_seat_gets_takes_only_once_it_is_back(make_server: MakeServer) -> None:
    """A seat a computer plays after time-outs is sent no ``takes``; ``back`` answers
    with a fresh view that lists them when the seat is to move."""
    clock = FakeClock()
    server = await make_server(now=clock, bot_think=0.01)
    a = await WsClient.open(server.port, "a", (1, 1))
    b = await WsClient.open(server.port, "b", (1, 1))
    table_id, _, _ = await create(a, options={"players": 2}, timing={"move": 10, "absent_after": 1})
    await join(b, table_id, "b")
    for c in (a, b):
        await c.send("ready")
    for c in (a, b):
        await c.wait_type("view")
    table = server.lobby.get(table_id)
    sleeper = a.latest_view().view.to_move
    seats = {0: a, 1: b}
    version = a.latest_view().state_version
    clock.t += 11
    await server.lobby.tick()  # the sleeper's move is made for it; it is absent now
    await a.wait_for(lambda x: x.type == "presence" and x.seats[sleeper].computer)
    rng = random.Random(3)
    while True:  # the other seat plays until it is the sleeper's turn again
        await a.wait_until(lambda v=version: a.latest_view().state_version > v)
        v = a.latest_view()
        version = v.state_version
        if v.view.to_move == sleeper:
            break
        other = seats[v.view.to_move]
        await other.wait_until(lambda o=other, v=version: o.latest_view().state_version >= v)
        takes = other.latest_view().view.takes
        fields = takes[rng.randrange(len(takes))].model_dump(exclude_defaults=True)
        assert (await other.request("take", state_version=version, **fields)).type == "ack"
    me = seats[sleeper]
    await me.wait_until(lambda: me.latest_view().state_version >= version)
    while_away = [v.view for v in me.of_type("view") if v.state_version >= version]
    assert any(v.to_move == sleeper for v in while_away)
    assert all(v.takes is None for v in while_away), while_away  # a computer plays it
    back = await me.request("back")
    assert back.type == "ack", back
    fresh = [x for x in me.msgs[: me.msgs.index(back)] if x is not None and x.type == "view"][-1]
    assert sleeper not in table.lineup.stand_ins
    assert (fresh.view.takes is not None) == (fresh.view.to_move == sleeper), fresh
    version = fresh.state_version
    while me.latest_view().view.to_move != sleeper:  # the computer had moved: play on
        other = seats[1 - sleeper]
        await other.wait_until(lambda o=other, v=version: o.latest_view().state_version >= v)
        takes = other.latest_view().view.takes
        assert (
            await other.request(
                "take", state_version=version, **takes[0].model_dump(exclude_defaults=True)
            )
        ).type == "ack"
        version += 1
        await me.wait_until(lambda v=version: me.latest_view().state_version >= v)
    mine = me.latest_view()
    assert mine.view.takes, mine
    fields = mine.view.takes[0].model_dump(exclude_defaults=True)
    assert (await me.request("take", state_version=mine.state_version, **fields)).type == "ack"


# ------------------------------------------------------------------ 3. listing
async def test_your_own_public_table_comes_first_and_once(make_server: MakeServer) -> None:
    server = await make_server(listing_bytes_per_token=10**9)
    for i in range(12):
        await server.lobby.create(f"t{i}", Options())
    me = await WsClient.open(server.port, "me", (1, 1))
    mine, _, _ = await create(me, name="mine")
    first = await me.request("list_tables", limit=5)
    assert first.tables[0].id == mine and len(first.tables) == 5, first
    ids = [t.id for t in first.tables]
    cursor = first.next
    while cursor is not None:
        page = await me.request("list_tables", cursor=cursor, limit=5)
        ids += [t.id for t in page.tables]
        cursor = page.next
    assert ids.count(mine) == 1 and len(ids) == 13 == first.total
    other = await WsClient.open(server.port, "other", (1, 1))
    theirs = await other.request("list_tables", limit=5)
    assert mine not in [t.id for t in theirs.tables]  # listed last, in creation order
    old = await WsClient.open(server.port, "old", (1, 0))
    await join(old, mine, "old")
    plain = await old.request("list_tables")  # 1.0 lists a public table where it falls
    assert [t.id for t in plain.tables][-1] == mine and len(plain.tables) == 13


# ------------------------------------------------------------------ 5. protocol 1.0
async def test_1_1_intents_are_unknown_to_a_1_0_connection(server: Server) -> None:
    table_id, (old, new), _ = await human_table(server.port, 2, minors=(0, 1))
    for kind in ("claim", "back", "rematch"):
        err = await old.request(kind)
        assert (err.type, err.code) == ("error", "unknown_type"), err
        assert err.message == f"unknown message type {kind!r}"
    bad = await old.request("rematch", rematch="yes")  # 1.0 never read its fields either
    assert (bad.type, bad.code) == ("error", "unknown_type"), bad
    assert (await new.request("resign")).type == "ack"
    await old.wait_for(lambda x: x.type == "presence" and x.state == "finished")
    err = await old.request("rematch")
    assert (err.type, err.code) == ("error", "unknown_type"), err
    # the 1.1 person cannot get a rematch the 1.0 person cannot vote for: it is refused
    refused = await new.request("rematch")
    assert (refused.type, refused.code, refused.detail) == (
        "error",
        "not_allowed",
        "protocol_1_0",
    ), refused
    table = server.lobby.get(table_id)
    assert not table.seating.rematch_votes


async def test_a_1_0_join_at_a_seeded_table_is_told_why(server: Server) -> None:
    maker = await WsClient.open(server.port, "maker", (1, 1))
    table_id, _, _ = await create(maker, options={"players": 2, "seed": 5})
    old = await WsClient.open(server.port, "old", (1, 0))
    err = await old.request("join", table=table_id, player="old")
    assert (err.type, err.code, err.detail) == ("error", "not_allowed", "seeded"), err
    assert "seed" in err.message
