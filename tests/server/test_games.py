"""Full games through the network, to the final scores (issue 4, test 1)."""

from __future__ import annotations

import asyncio
import random

import pytest

from server.app import Server

from ..helpers.games import check_final
from .wsclient import WsClient, create, human_table, play_seat


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("recipes", [False, True])
async def test_human_game_to_scores(server: Server, players: int, recipes: bool) -> None:
    table, clients, _ = await human_table(server.port, players, recipes=recipes)
    rng = random.Random(players * 10 + recipes)
    finals = await asyncio.gather(
        *(play_seat(c, seat, random.Random(rng.random())) for seat, c in enumerate(clients))
    )
    for final in finals:
        check_final(final, players, recipes)
    # every seat sees the same final scores; the game_over event says the same
    assert len({f.view.scores for f in finals}) == 1
    over = [e for c in clients for m in c.of_type("events") for e in m.events]
    over = [e for e in over if e.kind == "game_over"]
    assert len(over) == players and over[0].scores == finals[0].view.scores
    assert server.lobby.get(table).state == "finished"
    for c in clients:
        await c.close()


@pytest.mark.parametrize(
    ("players", "recipes", "bots"),
    [(2, False, [1]), (2, True, [0]), (3, True, [1, 2]), (3, False, [0])],
)
async def test_game_with_bot_seats(
    server: Server, players: int, recipes: bool, bots: list[int]
) -> None:
    humans = [s for s in range(players) if s not in bots]
    clients = [await WsClient.open(server.port, f"h{s}") for s in humans]
    table, _, _ = await create(
        clients[0],
        player="h0",
        seat=humans[0],
        options={"players": players, "recipes": recipes},
        bots=[{"seat": s, "level": "easy"} for s in bots],
    )
    for seat, c in zip(humans[1:], clients[1:], strict=True):
        await c.request("join", table=table, player=f"h{seat}", seat=seat)
    for c in clients:
        await c.send("ready")
    finals = await asyncio.gather(
        *(play_seat(c, seat, random.Random(seat)) for seat, c in zip(humans, clients, strict=True))
    )
    for final in finals:
        check_final(final, players, recipes)
    presence = clients[0].of_type("presence")[-1]
    assert [s.bot for s in presence.seats] == [
        "easy" if s in bots else None for s in range(players)
    ]
    for c in clients:
        await c.close()


async def test_bots_only_table_watched_to_the_end(server: Server) -> None:
    """A table of bots starts at once; a spectator sees it to the final scores."""
    c = await WsClient.open(server.port, "watcher")
    table, _, _ = await create(
        c,
        player=None,
        options={"players": 2},
        bots=[{"seat": 0, "level": "easy"}, {"seat": 1, "level": "easy"}],
    )
    await c.request("watch", table=table)
    await c.wait_until(lambda: (v := c.latest_view()) is not None and v.view.game_over, timeout=60)
    check_final(c.latest_view(), 2, False)
    await c.close()


async def test_create_with_player_needs_a_seat_left(server: Server) -> None:
    """Sitting down at a table whose seats are all bots is refused before anything is
    created (it used to create and start a bots-only game, then answer not_in_lobby)."""
    c = await WsClient.open(server.port, "x")
    bots = [{"seat": 0, "level": "easy"}, {"seat": 1, "level": "easy"}]
    err = await c.request("create_table", name="t", player="me", bots=bots)
    assert err.type == "error" and err.code == "bad_options"
    assert server.lobby.health_counts()["tables"] == 0
    await c.close()


async def test_ready_and_chat_are_unanswered_on_success(server: Server) -> None:
    """As PROTOCOL.md says: ``ready`` and ``chat`` get no message with their ``re`` when
    they succeed (``presence`` and the ``chat`` line show them), an ``error`` with ``re``
    when refused, and a ``ping`` after them is answered after either."""
    a = await WsClient.open(server.port, "a")
    await create(a)
    start = len(a.msgs)
    ready_id = await a.send("ready")
    chat_id = await a.send("chat", text="hello")
    await a.ping()
    answered = {getattr(x, "re", None) for x in a.msgs[start:]}
    assert ready_id not in answered and chat_id not in answered
    presence = [x for x in a.msgs[start:] if x.type == "presence"][-1]
    assert presence.seats[0].ready
    line = next(x for x in a.msgs[start:] if x.type == "chat")
    assert (line.text, line.seat) == ("hello", 0)

    b = await WsClient.open(server.port, "b")  # not seated: both are refused
    start = len(b.msgs)
    ready_id = await b.send("ready")
    chat_id = await b.send("chat", text="hi")
    await b.ping()
    errors = {x.re: x.code for x in b.msgs[start:] if x.type == "error"}
    assert errors == {ready_id: "not_seated", chat_id: "not_seated"}
    await a.close()
    await b.close()
