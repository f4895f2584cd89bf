"""``GET /metrics`` (issue 26): scraped while games run and parsed with the Prometheus
text parser, its figures move as games are played; it is off unless asked for, and
answers only this machine or a bearer token when told to; nothing secret is in it."""

from __future__ import annotations

import asyncio
import platform
import random
import re
from pathlib import Path

from websockets.datastructures import Headers
from websockets.http11 import Request

from protocol.messages import ErrorCode
from server.figures import HANDSHAKE_REFUSALS
from server.lobby import Quotas
from server.ops.metrics import Metrics
from server.version import version
from tests.helpers.metrics import Scrape, game_against_a_bot, get, scrape
from tests.helpers.servers import MakeServer
from tests.server.wsclient import WsClient, advance, create, human_table, play_seat

ROOT = Path(__file__).resolve().parents[2]


async def test_the_figures_move_as_games_are_played(make_server: MakeServer) -> None:
    server = await make_server()
    before = await scrape(server.port)
    assert before.value("kupferkessel_takes_total") == 0
    assert before.value("kupferkessel_tables", state="playing") == 0
    assert set(before.values("kupferkessel_connections").values()) == {0}  # all there, at 0

    _, clients, _ = await human_table(server.port, 2, minors=(0, 1))
    version = await advance(clients, random.Random(1), 6)
    during = await scrape(server.port)
    assert during.value("kupferkessel_connections", protocol="1.0", encoding="msgpack") == 1
    assert during.value("kupferkessel_connections", protocol="1.1", encoding="msgpack") == 1
    assert during.value("kupferkessel_tables", state="playing") == 1
    assert during.value("kupferkessel_takes_total") == version == 6
    assert during.value("kupferkessel_take_ack_seconds_count") == 6
    assert during.value("kupferkessel_take_ack_seconds_bucket", le="+Inf") == 6
    assert during.value("kupferkessel_take_ack_seconds_sum") > 0
    # every take was committed before its ack: the store's figures moved with them
    writes = during.value("kupferkessel_store_writes_total")
    assert writes >= 6 + before.value("kupferkessel_store_writes_total")
    assert during.value("kupferkessel_store_commit_seconds_count") == during.value(
        "kupferkessel_store_commits_total"
    )
    assert during.value("kupferkessel_store_writes_per_commit_sum") == writes
    buckets = [
        v
        for k, v in sorted(
            during.values("kupferkessel_take_ack_seconds_bucket").items(),
            key=lambda kv: float(dict(kv[0])["le"]),
        )
    ]
    assert buckets == sorted(buckets), "cumulative buckets never decrease"

    # play on to the end: the game counts as finished
    await asyncio.gather(*(play_seat(c, i, random.Random(i)) for i, c in enumerate(clients)))
    after = await scrape(server.port)
    assert after.value("kupferkessel_tables", state="finished") == 1
    assert after.value("kupferkessel_games_finished_total") == 1
    assert after.value("kupferkessel_takes_total") > 6
    for c in clients:
        await c.close()


async def test_scrapes_while_games_run_all_parse(make_server: MakeServer) -> None:
    """Many scrapes while three games are played at once: each parses, and the counters
    never go down from one scrape to the next."""
    server = await make_server()
    stop = asyncio.Event()
    seen: list[Scrape] = []

    async def scraper() -> None:
        while not stop.is_set():
            seen.append(await scrape(server.port))
            await asyncio.sleep(0.01)

    async def game(seed: int) -> None:
        _, clients, _ = await human_table(server.port, 2)
        await asyncio.gather(
            *(play_seat(c, i, random.Random(seed + i)) for i, c in enumerate(clients))
        )
        for c in clients:
            await c.close()

    task = asyncio.create_task(scraper())
    await asyncio.gather(*(game(s) for s in (10, 20, 30)))
    stop.set()
    await task
    assert len(seen) >= 3
    takes = [s.value("kupferkessel_takes_total") for s in seen]
    commits = [s.value("kupferkessel_store_commits_total") for s in seen]
    assert takes == sorted(takes) and commits == sorted(commits)
    final = await scrape(server.port)
    assert final.value("kupferkessel_games_finished_total") == 3
    assert final.value("kupferkessel_takes_total") == final.value(
        "kupferkessel_take_ack_seconds_count"
    )


async def test_bot_moves_are_counted(make_server: MakeServer) -> None:
    server = await make_server(bot_workers=0)  # thinking in a thread: no worker process
    human = await game_against_a_bot(server.port, "easy", 3)
    figures = await scrape(server.port)
    assert figures.value("kupferkessel_bot_moves_waiting") == 0
    assert figures.value("kupferkessel_bot_move_seconds_count") > 0
    # every move counted, thought in a thread as in a worker
    assert figures.value("kupferkessel_bot_moves_total") == figures.value(
        "kupferkessel_bot_move_seconds_count"
    )
    await human.close()


