"""Ratings that cannot be bought, on real servers and real stores (SQLite and
PostgreSQL): a rated table always runs a clock, so stalling loses on time; a game
counts only once every seat made takes of its own, and before that only who forfeited
loses; a player sits once per table however the joins race; the documented rating
parameters and examples are the model's."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import msgpack  # type: ignore[import-untyped]
import pytest
from openskill.models import PlackettLuce

from bench.stored import result, stored_game
from protocol import encode
from protocol import messages as m
from protocol.examples_players import ADA, ADA_BEFORE, GRACE
from server.players.ratings import MODEL, OWN_TAKES, PROVISIONAL_GAMES, display, rate_game
from server.players.service import Players
from server.store import open_store
from server.store.players import StoredPlayer
from tests.server.wsclient import WsClient, create

from .helpers import new_secret, own_takes, signed_in, stored_server, take_if_mine

PROTOCOL = Path(__file__).parents[2] / "docs" / "PROTOCOL.md"


# ------------------------------------------------------------------ helpers
async def _profile(client: WsClient, name: str) -> Any:
    prof = await client.request("show_profile", name=name)
    assert prof.type == "profile", prof
    return prof.player


async def _started(a: WsClient, b: WsClient, **create_fields: Any) -> str:
    """A rated two-player table of ``a`` (seat 0) and ``b`` (seat 1), its game started."""
    starts = [len(a.msgs), len(b.msgs)]
    table, _, _ = await create(a, player="A", rated=True, **create_fields)
    assert (await b.request("join", table=table, player="B")).type == "joined"
    for c in (a, b):
        await c.send("ready")
    for c, start in zip((a, b), starts, strict=True):
        await c.wait_for(lambda x: x.type == "view" and not x.view.game_over, start=start)
    return table


# ------------------------------------------------------------------ a second account
async def test_a_second_account_that_resigns_at_once_feeds_nobody(store_url: str) -> None:
    """Games resigned at once rate only the resigner (a loss); a game in which each
    seat made its takes counts for both."""
    async with stored_server(store_url) as server:
        ada = await signed_in(server.port, "Ada", new_secret(), register=True)
        sock = await signed_in(server.port, "Sock", new_secret(), register=True)
        for _ in range(4):
            await _started(ada, sock)
            start = len(ada.msgs)
            assert (await sock.request("resign")).type == "ack"
            await ada.wait_for(lambda x: x.type == "view" and x.view.game_over, start=start)
            await ada.request("leave")
            await sock.request("leave")
        me, it = await _profile(ada, "Ada"), await _profile(ada, "Sock")
        assert (me.rated_games, me.mu, me.wins) == (0, 25.0, 4)  # four wins, none rated
        assert it.rated_games == 4 and it.rating < 0 and it.mu < 25.0
        board = await ada.request("show_leaderboard")
        assert [e.name for e in board.entries] == ["Sock"]
        # each made its takes: now the resignation is a rated win
        await _started(ada, sock)
        await own_takes([ada, sock], OWN_TAKES)
        start = len(ada.msgs)
        assert (await sock.request("resign")).type == "ack"
        await ada.wait_for(lambda x: x.type == "view" and x.view.game_over, start=start)
        await ada.ping()
        me = await _profile(ada, "Ada")
        assert me.rated_games == 1 and me.mu > 25.0
        games = await ada.request("list_games", limit=2)
        assert [g.rating_after is not None for g in games.games] == [True, False]
        for c in (ada, sock):
            await c.close()


async def test_own_takes_outlast_a_restart(store_url: str) -> None:
    """The takes each person made are stored with the game: after a restart the game
    still counts for both."""
    secrets = {"Ada": new_secret(), "Sock": new_secret()}
    async with stored_server(store_url) as server:
        ada = await signed_in(server.port, "Ada", secrets["Ada"], register=True)
        sock = await signed_in(server.port, "Sock", secrets["Sock"], register=True)
        table = await _started(ada, sock)
        await own_takes([ada, sock], OWN_TAKES)
        for c in (ada, sock):
            await c.close()
    async with stored_server(store_url) as server:
        ada = await signed_in(server.port, "Ada", secrets["Ada"])
        sock = await signed_in(server.port, "Sock", secrets["Sock"])
        for c in (ada, sock):
            assert (await c.request("rejoin", table=table)).type == "resumed"
        start = len(ada.msgs)
        assert (await sock.request("resign")).type == "ack"
        await ada.wait_for(lambda x: x.type == "view" and x.view.game_over, start=start)
        await ada.ping()
        assert (await _profile(ada, "Ada")).rated_games == 1
        for c in (ada, sock):
            await c.close()


# ------------------------------------------------------------------ the clock
@pytest.mark.parametrize(("first", "leaves"), [(OWN_TAKES, False), (OWN_TAKES, True), (0, False)])
async def test_a_player_who_stalls_a_rated_game_loses_on_time(
    store_url: str, first: int, leaves: bool
) -> None:
    """A rated table created without a clock gets the server's move time; a player who
    stops moving (or leaves) times out, counts as absent, and the opponent's claim is
    a rated win. The computer's moves for the staller are not its own: stalling from
    the start forfeits alone."""
    async with stored_server(store_url, rated_move=2.0) as server:
        ada = await signed_in(server.port, "Ada", new_secret(), register=True)
        sock = await signed_in(server.port, "Sock", new_secret(), register=True)
        table = await _started(ada, sock)
        listed = ada.of_type("table_created")[-1].table.timing
        assert listed is not None and listed.move == 2 and listed.absent_after == 3
        await own_takes([ada, sock], first)
        if leaves:
            await sock.close()

        def sock_absent() -> bool:
            seen = [x for x in ada.msgs if x is not None and x.type == "presence"]
            return bool(seen) and seen[-1].seats[1].absent

        async with asyncio.timeout(60):  # Ada moves whenever it is her turn
            while not sock_absent():
                if not await take_if_mine(ada, 0):
                    version = ada.latest_view().state_version
                    await ada.wait_until(
                        lambda v=version: ada.latest_view().state_version > v or sock_absent()
                    )
        claimed = await ada.request("claim")
        assert claimed.type == "ack", claimed
        final = await ada.wait_for(lambda x: x.type == "view" and x.view.game_over)
        assert final.view.result.ending == "claimed" and final.view.result.winners == (0,)
        me, it = await _profile(ada, "Ada"), await _profile(ada, "Sock")
        assert it.rated_games == 1 and it.mu < 25.0  # a loss, either way
        assert me.rated_games == (1 if first else 0)
        assert server.lobby.tables[table].result is not None
        for c in (ada, sock):
            await c.close()


async def test_a_rated_table_gets_a_clock_and_keeps_the_rest_of_its_timing(
    store_url: str,
) -> None:
    async with stored_server(store_url, rated_move=45.0) as server:
        ada = await signed_in(server.port, "Ada", new_secret(), register=True)
        for fields, want in (
            ({}, {"move": 45}),
            ({"timing": {"grace": 20, "absent_after": 2}}, {"move": 45, "grace": 20}),
            ({"timing": {"move": 300, "reserve": 60}}, {"move": 300, "reserve": 60}),
        ):
            start = len(ada.msgs)
            made = await ada.request("create_table", name="r", player="A", rated=True, **fields)
            got = made.table.timing.model_dump(exclude_defaults=True)
            assert {k: got.get(k) for k in want} == want, (fields, got)
            await ada.wait_type("joined", start=start)
            await ada.request("leave")
        made = await ada.request("create_table", name="friendly", player="A")
        assert made.table.timing.move is None  # an unrated table keeps no clock
        await ada.close()


# ------------------------------------------------------------------ early endings
async def _four(store: Any) -> list[str]:
    ids = []
    for i in range(4):
        p = StoredPlayer(f"early{i}", f"early key {i}", f"E{i}", 1000.0 + i)
        assert await store.add_player(p, "scrypt$x")
        ids.append(p.id)
    return ids


def _ended(places: list[int], ending: str, **facts: Any) -> dict[str, Any]:
    out = result(places, ending)
    out["winners"] = [s for s, p in enumerate(places) if p == 1] if ending != "timed_out" else []
    out.update(facts)
    return out


async def test_a_game_ended_early_rates_only_who_forfeited(store_url: str) -> None:
    """Before every seat made its own takes only the seats that resigned, timed out or
    lost a claim lose (each as a loss to the others); recompute agrees."""
    store = open_store(store_url)
    await store.start()
    try:
        service = Players(store)
        a, b, c, d = await _four(store)
        model = PlackettLuce()
        # resigned at once: only the resigner, as a loss
        await stored_game(
            store,
            [a, b],
            (1, 2),
            ending="resigned",
            own=(0, 0),
            result_of=_ended([1, 2], "resigned", resigned=[1]),
        )
        [[_], [lost]] = model.rate([[model.rating()], [model.rating()]], ranks=[1, 2])
        assert (store.player_by_id(a).rated_games, store.player_by_id(b).rated_games) == (0, 1)
        assert (store.player_by_id(b).mu, store.player_by_id(b).sigma) == (lost.mu, lost.sigma)
        # three players, one resigned early: it loses to both, who keep their ratings
        await stored_game(
            store,
            [a, c, d],
            (1, 2, 3),
            own=(9, 9, 1),
            result_of=_ended([1, 2, 3], "played_out", resigned=[2]),
        )
        assert [store.player_by_id(p).rated_games for p in (a, c, d)] == [0, 0, 1]
        # a claim against an absent seat that made no take of its own
        await stored_game(
            store, [c, a], (1, 2), own=(2, 0), result_of=_ended([1, 2], "claimed", claimed_by=0)
        )
        assert [store.player_by_id(p).rated_games for p in (c, a)] == [0, 1]
        # everybody timed out at once: nobody
        await stored_game(
            store,
            [c, d],
            (1, 1),
            own=(0, 0),
            result_of=_ended([1, 1], "timed_out", timed_out=[0, 1]),
        )
        assert [store.player_by_id(p).rated_games for p in (c, d)] == [0, 1]
        # played out by players who each made their takes: both
        await stored_game(store, [c, d], (2, 1), own=(OWN_TAKES, OWN_TAKES))
        assert [store.player_by_id(p).rated_games for p in (c, d)] == [1, 2]
        before = {p: store.player_by_id(p) for p in (a, b, c, d)}
        assert await service.recompute() == 4
        for p, was in before.items():
            now = store.player_by_id(p)
            assert now is not None and was is not None
            assert (now.mu, now.sigma, now.rated_games) == (was.mu, was.sigma, was.rated_games)
    finally:
        await store.close()


async def test_recompute_applies_the_rule_to_games_stored_before_it(store_url: str) -> None:
    """A game stored before own takes were kept counts by the takes of each seat's
    turns in its record: none (a resignation at once) rates only the resigner."""
    store = open_store(store_url)
    await store.start()
    try:
        a, b, _, _ = await _four(store)
        resigned = _ended([1, 2], "resigned", resigned=[1])
        old = await stored_game(store, [a, b], (1, 2), result_of=resigned)
        await store.save_life(old, {"resigned": [1]})  # as an older server stored it
        both = rate_game(resigned, {0: a, 1: b}, {a: None, b: None}, [OWN_TAKES] * 2)
        await store.save_ratings(old, 1, both)  # ... and rated it: both seats
        assert [store.player_by_id(p).rated_games for p in (a, b)] == [1, 1]
        service = Players(store)
        assert await service.recompute() == 1
        assert [store.player_by_id(p).rated_games for p in (a, b)] == [0, 1]
    finally:
        await store.close()


# ------------------------------------------------------------------ the docs
def test_the_documented_rating_parameters_are_the_models() -> None:
    text = " ".join(PROTOCOL.read_text(encoding="utf-8").split())
    assert (MODEL.mu, MODEL.sigma) == (25.0, 25.0 / 3) and "`mu` 25 and `sigma` 25/3" in text
    assert MODEL.beta == 25.0 / 6 and "`beta` (how much" in text and "is 25/6" in text
    assert MODEL.kappa == 0.0001 and "`kappa` (the smallest variance) 0.0001" in text
    assert MODEL.tau == 25.0 / 300 and "`tau` (the dynamics factor) 25/300" in text
    assert not MODEL.limit_sigma and not MODEL.balance and MODEL.margin == 0.0
    assert f"until the player has {PROVISIONAL_GAMES} rated games" in text
    assert f"at least **{OWN_TAKES} takes of its own**" in text
    # the worked example: a newcomer beating a newcomer
    [[w], [lo]] = MODEL.rate([[MODEL.rating()], [MODEL.rating()]], ranks=[1, 2])
    example = re.search(r"to `mu` ([\d.]+), `sigma` ([\d.]+) \(rating ([\d.]+)\)", text)
    assert example is not None
    assert [float(g) for g in example.groups()] == [
        round(w.mu, 4),
        round(w.sigma, 4),
        round(display(w.mu, w.sigma), 4),
    ]
    assert (
        f"the loser to `mu` {round(lo.mu, 4)} (rating {round(display(lo.mu, lo.sigma), 4)})" in text
    )


def test_the_profile_example_is_a_real_history() -> None:
    """The reference's Ada and Grace: each rating is ``mu - 3 * sigma`` of its numbers,
    and the numbers are what openskill makes of the history the example names."""
    model = MODEL
    grace = model.rating()
    for i in range(30):  # 20 wins of 30 against newcomers
        places = [1, 2] if i % 3 != 2 else [2, 1]
        grace = model.rate([[grace], [model.rating()]], ranks=places)[0][0]
    ada = model.rating()
    for places in ([1, 2], [2, 1], [1, 2]):
        ada = model.rate([[ada], [model.rating()]], ranks=places)[0][0]
    assert (ada.mu, ada.sigma) == ADA_BEFORE
    [[ada], [grace]] = model.rate([[ada], [grace]], ranks=[1, 2])
    assert (ada.mu, ada.sigma) == ADA and (grace.mu, grace.sigma) == GRACE
    text = PROTOCOL.read_text(encoding="utf-8")
    for mu, sigma in (ADA, GRACE, ADA_BEFORE):
        assert f"{display(mu, sigma)}" in text
    assert '"provisional":false' in text.replace(" ", "")  # a leaderboard entry says it


def test_provisional_means_the_same_in_every_message() -> None:
    """Absent, ``provisional`` is true in a profile; a leaderboard entry always has it."""
    assert m.PlayerInfo.model_fields["provisional"].default is True
    assert m.LeaderEntry.model_fields["provisional"].is_required()
    entry = m.LeaderEntry(
        rank=1, name="A", rating=1.0, mu=2.0, sigma=0.3, rated_games=40, provisional=False
    )
    frame = msgpack.unpackb(encode(m.LeaderboardMsg(seq=1, entries=(entry,), total=1)))
    assert frame["entries"][0]["provisional"] is False
