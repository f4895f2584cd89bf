"""Games for the server tests: the checks every final view must pass, and stored games
made without a server (for the export and the command line).

Several test modules need them; each is written here once.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from bench.stored import stored_game
from server.store import SqlStore, Store, open_store
from shared.options import Options
from shared.record import Record
from shared.result import judge

__all__ = ["check_final", "finished_game", "game_db", "running_record", "store_with_game"]


def check_final(view_msg: Any, players: int, recipes: bool) -> None:
    """The final view reveals everything, with consistent scores and winners."""
    v = view_msg.view
    assert v.game_over and v.to_move is None and v.ended_by is not None
    assert v.players == players and v.scores is not None and len(v.scores) == players
    for k in v.kettles:
        assert k.cards is not None and len(k.cards) == k.count and k.cards[-1] == k.top
    for seat, (hand, count) in enumerate(zip(v.recipes, v.recipe_counts, strict=True)):
        assert hand is not None and len(hand) == count
        assert count == ((2 if players == 2 else 1) if recipes else 0), seat
    for s, k in zip(v.scores, v.kettles, strict=True):
        assert s.kettle == k.cards
        assert s.ingredients, "a kettle always holds a card: a breakdown line at least"
        assert sum(len(i.cards) for i in s.ingredients) == len(s.kettle)
        met = sum(r.bonus for r in s.recipes if r.met)
        assert s.total == sum(i.total for i in s.ingredients) + s.value_one_bonus + met
        assert len(s.recipes) == len(v.recipes[s.seat] or ())
    best = max(s.total for s in v.scores)
    assert v.winners == tuple(s.seat for s in v.scores if s.total == best)


async def store_with_game(db: str | Path, record: Record, table: str = "t1") -> SqlStore:
    """A started store holding table ``table`` whose game has begun (no actions yet)."""
    store = open_store(db)
    await store.start()
    await store.create_table(table, "export me", record.options, False, None)
    await store.start_game(table, Record(record.options, record.setup, []))
    return store


def running_record(recipes: bool = True, takes: int = 6) -> Record:
    """A record of a game under way: ``takes`` random takes of seed 99."""
    record = Record.new(Options(seed=99, recipes=recipes))
    game = record.start()
    rng = random.Random(1)
    for _ in range(takes):
        take = rng.choice(game.legal_actions())
        game.apply(take)
        record.actions.append(take)
    return record


async def game_db(db: str, *, finish: bool) -> tuple[str, str, Record]:
    """Store a game as table ``g1`` in ``db`` (played to its end if ``finish``):
    (db, table id, record)."""
    record = running_record()
    game = record.replay()
    if finish:
        while not game.over:
            take = game.legal_actions()[0]
            game.apply(take)
            record.actions.append(take)
    store = await store_with_game(db, record, "g1")
    for i, take in enumerate(record.actions):
        await store.append_action("g1", i, take)
    if finish:
        await store.finish("g1", {"winners": [0], "totals": [0, 0]})
    await store.close()
    return db, "g1", record


async def finished_game(store: Store, players: list[str], seed: int, *, private: bool) -> str:
    """A two-player game of ``players`` (ids) played to its end by random takes and
    stored as a server stores one (its takes appended one by one, then its result);
    its table id."""
    table_id = await stored_game(store, players, (1, 2), rated=False, private=private, finish=False)
    stored = store.load_record(table_id)
    assert stored is not None
    game, rng = stored[0].start(), random.Random(seed)
    index = 0
    while not game.over:
        take = rng.choice(game.legal_actions())
        game.apply(take)
        await store.append_action(table_id, index, take)
        index += 1
    await store.finish(table_id, judge(game, "played_out").to_dict())
    return table_id
