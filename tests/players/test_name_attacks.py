"""Names a person cannot tell apart, against a real server: registering a look-alike of
a registered name, invisible and bidi characters in any name that reaches another
person's screen, case variants at sign-in and in profiles, and a ban or mute dodged by
a look-alike of the name."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from server.app import Server
from server.commands.admin import request
from server.store import open_store
from server.store.players import StoredPlayer
from tests.server.wsclient import WsClient, create, serving

from .helpers import INVISIBLE, new_secret, signed_in, stored_server


async def ask(server: Server, action: str, **fields: Any) -> dict[str, Any]:
    assert server.admin is not None
    return await asyncio.to_thread(request, str(server.admin.path), {"action": action, **fields})


@pytest.fixture
async def server(tmp_path: Path) -> Any:
    async with serving(tmp_path / "kk.db", admin_socket=str(tmp_path / "a.sock")) as s:
        yield s


async def refusal(client: WsClient, type_: str, **fields: Any) -> tuple[str, str | None]:
    answer = await client.request(type_, **fields)
    assert answer.type == "error", answer
    return answer.code, answer.detail


async def test_invisible_look_alikes_of_a_name_are_refused(server: Server) -> None:
    ada = await signed_in(server.port, "Ada", new_secret(), register=True)
    for what, c in INVISIBLE.items():
        other = await WsClient.open(server.port, "x", (1, 2))  # attempts: 5 a connection
        for name in ("Ada" + c, "A" + c + "da"):
            code, detail = await refusal(other, "register", name=name, secret=new_secret())
            assert (code, detail) == ("invalid_field", "invisible"), what
        await other.close()
    await ada.close()


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Tom", "Torn"),
        ("Wendy", "VVendy"),
        ("Adam", "Aclam"),
        ("Iris Milo", "IRIS MILO"),
        ("Iris Milo", "iris milo"),
    ],
)
async def test_a_look_alike_of_a_registered_name_is_taken(
    server: Server, first: str, second: str
) -> None:
    secret = new_secret()
    owner = await signed_in(server.port, first, secret, register=True)
    other = await WsClient.open(server.port, "x", (1, 2))
    code, _ = await refusal(other, "register", name=second, secret=new_secret())
    assert code == "name_taken"
    profile = await other.request("show_profile", name=second)  # compared as register does
    assert profile.type == "profile" and profile.player.name == first
    games = await other.request("list_games", name=second)
    assert games.type == "games"
    again = await signed_in(server.port, second, secret)  # signs in as the owner
    assert again.msgs[-1].player.name == first
    for c in (owner, other, again):
        await c.close()


async def test_lookups_refuse_invisible_names(server: Server) -> None:
    secret = new_secret()
    ada = await signed_in(server.port, "Ada", secret, register=True)
    other = await WsClient.open(server.port, "x", (1, 2))
    for type_, fields in (
        ("sign_in", {"secret": secret}),
        ("show_profile", {}),
        ("list_games", {}),
    ):
        code, detail = await refusal(other, type_, name="Ada\u202e", **fields)
        assert (code, detail) == ("invalid_field", "invisible"), type_
    for c in (ada, other):
        await c.close()


@pytest.mark.parametrize("minor", [0, 2])
async def test_no_bidi_name_reaches_a_table(server: Server, minor: int) -> None:
    """A seat's name and a watcher's (its ``hello``'s ``client``, the name it chats
    under) are refused with an invisible, bidi or mixed-script character, whatever
    the client's version."""
    host = await WsClient.open(server.port, "host", (1, minor))
    table, _, _ = await create(host, player="Host")
    bad = {"Ev\u202eil": "invisible", "Ada\u200b": "invisible", "Тroll": "mixed_script"}
    for name, detail in bad.items():
        guest = await WsClient.open(server.port, "guest", (1, minor))
        assert await refusal(guest, "join", table=table, player=name) == ("invalid_field", detail)
        code = await refusal(guest, "create_table", name="t", player=name)
        assert code == ("invalid_field", detail)
        await guest.close()
        watcher = await WsClient.open(server.port, name, (1, minor))
        assert await refusal(watcher, "watch", table=table) == ("invalid_field", detail)
        await watcher.close()
    assert len(host.msgs) and all(
        "\u202e" not in str(getattr(x, "seats", "")) for x in host.msgs
    )  # nothing of them reached the host
    await host.close()


