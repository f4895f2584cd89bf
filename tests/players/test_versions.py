"""Protocol 1.2's messages exist only for connections that said 1.2 in ``hello``: a
1.0 or 1.1 connection gets ``unknown_type`` for each, whatever its fields, as the older
servers answered them."""

from __future__ import annotations

import pytest

from protocol import messages as m
from server.app import Server
from tests.server.wsclient import WsClient

SECRET = "s" * 40
SAMPLES = {
    "register": {"name": "Ada", "secret": SECRET},
    "sign_in": {"name": "Ada", "secret": SECRET},
    "new_device_code": {},
    "redeem_code": {"code": "ABCD-EFGH"},
    "rejoin": {"table": "t1"},
    "show_profile": {"name": "Ada"},
    "list_games": {},
    "get_record": {"table": "t1"},
    "show_leaderboard": {},
}


def test_every_1_2_message_is_sampled() -> None:
    assert {k for k, v in m.ADDED_IN.items() if v == 2} == set(SAMPLES)


@pytest.mark.parametrize("minor", [0, 1])
async def test_older_connections_do_not_know_1_2(server: Server, minor: int) -> None:
    client = await WsClient.open(server.port, "old", (1, minor))
    assert tuple(client.msgs[0].protocol) == (1, minor)
    for kind, fields in SAMPLES.items():
        for extra in ({}, {"name": 7, "code": 1}):  # valid fields, and fields 1.2 refuses
            err = await client.request(kind, **{**fields, **extra})
            assert err.type == "error" and err.code == "unknown_type", (kind, err)
            assert err.message == f"unknown message type {kind!r}"
    await client.ping()
    await client.close()


async def test_a_1_2_client_hears_1_2(server: Server) -> None:
    client = await WsClient.open(server.port, "new", (1, 2))
    assert tuple(client.msgs[0].protocol) == (1, 2)
    newer = await WsClient.open(server.port, "newer", (1, 9))
    assert tuple(newer.msgs[0].protocol) == m.PROTOCOL_VERSION == (1, 6)
    for c in (client, newer):
        await c.close()
