"""Golden frames of protocols 1.1 and 1.2: a client written against one of them gets
exactly the frames it got when its version was published (docs/PROTOCOL.md,
"Versioning"), as ``test_golden_v10.py`` holds 1.0's.

One scripted session per version, of two players and a spectator who all speak it: a
lobby with a private table, grace and absence settings, chat, a whole game played from
the views' ``takes`` with the refusals a client meets on the way (not its turn, a stale
version, an unknown card, a spectator's take, a claim and a ``back`` with nobody away), a
rematch voted by both seats and ended by a resignation (its deal is random: its views are
masked), and an unknown message type.
1.1 runs twice, with separate ``events``/``view``/``ack`` frames and with
``hello.combined``; 1.2's players register, play a rated game and then look up a
profile, their games, a game's record and the leaderboard (wall-clock times masked);
1.3's do the same, then list a player's devices and revoke one it does not have; 1.4's
do that too, and after the first game catch up on its last two states, on nothing, and
on a state to come (refused); 1.5's do all of that, and ask for the first game's
analysis (one player, then the other, answered from the store), the spectator too
(refused: a private game) and one of a game that does not exist (refused); 1.6's do
what 1.5's do (its ``server_full`` refusals, which name their limit, are
``test_golden_full.py``'s).

Recorded with ``KK_GOLDEN_WRITE=1`` (``golden_frames.py``) on 2026-12-03, from the server
whose 1.1 and 1.2 behaviour docs/PROTOCOL.md describes; 1.3's, 1.4's and 1.5's on
2026-12-05 (1.5's analyses at the test servers' 4 samples a decision), 1.6's too.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgpack  # type: ignore[import-untyped]
import pytest

from protocol import messages as m

from .golden_frames import Masker, frame_lines, hold_to, settle
from .wsclient import WsClient, serving

SECRETS = {"Ann": "a" * 32, "Bob": "b" * 32}


def _state(client: WsClient) -> Any:
    """The client's newest ``view`` or ``update`` (both carry the view and its version)."""
    return next(x for x in reversed(client.msgs) if x is not None and x.type in ("view", "update"))


async def _game(seats: dict[int, WsClient], watcher: WsClient, refusals: bool) -> None:
    """Play the started game to its end, each take the last of the mover's ``takes``;
    ``refusals``: first the takes and intents a client gets refused."""
    everyone = (*seats.values(), watcher)
    while True:
        state = _state(seats[0])
        if state.view.game_over:
            return
        mover = seats[state.view.to_move]
        other = seats[1 - state.view.to_move]
        version = state.state_version
        if refusals:
            await other.request("take", state_version=version, card="root-1")
            await mover.request("take", state_version=version + 5, card="root-1")
            await mover.request("take", state_version=version, card="newt-2")
            await watcher.request("take", state_version=version, card="root-1")
            await mover.request("claim")
            await mover.request("back")
            refusals = False
        take = _state(mover).view.takes[-1].model_dump(exclude_defaults=True)
        await mover.request("take", state_version=version, **take)
        await settle(*everyone)


