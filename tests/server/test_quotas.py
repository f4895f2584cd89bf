"""Per-peer quotas (finding 4 of the hostile-client review): one address cannot fill
the server with tables waiting in the lobby, with running games nobody attends, or with
games of bots only; each refusal says which quota, and others are not affected."""

from __future__ import annotations

from server.lobby import Quotas
from server.lobby.quotas import Held, refusal
from tests.helpers.servers import MakeServer

from .wsclient import WsClient, create

HARD = [{"seat": 0, "level": "hard"}, {"seat": 1, "level": "hard"}]


async def test_tables_waiting_in_the_lobby(make_server: MakeServer) -> None:
    server = await make_server(quotas=Quotas(lobby_tables=3, unattended_games=0, bot_games=0))
    clients = [await WsClient.open(server.port, f"c{i}") for i in range(5)]
    made = []
    for c in clients:  # one address, many connections: counted together
        answer = await c.request("create_table", name="t")
        made.append(answer.type if answer.type != "error" else answer.code)
    assert made == ["table_created"] * 3 + ["server_full"] * 2
    refused = await clients[4].request("create_table", name="t")
    assert "waiting in the lobby" in refused.message
    first = next(iter(server.lobby.tables.values()))
    await server.lobby.expire_lobbies(first.created + 10**6)  # they leave the lobby
    assert (await clients[4].request("create_table", name="t")).type == "table_created"
    # a table from elsewhere (no peer) is never counted
    await server.lobby.create("other", first.options)


async def test_games_of_bots_only(make_server: MakeServer) -> None:
    server = await make_server(quotas=Quotas(lobby_tables=0, unattended_games=0, bot_games=2))
    c = await WsClient.open(server.port)
    kinds = []
    for _ in range(3):  # hard bots: these games outlast the three requests
        answer = await c.request("create_table", name="bots", bots=HARD)
        kinds.append(answer.type if answer.type != "error" else answer.code)
    assert kinds == ["table_created", "table_created", "server_full"]
    assert "bots only" in c.msgs[-1].message
    assert (await c.request("create_table", name="mine", player="p")).type == "table_created"


async def test_running_games_nobody_attends(make_server: MakeServer) -> None:
    server = await make_server(quotas=Quotas(lobby_tables=0, unattended_games=2, bot_games=0))
    for _ in range(2):
        player = await WsClient.open(server.port, "p")
        await create(player, bots=[{"seat": 1, "level": "easy"}])
        await player.send("ready")
        await player.wait_type("view")
        player.abort()  # the game runs on (waiting for seat 0), nobody connected
    c = await WsClient.open(server.port)
    refused = await c.request("create_table", name="one more", player="p")
    assert refused.code == "server_full" and "nobody connected" in refused.message, refused
    watcher = await WsClient.open(server.port)  # someone watches one: it is attended
    running = next(t.id for t in server.lobby.tables.values() if t.state == "playing")
    assert (await watcher.request("watch", table=running)).type == "watching"
    assert (await c.request("create_table", name="one more")).type == "table_created"


async def test_behind_a_local_proxy_the_forwarded_address_counts(make_server: MakeServer) -> None:
    server = await make_server(
        quotas=Quotas(lobby_tables=1, unattended_games=0, bot_games=0), trust_forwarded=True
    )
    first = await WsClient.open(
        server.port, "a", additional_headers={"X-Forwarded-For": "10.0.0.9, 203.0.113.7"}
    )
    second = await WsClient.open(
        server.port, "b", additional_headers={"X-Forwarded-For": "198.51.100.2"}
    )
    for c in (first, second):  # two addresses: one table each
        assert (await c.request("create_table", name="t")).type == "table_created"
    again = await WsClient.open(
        server.port, "c", additional_headers={"X-Forwarded-For": "198.51.100.2"}
    )
    assert (await again.request("create_table", name="t")).code == "server_full"
    plain = await make_server(quotas=Quotas(lobby_tables=1, unattended_games=0, bot_games=0))
    spoof = [
        await WsClient.open(
            plain.port, f"s{i}", additional_headers={"X-Forwarded-For": f"10.1.1.{i}"}
        )
        for i in range(2)
    ]  # not trusted: both are 127.0.0.1
    kinds = [(await c.request("create_table", name="t")).type for c in spoof]
    assert kinds == ["table_created", "error"]


def test_each_refusal_counts_in_words_that_fit_its_number() -> None:
    quotas = Quotas(lobby_tables=1, unattended_games=1, bot_games=1)
    said = {
        n: [refusal(Held(**{kind: n}), 100, quotas, False) for kind in ("lobby", "unattended")]
        + [refusal(Held(bots=n), 100, quotas, True)]
        for n in (1, 2)
    }
    assert said[1] == [
        "you have a table waiting in the lobby: start or leave it first",
        "a game you started runs with nobody connected: resume, watch or resign it first",
        "a game of bots only you started is still running",
    ]
    assert said[2] == [
        "you have 2 tables waiting in the lobby: start or leave one first",
        "2 games you started run with nobody connected: resume, watch or resign one first",
        "2 games of bots only you started are still running",
    ]
