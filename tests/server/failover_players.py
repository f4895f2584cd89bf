"""The resilient players of the failover tests (``test_cluster_failover.py``): clients
of a cluster whose nodes die at any moment, as the client library is. When their
connection drops they reconnect to any living node and ``resume`` with their token; a
take refused because the table moved (``stale_state``) is decided again on the fresh
view. Nor do they give up a table being made as its node dies: they come back to it as
to a game (all from one address, they would otherwise fill its quota of tables in the
lobby, and every new table would be refused ``server_full``)."""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TypeVar

from websockets.exceptions import ConnectionClosed, InvalidHandshake

from ..helpers.cluster import LEASE, Node
from .wsclient import WsClient, random_take

__all__ = ["RECOVERABLE", "Game", "Stats", "connect_any", "new_game", "play", "spectate"]

RECOVERABLE = {"stale_state", "internal", "not_your_turn"}
T = TypeVar("T")


@dataclass
class Game:
    table: str
    players: int
    tokens: list[str]
    acked: dict[int, dict[str, Any]] = field(default_factory=dict)
    finals: dict[int, Any] = field(default_factory=dict)
    invite: str | None = None  # a private table's
    # state version -> what each seat and spectator saw of the public board there
    seen: dict[int, set[tuple[Any, ...]]] = field(default_factory=dict)
    watched_to_the_end = False
    spectator_saw: list[Any] = field(default_factory=list)  # the spectator's last messages

    def saw(self, msg: Any) -> None:
        """Note the public part of a view message: at one state version every seat and
        spectator, at whichever node, must see the same board."""
        v = msg.view
        public = (v.grid, v.pawns, v.deck_size, v.to_move, v.ply, v.removed, v.game_over)
        self.seen.setdefault(msg.state_version, set()).add(public)


@dataclass
class Stats:
    reconnects: int = 0
    refused: int = 0
    silences: list[str] = field(default_factory=list)


async def connect_any(nodes: list[Node], rng: random.Random, name: str) -> WsClient:
    """A connection to a living node (trying others while nodes die and start)."""
    while True:
        live = [n for n in nodes if n.alive]
        if live:
            with contextlib.suppress(OSError, ConnectionClosed, InvalidHandshake, TimeoutError):
                return await WsClient.open(rng.choice(live).port, name)
        await asyncio.sleep(0.1)


async def new_game(
    nodes: list[Node], rng: random.Random, players: int, *, private: bool = False
) -> Game:
    """Create a table on some node, seats joining from others, all ready. A node dying
    meanwhile loses nobody their table: as people who lost their node, each comes back
    to it from a living node (``resume`` with the token its ``join`` got) and says it is
    ready again. Only a table whose making or joining went unanswered is left for a new
    one (nobody knows its token: it waits in the lobby until it expires)."""
    while True:
        make = partial(make_table, players, private, time.monotonic())
        made, token = await at_any(nodes, rng, "p0", make)
        tokens = [token]
        for seat in range(1, players):
            if not (joined := await at_any(nodes, rng, f"p{seat}", partial(sit, made, seat))):
                break  # a join whose answer was lost took the seat: a new table then
            tokens.append(joined)
        else:
            game = Game(made.table.id, players, tokens, invite=made.invite)
            await asyncio.gather(
                *(at_any(nodes, rng, f"p{s}", partial(ready, game, s)) for s in range(players))
            )
            return game


async def at_any(
    nodes: list[Node], rng: random.Random, name: str, ask: Callable[[WsClient], Awaitable[T | None]]
) -> T:
    """What ``ask`` gets at a living node, connected as ``name``; asked again at any
    node while it gets None, its connection is lost or an answer is late."""
    while True:
        client = await connect_any(nodes, rng, name)
        try:
            got = await ask(client)
            if got is not None:
                return got
        except (OSError, ConnectionError, ConnectionClosed, TimeoutError):
            pass
        finally:
            await client.close()
        await asyncio.sleep(0.2)


async def make_table(
    players: int, private: bool, since: float, c: WsClient
) -> tuple[Any, str] | None:
    """A new table: its ``table_created`` and its maker's token (None: ask again).
    ``server_full`` is waited out a while, as a game its players are coming back to
    counts against the address's quota until they do, never for good: a quota filled
    by tables left behind is a failure."""
    options = {"players": players}
    made = await c.request(
        "create_table", name="failover", player="p0", options=options, private=private
    )
    if made.type == "table_created":
        return made, str((await c.wait_type("joined")).token)
    full = made.code == "server_full" and time.monotonic() - since < 30
    assert made.code in RECOVERABLE or full, made
    return None


async def sit(made: Any, seat: int, c: WsClient) -> str | None:
    """``p<seat>`` joins the table ``made``: its token ("": no seat is left for it, one
    was taken by a join whose answer was lost; None: ask again)."""
    joined = await c.request("join", table=made.table.id, player=f"p{seat}", invite=made.invite)
    if joined.type == "joined":
        return str(joined.token)
    if joined.code == "table_full":
        return ""
    assert joined.code in RECOVERABLE | {"no_such_table"}, joined  # (being adopted)
    return None