async def _script(port: int, minor: int, combined: bool) -> dict[str, list[Any]]:
    a, b, c = [await WsClient.open(port, None) for _ in range(3)]
    for who, name in ((a, "golden-a"), (b, "golden-b"), (c, "golden-c")):
        hello = {"protocol": [1, minor], "client": name, "client_version": "1"}
        welcome = await who.request("hello", combined=combined, **hello)
        assert welcome.type == "welcome"
    rated = minor >= 2
    if rated:
        for who, name in ((a, "Ann"), (b, "Bob")):
            signed = await who.request("register", name=name, secret=SECRETS[name])
            assert signed.type == "signed_in", signed
    await a.request("list_tables")
    created = await a.request(
        "create_table",
        name="golden later",
        private=True,
        options={"players": 2, "seed": 20261203, "recipes": True},
        timing={"grace": 20, "absent_after": 2},
        player="Ann",
        rated=rated,
    )
    assert created.type == "table_created", created
    table, invite = created.table.id, created.invite
    await a.wait_type("joined")
    await settle(a)
    await b.request("join", table=table, player="Bob", invite=invite, seeded=True)
    await c.request("watch", table=table, invite=invite)
    await settle(a, b, c)
    await a.send("chat", text="hello")
    await a.send("ready")
    await b.send("ready")
    await settle(a, b, c)
    await c.send("chat", text="good luck")
    await settle(a, b, c)
    await _game({0: a, 1: b}, c, refusals=True)
    await settle(a, b, c)
    if minor >= 4:  # the last two states caught up; nothing missed; a future ``since``
        end = _state(b).state_version
        await b.request("catch_up", since=end - 2)
        await c.request("catch_up", since=end)
        await a.request("catch_up", since=end + 1)
        await settle(a, b, c)
    # a rematch, both seats voting for it, ended by a resignation
    await a.send("rematch")
    await settle(a, b, c)
    await b.send("rematch")
    await settle(a, b, c)
    again = a.of_type("rematched")[-1].table  # both voted: it has started
    await b.request("resign")
    await settle(a, b, c)
    if rated:
        await a.request("show_profile")
        await a.request("show_profile", name="Bob")
        await b.request("list_games", limit=5)
        await b.request("get_record", table=table)
        if minor >= 5:  # the first game's analysis made, then read back; refusals
            await b.request("analyse_game", table=table)
            await a.request("analyse_game", table=table)
            await c.request("analyse_game", table=table)  # private, and c did not play
            await c.request("analyse_game", table="nosuchgame")
        await c.request("show_leaderboard")
    if minor >= 3:
        await a.request("list_devices")
        await a.request("revoke_device", device="nosuchdevice")
    await a.request("leave")
    await b.request("leave")
    await c.request("leave")
    await settle(a, b, c)
    await b.request("list_tables")
    await a.request("warp")
    await settle(a, b, c)
    for who in (a, b, c):
        await who.close()
    assert again != table
    mask = Masker(clock=True)
    return {name: _frames(who, mask) for name, who in (("a", a), ("b", b), ("c", c))}


def _frames(client: WsClient, mask: Masker) -> list[Any]:
    """The client's frames, masked. A rematch is dealt at random (it never repeats a
    seed the creator chose), so from ``rematched`` on a frame's ``view`` and ``events``
    are placeholders: their messages, order, versions and ``presence`` stay held."""
    out, dealt_at_random = [], False
    for frame in client.raw:
        assert isinstance(frame, bytes)
        msg = mask(msgpack.unpackb(frame))
        if dealt_at_random:
            msg = {k: f"<{k}>" if k in ("view", "events") else v for k, v in msg.items()}
        dealt_at_random = dealt_at_random or msg["type"] == "rematched"
        out.append(msg)
    return out


@pytest.mark.parametrize(
    ("minor", "combined", "name"),
    [
        (1, False, "v1_1.jsonl"),
        (1, True, "v1_1_combined.jsonl"),
        (2, True, "v1_2.jsonl"),
        (3, True, "v1_3.jsonl"),
        (4, True, "v1_4.jsonl"),
        (5, True, "v1_5.jsonl"),
        (6, True, "v1_6.jsonl"),
    ],
    ids=["1.1", "1.1-combined", "1.2", "1.3", "1.4", "1.5", "1.6"],
)
async def test_a_client_of_a_later_version_gets_exactly_its_frames(
    tmp_path: Path, minor: int, combined: bool, name: str
) -> None:
    """On SQLite, which keeps the finished games that 1.2's lists and records show."""
    limits = m.DEFAULT_LIMITS.model_copy(update={"rate_messages": 1000, "rate_burst": 1000})
    async with serving(tmp_path / "kk.db", limits=limits, rated_allow=frozenset({"seeds"})) as s:
        hold_to(name, frame_lines(await _script(s.port, minor, combined)))
