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

from .wsclient import WsClient, human_table


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
