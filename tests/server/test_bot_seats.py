"""Server-side bot seats: they play to the end and see exactly what a person would.

The proof that a bot never reads hidden state has two halves: every input the bot is
given equals the redacted view (``shared.view.view``) of its seat at that state version,
recomputed here independently from the table's record; and nothing reachable from the
bot object leads to the table, its ``Game``, its record or the store.
"""

from __future__ import annotations

import gc
import random
from typing import Any

import pytest

from server.app import Server
from server.bots.seats import BotPlayer
from shared.events import Event
from shared.view import View, view
from tests.helpers.servers import MakeServer

from .wsclient import WsClient, create, play_seat


def _reachable(root: object, forbidden: list[object], limit: int = 200_000) -> object | None:
    """The first object of ``forbidden`` reachable from ``root`` by references, if any."""
    ids = {id(o) for o in forbidden}
    seen: set[int] = set()
    stack = [root]
    while stack and len(seen) < limit:
        obj = stack.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        if id(obj) in ids:
            return obj
        if isinstance(obj, type):  # classes lead to modules and everything: stop there
            continue
        stack.extend(gc.get_referents(obj))
    return None


class Spy:
    """Wraps a bot and records every view it is given, with the call."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.seat = bot.seat
        self.views: list[tuple[str, View]] = []
        self.events: list[Event] = []

    def observe(self, events: list[Event], view: View | None = None) -> None:
        self.events.extend(events)
        if view is not None:
            self.views.append(("observe", view))
        self.bot.observe(events, view)

    def decide(self, view: View) -> Any:
        self.views.append(("decide", view))
        return self.bot.decide(view)


async def _bot_game(server: Server, level: str, players: int, **options: Any) -> tuple[Any, Any]:
    human = await WsClient.open(server.port, "human")
    bots = [{"seat": s, "level": level} for s in range(1, players)]
    table_id, _, _ = await create(human, options={"players": players, **options}, bots=bots, seat=0)
    table = server.lobby.get(table_id)
    spies = []
    for seat in range(1, players):
        occ = table.seats[seat].occupant
        assert isinstance(occ, BotPlayer)
        spy = Spy(occ.bot)
        occ.bot = spy
        spies.append(spy)
    await human.send("ready")
    final = await play_seat(human, 0, random.Random(players))
    await human.close()
    # a bot thinks in a worker process and comes back as it left it (its Spy with it):
    # the seat holds the latest copy
    spies = [table.seats[seat].occupant.bot for seat in range(1, players)]  # type: ignore[union-attr]
    return table, (spies, final)


@pytest.mark.parametrize(
    ("level", "players", "options"),
    [
        ("easy", 2, {"recipes": True}),
        ("medium", 2, {"memory": "casual"}),
        ("easy", 3, {"recipes": True, "third_colour": "green"}),
    ],
)
async def test_bot_seats_play_to_the_end_on_redacted_views_only(
    make_server: MakeServer, level: str, players: int, options: dict[str, Any]
) -> None:
    server = await make_server()
    table, (spies, final) = await _bot_game(server, level, players, **options)
    assert final.view.game_over and final.view.scores is not None
    assert table.record is not None
    record = table.record
    for spy in spies:
        assert spy.views, "the bot was never asked anything"
        decisions = [v for kind, v in spy.views if kind == "decide"]
        assert decisions, "the bot never moved"
        for _, seen in spy.views:
            # Exactly the redacted view of its seat at that point of the game (the
            # final one with the game's result).
            at = record.replay(upto=seen.ply)
            expected = view(at, spy.seat, result=record.result if at.over else None)
            assert seen == expected
        # The events it was told are the public history of the game, in order.
        history: list[Event] = []
        record.replay(events=history)
        assert spy.events == history[: len(spy.events)]
        # And nothing it holds leads to the real game.
        occupant = table.seats[spy.seat].occupant
        bot = occupant.bot.bot if isinstance(occupant, BotPlayer) else None
        assert bot is not None
        leak = _reachable(bot, [table, table.game, record, server.store, server.lobby])
        assert leak is None, f"bot can reach {type(leak).__name__}"


def test_the_reachability_check_can_fail() -> None:
    """The proof above is only worth something if the check sees a held reference."""

    class Holder:
        def __init__(self, x: object) -> None:
            self.inner = [{"k": (x,)}]

    secret = object()
    assert _reachable(Holder(secret), [secret]) is secret
    assert _reachable(Holder(object()), [secret]) is None