async def ready(game: Game, seat: int, c: WsClient) -> bool | None:
    """``seat`` back at its table and ready until the game is on (None: ask again; a
    node lost meanwhile may have lost the ``ready``, which is said again)."""
    resumed = await c.request("resume", token=game.tokens[seat], timeout=5)
    if resumed.type != "resumed":
        assert resumed.code in RECOVERABLE, resumed
        return None
    await c.send("ready")
    await c.wait_type("view", start=c.msgs.index(resumed), timeout=5)
    return True


async def play(
    nodes: list[Node], game: Game, seat: int, rng: random.Random, stats: Stats, pace: float
) -> None:
    """Play one seat to the end of the game, whatever happens to the nodes."""
    client: WsClient | None = None
    start = 0  # act only on a view received after our last take (or a reconnection)
    try:
        while True:
            if client is None or client.closed.is_set():
                if client is not None:
                    stats.reconnects += 1
                client = await connect_any(nodes, rng, f"p{seat}")
                try:
                    resumed = await client.request("resume", token=game.tokens[seat], timeout=5)
                except (ConnectionError, ConnectionClosed, TimeoutError):
                    await client.close()
                    continue
                if resumed.type != "resumed":  # the table is being adopted: again soon
                    assert resumed.code in RECOVERABLE, resumed
                    await client.close()
                    await asyncio.sleep(0.2)
                    continue
                start = client.msgs.index(resumed)  # the fresh view follows it
            c = client
            try:
                await c.wait_for(
                    lambda x, c=c: (
                        x.type == "view"
                        and x is c.latest_view()
                        and (x.view.game_over or x.view.to_move == seat)
                    ),
                    start=start,
                    timeout=3 * LEASE + 5,
                )
            except TimeoutError:  # no news: the game may be waiting for another seat
                last = c.latest_view()
                if last is not None and not last.view.game_over and last.view.to_move != seat:
                    start = len(c.msgs)
                    continue
                # no news: what it last heard, for the assertion's message; connect again
                when = time.strftime("%H:%M:%S", time.gmtime())
                stats.silences.append(f"{when} {game.table} seat {seat}: {c.tail(4)}")
                await c.close()
                continue
            except ConnectionError:
                continue
            vm = c.latest_view()
            for x in c.msgs[start:]:
                if x.type == "view":
                    game.saw(x)
            if vm.view.game_over:
                game.finals[seat] = vm
                return
            fields = random_take(vm.view, rng)
            fields["state_version"] = vm.state_version
            await asyncio.sleep(pace * rng.random())
            start = len(c.msgs)
            try:
                answer = await c.request("take", timeout=4 * LEASE + 5, **fields)
            except (ConnectionError, ConnectionClosed, TimeoutError):
                await c.close()
                continue
            if answer.type == "ack":
                assert answer.state_version == vm.state_version + 1
                assert vm.state_version not in game.acked, "two acks for one state"
                game.acked[vm.state_version] = fields
            else:
                assert answer.type == "error", answer
                assert answer.code in RECOVERABLE | {"game_over"}, answer
                # game_over: a take for this seat it had not heard of yet ended the game
                # (its own, its ack lost, or a stand-in's): the final view, come or on
                # its way, ends it for this seat too
                if answer.code == "game_over" and (last := c.latest_view()).view.game_over:
                    start = c.msgs.index(last)
                stats.refused += 1
    finally:
        if client is not None:
            await client.close()


async def spectate(
    nodes: list[Node], game: Game, rng: random.Random, stats: Stats, silence: float
) -> None:
    """Watch a game to its end from any node (with its invite code, if private),
    watching again after a dropped connection; nobody may be left without news for
    ``silence`` seconds while the game goes on."""
    client: WsClient | None = None
    pos = 0  # the first message not yet looked at
    try:
        while True:
            if client is None or client.closed.is_set():
                if client is not None:
                    stats.reconnects += 1
                    await client.close()
                client = await connect_any(nodes, rng, "spectator")
                try:
                    watching = await client.request(
                        "watch", table=game.table, invite=game.invite, timeout=5
                    )
                except (ConnectionError, ConnectionClosed, TimeoutError):
                    continue
                if watching.type != "watching":  # the table is being adopted: again soon
                    assert watching.code in RECOVERABLE | {"no_such_table"}, watching
                    await asyncio.sleep(0.2)
                    client.closed.set()
                    continue
                pos = client.msgs.index(watching) + 1  # its view may be in already
            c = client
            try:
                await c.wait_for(lambda x: x.type == "view", start=pos, timeout=silence)
            except TimeoutError:
                game.spectator_saw = c.tail(4)
                if len(game.finals) == game.players:  # the game ended: its end was seen?
                    break
                when = time.strftime("%H:%M:%S", time.gmtime())
                stats.silences.append(f"{when} {game.table} spectator: {c.tail(4)}")
                c.closed.set()
                continue
            except ConnectionError:
                continue
            end = len(c.msgs)
            for x in c.msgs[pos:end]:
                if x.type == "view":
                    game.saw(x)
                    if x.view.game_over:
                        game.watched_to_the_end = True
                        return
            pos = end
    finally:
        if client is not None:
            await client.close()