async def test_a_ban_holds_against_look_alikes(server: Server) -> None:
    host = await WsClient.open(server.port, "host")
    table, _, _ = await create(host, player="Host", players=3)
    banned = await ask(server, "ban", name="Troll", seconds=3600)
    assert banned["ok"]
    for name in ("Troll", "TROLL", "TroII", "Tro11"):
        guest = await WsClient.open(server.port, "g")
        assert (await refusal(guest, "join", table=table, player=name))[0] == "banned", name
        assert (await refusal(guest, "create_table", name="t", player=name))[0] == "banned"
        await guest.close()
        watcher = await WsClient.open(server.port, name)  # chats as "Troll (spectator)"
        assert (await refusal(watcher, "watch", table=table))[0] == "banned", name
        await watcher.close()
    # what the mixed-script, invisible and soft-hyphen forms get: refused before the ban
    for name in ("Тroll", "Troll\u200b", "Trοll", "Tro\u00adll"):
        guest = await WsClient.open(server.port, "g")
        assert (await refusal(guest, "join", table=table, player=name))[0] == "invalid_field"
        await guest.close()
    await host.close()


async def test_a_mute_and_a_ban_hold_in_chat(server: Server) -> None:
    host = await WsClient.open(server.port, "host")
    table, _, _ = await create(host, player="Host", players=3)
    mallory = await WsClient.open(server.port, "Ma11ory")  # watches, chats as its client
    watching = await mallory.request("watch", table=table)
    assert watching.type == "watching"
    guest = await WsClient.open(server.port, "g")
    joined = await guest.request("join", table=table, player="MALL0RY")
    assert joined.type == "joined"
    await ask(server, "mute", name="Mallory", seconds=3600)
    for c in (mallory, guest):
        assert (await refusal(c, "chat", text="hi"))[0] == "muted"
    banned = await ask(server, "ban", name="Mallory", seconds=3600)
    assert banned["closed"] == 2  # the watcher and the seat of look-alike names
    for c in (mallory, guest):
        assert (await c.wait_type("bye")).reason == "banned"
    await host.close()


async def test_stored_keys_are_renewed_at_start(store_url: str) -> None:
    """Players registered under the old key (NFKC, case folding, one skeleton) get the
    new one when the server starts; of two whose names now look the same, the first
    registered keeps the name, the other is parked (its games kept)."""
    store = open_store(store_url)
    await store.start()
    old = [
        StoredPlayer("p-iris", "iris milo", "Iris Milo", 1.0),
        StoredPlayer("p-tom", "tom", "Tom", 2.0),
        StoredPlayer("p-torn", "torn", "Torn", 3.0),
    ]
    for p in old:
        assert await store.add_player(p, "scrypt$none")
    await store.close()
    async with stored_server(store_url) as server:
        other = await WsClient.open(server.port, "x", (1, 2))
        profile = await other.request("show_profile", name="IRIS MILO")
        assert profile.type == "profile" and profile.player.name == "Iris Milo"
        torn = await other.request("show_profile", name="Torn")
        assert torn.type == "profile" and torn.player.name == "Tom"  # the first keeps it
        parked = server.store.player_by_id("p-torn")
        assert parked is not None and parked.key == " parked p-torn"
        code, _ = await refusal(other, "register", name="Iris Milo", secret=new_secret())
        assert code == "name_taken"
        await other.close()
    async with stored_server(store_url) as server:  # a second start changes nothing
        parked = server.store.player_by_id("p-torn")
        assert parked is not None and parked.key == " parked p-torn"
