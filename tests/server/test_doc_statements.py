"""Statements of docs/PROTOCOL.md that are behaviours (issue 22, "Left unclear in the
docs"), each checked on a real server on loopback: how ``takes`` spells the card that
ends the game, the clock's reference time, places, cursors, an ``update`` without
events, and ``table_created`` before you sit down."""

from __future__ import annotations

import random
from typing import Any

import msgpack  # type: ignore[import-untyped]

from shared.options import Options
from tests.helpers.servers import MakeServer

from ..helpers import FakeClock
from .wsclient import WsClient, human_table


def _ranking(totals: list[int], winners: tuple[int, ...]) -> list[int]:
    """Competition ranking ("1224"): 1 + the seats ranked strictly higher."""
    key = [(s not in winners, -t) for s, t in enumerate(totals)]
    return [1 + sum(1 for k in key if k < key[s]) for s in range(len(totals))]


async def test_the_game_ending_card_is_listed_twice_keep_and_discard(
    make_server: MakeServer,
) -> None:
    """In ``takes`` a card that ends the game comes as ``{"card": X, "special": false}``
    and ``{"card": X, "special": false, "keep": false}``: its symbol never acts."""
    server = await make_server()
    _, clients, _ = await human_table(server.port, 2, minors=(1, 1))
    rng = random.Random(11)
    seen = 0
    while True:
        version = max(c.latest_view().state_version for c in clients)
        for c in clients:
            await c.wait_until(lambda c=c, v=version: c.latest_view().state_version >= v)
        view = clients[0].latest_view().view
        if view.game_over:
            break
        mover = clients[view.to_move]
        mine = mover.latest_view().view
        for choice in mine.choices:
            if choice.ends_game:
                listed = [
                    t.model_dump(exclude_defaults=True) for t in mine.takes if t.card == choice.card
                ]
                assert listed == [
                    {"card": choice.card, "special": False},
                    {"card": choice.card, "special": False, "keep": False},
                ], listed
                seen += 1
        raw = msgpack.unpackb(mover.raw[mover.msgs.index(mover.latest_view())])
        for t in raw["view"]["takes"]:  # the bytes say it so too
            assert set(t) <= {"card", "special", "targets", "keep"} and "card" in t
        take = mine.takes[rng.randrange(len(mine.takes))].model_dump(exclude_defaults=True)
        assert (await mover.request("take", state_version=version, **take)).type == "ack"
    assert seen > 0


async def test_left_ms_is_as_of_the_views_making(make_server: MakeServer) -> None:
    """``clock.left_ms`` of the running seat is its time left when the view was made:
    a view made 3 s into a 20 s move says 17000."""
    clock = FakeClock()
    server = await make_server(now=clock)
    table_id, (a, _), _ = await human_table(
        server.port, 2, minors=(1, 1), create_fields={"timing": {"move": 20}}
    )
    first = a.latest_view().view.clock
    mover = first.running
    assert first.left_ms[mover] == 20000
    clock.t += 3
    watcher = await WsClient.open(server.port, "watcher", (1, 1))
    await watcher.request("watch", table=table_id)
    seen = (await watcher.wait_type("view")).view.clock
    assert seen.running == mover and seen.left_ms[mover] == 17000
    assert seen.left_ms[1 - mover] == 20000  # the others: a whole move


async def test_places_are_a_competition_ranking_even_when_nobody_won(
    make_server: MakeServer,
) -> None:
    clock = FakeClock()
    server = await make_server(now=clock, abandon_ttl=600)
    table_id, clients, _ = await human_table(server.port, 3, minors=(1, 1, 1))
    table = server.lobby.get(table_id)
    for c in clients:
        await c.close()
    await clients[0].wait_until(lambda: table.seating.idle_since is not None)
    clock.t += 601
    assert await server.lobby.sweep_all() == 1
    result = table.result
    assert result is not None and result.ending == "abandoned" and result.winners == ()
    assert list(result.places) == _ranking(list(result.totals), ())


async def test_a_cursor_stays_good_and_another_orders_is_refused(
    make_server: MakeServer,
) -> None:
    server = await make_server(listing_bytes_per_token=10**9)
    made = [(await server.lobby.create(f"t{i}", Options()))[0] for i in range(6)]
    c = await WsClient.open(server.port, "c", (1, 1))
    first = await c.request("list_tables", limit=2)
    assert [t.id for t in first.tables] == [t.id for t in made[:2]]
    newer = (await server.lobby.create("newer", Options()))[0]  # made after the cursor
    later = await c.request("list_tables", cursor=first.next, limit=10)
    assert [t.id for t in later.tables] == [t.id for t in (*made[2:], newer)]
    other = await c.request("list_tables", cursor=first.next, open_first=True)
    assert (other.type, other.code) == ("error", "invalid_field"), other
    malformed = await c.request("list_tables", cursor="not a cursor")
    assert (malformed.type, malformed.code) == ("error", "invalid_field"), malformed


async def test_an_update_without_events_has_no_events_key(make_server: MakeServer) -> None:
    server = await make_server()
    table_id, _, _ = await human_table(server.port, 2, minors=(1, 1))
    watcher = await WsClient.open(server.port, None)
    await watcher.request("hello", protocol=[1, 1], client="watcher", combined=True)
    await watcher.request("watch", table=table_id)
    fresh = await watcher.wait_type("update")
    raw: dict[str, Any] = msgpack.unpackb(watcher.raw[watcher.msgs.index(fresh)])
    assert "events" not in raw and raw["view"]["ply"] == 0, raw
    assert fresh.events == ()


async def test_table_created_shows_the_table_before_you_sit_down(
    make_server: MakeServer,
) -> None:
    server = await make_server()
    c = await WsClient.open(server.port, "ann", (1, 1))
    created = await c.request("create_table", name="mine", player="Ann", seat=1)
    assert created.type == "table_created"
    assert [s.name for s in created.table.seats] == [None, None]  # nobody seated yet
    joined = await c.wait_type("joined")
    assert joined.seat == 1
    presence = await c.wait_type("presence")
    assert presence.seats[1].name == "Ann" and presence.seats[1].connected


async def test_a_finished_seat_resumed_gets_the_final_view_with_the_result(
    make_server: MakeServer,
) -> None:
    """While the server keeps a finished table (``finished_ttl``), ``resume`` of one of
    its seats answers with the final view, the result in it."""
    server = await make_server()
    table_id, (a, b), tokens = await human_table(server.port, 2, minors=(1, 1))
    assert (await a.request("resign")).type == "ack"
    await b.wait_for(lambda x: x.type == "presence" and x.state == "finished")
    await b.close()
    again = await WsClient.open(server.port, "b again", (1, 1))
    resumed = await again.request("resume", token=tokens[1])
    assert (resumed.type, resumed.seat) == ("resumed", 1), resumed
    final = await again.wait_type("view")
    assert final.view.game_over and final.view.result is not None
    assert final.view.result.ending == "resigned" and tuple(final.view.winners) == (1,)
    assert final.view.takes is None
    watcher = await WsClient.open(server.port, "watcher", (1, 1))
    await watcher.request("watch", table=table_id)
    seen = await watcher.wait_type("view")
    assert seen.view.result == final.view.result and seen.view.seat is None
