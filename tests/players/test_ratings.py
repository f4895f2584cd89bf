"""Ratings on real SQLite and PostgreSQL: held to openskill's own values on a fixed
history, recomputed identically from the stored games, counted only for rated games
that count; rated tables' rules; profiles, games, records and the leaderboard."""

from __future__ import annotations

from openskill.models import PlackettLuce

from bench.stored import stored_game
from server.players.ratings import OWN_TAKES, PROVISIONAL_GAMES, display, initial
from server.players.service import Players
from server.store import open_store
from tests.players.helpers import HISTORY, stored_players
from tests.server.wsclient import WsClient, create

from .helpers import new_secret, own_takes, signed_in, stored_server


def _expected() -> dict[int, tuple[float, float, int]]:
    """The history rated by openskill directly: player -> (mu, sigma, games)."""
    model = PlackettLuce()
    r = {i: model.rating() for i in range(4)}
    games = dict.fromkeys(range(4), 0)
    for seats, places, ending in HISTORY:
        if ending == "abandoned":
            continue
        teams = model.rate([[r[p]] for p in seats], ranks=list(places))
        for p, team in zip(seats, teams, strict=True):
            r[p] = team[0]
            games[p] += 1
    return {i: (r[i].mu, r[i].sigma, games[i]) for i in range(4)}


async def test_ratings_are_openskills_and_recompute_identically(store_url: str) -> None:
    store = open_store(store_url)
    await store.start()
    try:
        service = Players(store)
        players = await stored_players(store, 4)
        ids = [p.id for p in players]
        for seats, places, ending in HISTORY:
            await stored_game(store, [ids[p] for p in seats], places, ending=ending)
        await stored_game(store, [ids[0], ids[1]], (1, 2), rated=False)  # unrated: nothing
        expected = _expected()
        for i, pid in enumerate(ids):
            got = store.player_by_id(pid)
            assert got is not None and (got.mu, got.sigma, got.rated_games) == expected[i]
        board = service.leaderboard()
        assert await service.recompute() == 6
        assert service.leaderboard() == board
        for i, pid in enumerate(ids):
            got = store.player_by_id(pid)
            assert got is not None and (got.mu, got.sigma, got.rated_games) == expected[i]
    finally:
        await store.close()
    # a first game between newcomers, as openskill's defaults give it
    assert initial() == (25.0, 25.0 / 3)
    assert display(25.0, 25.0 / 3) == 25.0 - 3 * (25.0 / 3)


async def test_a_rated_game_over_the_protocol(store_url: str) -> None:
    async with stored_server(store_url) as server:
        ada = await signed_in(server.port, "Ada", new_secret(), register=True)
        grace = await signed_in(server.port, "Grace", new_secret(), register=True)
        anon = await WsClient.open(server.port, "anon", (1, 1))
        err = await anon.request(
            "create_table", name="r", player="x", rated=True
        )  # 1.1: ``rated`` unknown, ignored: an unrated table
        assert err.type == "table_created" and not err.table.rated
        for fields, code in (
            ({"bots": [{"seat": 1, "level": "easy"}]}, "bad_options"),
            ({"options": {"memory": "casual"}}, "bad_options"),
            ({"options": {"seed": 7}}, "bad_options"),
        ):
            e = await ada.request("create_table", name="r", player="Ada", rated=True, **fields)
            assert e.type == "error" and e.code == code, (fields, e)
        table, _, _ = await create(ada, player="Ada", rated=True)
        assert ada.of_type("table_created")[-1].table.rated
        other = await WsClient.open(server.port, "o", (1, 2))
        e = await other.request("join", table=table, player="Ada")
        assert e.type == "error" and (e.code, e.detail) == ("not_allowed", "rated")
        joined = await grace.request("join", table=table, player="G")
        assert joined.type == "joined"
        for c in (ada, grace):
            await c.send("ready")
        await ada.wait_type("view")
        await grace.wait_type("view")
        await own_takes([ada, grace], OWN_TAKES)  # it counts
        await grace.request("resign")  # Grace resigns: Ada wins
        await ada.wait_for(lambda x: x.type == "presence" and x.state == "finished")
        await ada.ping()
        prof = await other.request("show_profile", name="ada")
        model = PlackettLuce()
        [[a], [_g]] = model.rate([[model.rating()], [model.rating()]], ranks=[1, 2])
        assert prof.type == "profile" and (prof.player.mu, prof.player.sigma) == (a.mu, a.sigma)
        assert prof.player.rated_games == 1 and prof.player.wins == 1 and prof.player.games == 1
        assert prof.player.provisional and PROVISIONAL_GAMES == 10
        board = await other.request("show_leaderboard", limit=1)
        assert [e.name for e in board.entries] == ["Ada"] and board.total == 2
        rest = await other.request("show_leaderboard", cursor=board.next)
        assert [(e.name, e.rank) for e in rest.entries] == [("Grace", 2)] and rest.next is None
        games = await grace.request("list_games")
        assert games.type == "games" and games.total == 1
        [summary] = games.games
        assert (summary.table, summary.seat, summary.ending) == (table, 1, "resigned")
        assert summary.rated and summary.rating_after < summary.rating_before
        assert summary.names == ("Ada", "Grace")
        record = await other.request("get_record", table=table)
        assert record.type == "record" and record.rated and record.names == ("Ada", "Grace")
        assert record.record.result is not None and record.record.result.ending == "resigned"
        assert record.record.options.seed is None  # never the seed
        err = await other.request("get_record", table="nosuch")
        assert err.code == "no_such_game"
        err = await other.request("list_games", cursor="r1")
        assert err.code == "not_signed_in"
        err = await ada.request("list_games", cursor="r1")
        assert err.code == "invalid_field"
        err = await other.request("show_profile", name="Nobody")
        assert err.code == "no_such_player"
        for c in (ada, grace, anon, other):
            await c.close()


async def test_a_player_sits_once_per_table(store_url: str) -> None:
    secret = new_secret()
    async with stored_server(store_url) as server:
        ada = await signed_in(server.port, "Ada", secret, register=True)
        table, _, _ = await create(ada, player="Ada", options={"players": 3})
        twin = await signed_in(server.port, "Ada", secret)
        e = await twin.request("join", table=table, player="Ada2")
        assert e.type == "error" and (e.code, e.detail) == ("not_allowed", "same_player")
        for c in (ada, twin):
            await c.close()