async def test_refusals_and_rate_limits_are_counted(make_server: MakeServer) -> None:
    server = await make_server(quotas=Quotas(lobby_tables=1))
    c = await WsClient.open(server.port, "q")
    await create(c, player=None)
    refused = await c.request("create_table", name="second")
    assert refused.type == "error" and refused.code == "server_full"
    flooder = await WsClient.open(server.port, "f")
    for _ in range(60):  # more than the burst: some are refused
        await flooder.send("ping")
    await flooder.wait_until(lambda: any(x.type == "error" for x in flooder.msgs if x))
    figures = await scrape(server.port)
    assert figures.value("kupferkessel_quota_refusals_total", limit="lobby") == 1
    assert figures.value("kupferkessel_quota_refusals_total", limit="tables") == 0
    assert figures.value("kupferkessel_rate_limited_total", kind="limited") >= 1
    assert figures.value("kupferkessel_dropped_connections_total", reason="flood") == 0
    for x in (c, flooder):
        await x.close()


async def test_nothing_secret_is_in_the_metrics(make_server: MakeServer) -> None:
    """No name, table id, token or card: the label values are a fixed, known set."""
    server = await make_server()
    table, clients, tokens = await human_table(server.port, 3, recipes=True)
    await advance(clients, random.Random(5), 5)
    text = (await scrape(server.port)).text
    views = [c.latest_view().view for c in clients]
    secrets = [table, *tokens, "p0", "p1", "p2", "tester"]
    hidden = [r for v in views for r in v.recipes[v.seat] or ()]  # each seat's own recipes
    assert hidden
    secrets += hidden
    for secret in secrets:
        assert secret not in text, secret
    allowed = {
        "1.0",
        "1.1",
        "1.2",
        "1.3",
        "1.4",
        "1.5",
        "1.6",
        "none",
        "msgpack",
        "json",
        "lobby",
        "playing",
        "finished",
        "tables",
        "unattended",
        "bots",
        "limited",
        "closed",
        "chat",
        "over_limit",
        "flood",
        "unread",
        *(code.value for code in ErrorCode),
        *HANDSHAKE_REFUSALS,
        "hashed",
        "refused",
        "dropped",
    }
    build = {"version": version(), "python": platform.python_version()}
    for family in Scrape(text).families.values():
        for s in family.samples:
            for key, value in s.labels.items():
                if key in build:  # kupferkessel_build_info: the build, nothing of a game
                    assert value == build[key], (s.name, key, value)
                elif key != "le":
                    assert value in allowed, (s.name, key, value)
    for c in clients:
        await c.close()


async def test_off_unless_asked_for(make_server: MakeServer) -> None:
    server = await make_server(metrics=False)
    status, _, body = await get(server.port)
    assert status == 404 and b"off" in body


async def test_a_bearer_token_is_asked_for(make_server: MakeServer) -> None:
    server = await make_server(metrics_token="s3cret-token")
    status, headers, body = await get(server.port)
    assert status == 401 and headers["www-authenticate"] == "Bearer"
    assert b"s3cret" not in body
    status, _, _ = await get(server.port, headers={"Authorization": "Bearer wrong"})
    assert status == 401
    figures = await scrape(server.port, headers={"Authorization": "Bearer s3cret-token"})
    assert "s3cret" not in figures.text
    assert figures.value("kupferkessel_tables", state="lobby") == 0


async def test_loopback_only(make_server: MakeServer) -> None:
    """Restricted to this machine: a loopback scrape is answered; one forwarded by a
    proxy on this machine is not, nor (the refusal itself) one from another address."""
    server = await make_server(metrics_loopback=True)
    assert (await scrape(server.port)).value("kupferkessel_takes_total") == 0
    status, _, _ = await get(server.port, headers={"X-Forwarded-For": "198.51.100.7"})
    assert status == 403
    metrics = server.metrics
    assert isinstance(metrics, Metrics)
    request = Request("/metrics", Headers([("Host", "example.org")]))
    assert metrics.refusal(request, "198.51.100.7") is not None
    assert metrics.refusal(request, "127.0.0.1") is None
    assert metrics.refusal(request, "::1") is None
    unrestricted = await make_server()
    assert unrestricted.metrics is not None
    assert unrestricted.metrics.refusal(request, "198.51.100.7") is None


async def test_each_server_has_its_own_figures(make_server: MakeServer) -> None:
    one, two = await make_server(), await make_server()
    _, clients, _ = await human_table(one.port, 2)
    await advance(clients, random.Random(2), 3)
    assert (await scrape(one.port)).value("kupferkessel_takes_total") == 3
    assert (await scrape(two.port)).value("kupferkessel_takes_total") == 0
    for c in clients:
        await c.close()


def _documented() -> set[str]:
    text = (ROOT / "docs" / "OPERATIONS.md").read_text()
    section = text.split("## Metrics", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"`(kupferkessel_[a-z_]+)`", section))


async def test_the_docs_name_the_metrics_there_are(make_server: MakeServer) -> None:
    """Every family a server shows is in OPERATIONS.md's table, and every metric the
    example alert rules use is one a server shows (a node's: in the table)."""
    server = await make_server()
    families = {n for n in (await scrape(server.port)).families if n.startswith("kupferkessel_")}
    documented = _documented()
    counters = {n + "_total" for n in families}
    assert families - documented - {n.removesuffix("_total") for n in documented} == set()
    assert documented <= families | counters | {n for n in documented if "_node_" in n}
    rules = (ROOT / "docs" / "prometheus" / "kupferkessel-alerts.yml").read_text()
    for used in set(re.findall(r"kupferkessel_[a-z_]+", rules)):
        base = re.sub(r"_(bucket|count|sum)$", "", used)
        assert base in documented, used
