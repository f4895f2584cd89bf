"""Reconnection, replacement and seat ownership (issue 4, test 3)."""

from __future__ import annotations

import asyncio
import random
import secrets
from typing import Any

import pytest

from server.app import Server

from ..helpers.games import check_final
from .wsclient import WsClient, create, human_table, join, random_take


async def resume(port: int, token: str, seat: int) -> WsClient:
    """A new connection that takes ``seat`` back and gets a fresh full view."""
    client = await WsClient.open(port, f"back{seat}")
    resumed = await client.request("resume", token=token)
    assert resumed.type == "resumed" and resumed.seat == seat, resumed
    fresh = await client.wait_type("view")
    assert fresh.view.seat == seat
    return client


async def flaky_seat(
    port: int, client: WsClient, seat: int, token: str, rng: random.Random
) -> tuple[Any, int]:
    """Play ``seat`` to the end, dropping the connection (cleanly or abruptly) at random
    moments, even right after sending a take; returns (final view, drops)."""
    drops = 0
    acted = -1
    while True:
        await client.wait_until(
            lambda c=client, after=acted: (
                (v := c.latest_view()) is not None
                and v.state_version > after
                and (v.view.game_over or v.view.to_move == seat)
            ),
            timeout=30,
        )
        view_msg = client.latest_view()
        if view_msg.view.game_over:
            return view_msg, drops
        fields = random_take(view_msg.view, rng)
        fields["state_version"] = view_msg.state_version
        moment = rng.random()
        if moment < 0.15:  # drop before deciding
            pass
        elif moment < 0.3:  # drop right after sending: the take may or may not land
            await client.send("take", **fields)
        else:
            ack = await client.request("take", **fields)
            assert ack.type == "ack", ack
            acted = view_msg.state_version
            continue
        drops += 1
        if rng.random() < 0.5:
            client.abort()
        else:
            await client.close()
        client = await resume(port, token, seat)
        acted = -1


@pytest.mark.parametrize("players", [2, 3])
async def test_drops_and_resumes_then_finish(server: Server, players: int) -> None:
    _, clients, tokens = await human_table(server.port, players, recipes=True)
    rng = random.Random(players)
    results = await asyncio.gather(
        *(
            flaky_seat(server.port, c, s, tokens[s], random.Random(rng.random()))
            for s, c in enumerate(clients)
        )
    )
    assert sum(d for _, d in results) >= 5
    for final, _ in results:
        check_final(final, players, True)
    assert len({f.view.scores for f, _ in results}) == 1


async def test_presence_shows_a_dropped_seat(server: Server) -> None:
    _, (a, b), tokens = await human_table(server.port)
    start = len(a.msgs)
    b.abort()
    gone = await a.wait_for(
        lambda x: x.type == "presence" and not x.seats[1].connected, start=start
    )
    assert gone.seats[1].name == "p1"
    back = await resume(server.port, tokens[1], 1)
    await a.wait_for(lambda x: x.type == "presence" and x.seats[1].connected, start=start)
    await back.close()
    await a.close()


async def test_resume_before_the_game_starts(server: Server) -> None:
    a = await WsClient.open(server.port, "a")
    table, _, token = await create(a)
    assert token is not None
    await a.close()
    again = await WsClient.open(server.port, "a2")
    resumed = await again.request("resume", token=token)
    assert resumed.type == "resumed" and resumed.table == table
    b = await WsClient.open(server.port, "b")
    await join(b, table, "b")
    await again.send("ready")
    await b.send("ready")
    view = await again.wait_type("view")
    assert view.view.seat == 0
    await again.close()
    await b.close()


async def test_second_connection_replaces_the_first(server: Server) -> None:
    table, (a, b), tokens = await human_table(server.port)
    a2 = await resume(server.port, tokens[0], 0)
    bye = await a.wait_type("bye")
    assert bye.reason == "replaced"
    code, reason = await a.wait_closed()
    assert code == 4001 and reason is not None and reason.startswith("replaced")
    # the new connection plays; the seat is connected, once
    view = a2.latest_view()
    fields = random_take(view.view, random.Random(0))
    fields["state_version"] = view.state_version
    assert (await a2.request("take", **fields)).type == "ack"
    seats = server.lobby.get(table).seats
    assert seats[0].connected and seats[0].occupant is not None
    await a2.close()
    await b.close()


async def test_wrong_or_stolen_token_cannot_act(server: Server) -> None:
    table, (a, b), _ = await human_table(server.port)
    key = server.lobby.get(table).game.key()  # type: ignore[union-attr]
    thief = await WsClient.open(server.port, "thief")
    err = await thief.request("resume", token=secrets.token_urlsafe(24))
    assert err.type == "error" and err.code == "bad_token"
    err = await thief.request("resume", token="short")
    assert err.type == "error" and err.code == "invalid_field"
    view = a.latest_view()
    card = view.view.choices[0].card
    err = await thief.request("take", state_version=view.state_version, card=card)
    assert err.type == "error" and err.code == "not_seated"
    assert server.lobby.get(table).game.key() == key  # type: ignore[union-attr]
    await thief.close()
    await a.close()
    await b.close()


async def test_other_seats_and_spectators_cannot_act(server: Server) -> None:
    table, (a, b), _ = await human_table(server.port, 2)
    game = server.lobby.get(table).game
    assert game is not None
    key = game.key()
    view = a.latest_view()
    assert view.view.to_move == 0
    card = view.view.choices[0].card
    err = await b.request("take", state_version=view.state_version, card=card)
    assert err.type == "error" and err.code == "not_your_turn"
    err = await b.request("take", state_version=view.state_version + 1, card=card)
    assert err.type == "error" and err.code == "stale_state"
    watcher = await WsClient.open(server.port, "w")
    await watcher.request("watch", table=table)
    err = await watcher.request("take", state_version=view.state_version, card=card)
    assert err.type == "error" and err.code == "not_seated"
    err = await watcher.request("ready")
    assert err.type == "error" and err.code == "not_seated"
    err = await watcher.request("resign")
    assert err.type == "error" and err.code == "not_seated"
    assert server.lobby.get(table).game.key() == key  # type: ignore[union-attr]
    for c in (a, b, watcher):
        await c.close()


async def test_one_connection_cannot_take_a_second_seat(server: Server) -> None:
    """Resuming another seat of one's own table is refused: a connection occupying two
    seats could act only for the first, and the other seat's player was cut off."""
    table, (a, b), tokens = await human_table(server.port)
    err = await a.request("resume", token=tokens[1])
    assert err.type == "error" and err.code == "already_seated"
    seats = server.lobby.get(table).seats
    assert seats[1].occupant is not None and seats[1].occupant is not seats[0].occupant
    again = await a.request("resume", token=tokens[0])  # one's own seat: a fresh view
    assert again.type == "resumed" and again.seat == 0
    await b.ping()
    await a.close()
    await b.close()
