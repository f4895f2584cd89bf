"""The intents (``server.core.intents``), which ``Table.apply`` matches on, and the
intents between nodes (``server.cluster.messages``): every intent type is applied by
a table and crosses between nodes unchanged, and the messages are the ones nodes have
always sent, so a rolling upgrade keeps working."""

from __future__ import annotations

import dataclasses
import typing

import msgpack  # type: ignore[import-untyped]
import pytest

from server.cluster import messages as m
from server.cluster.messages import KINDS, IntentFor, decode_intent, encode_intent
from server.core import intents as i
from server.core.table import Table, TableError
from server.store import MemoryStore
from shared.game import Take
from shared.options import Options

SAMPLES: list[i.Intent] = [
    i.Join("ann", 1, True),
    i.Join("bob"),
    i.Watch(),
    i.Resume("ab" * 32),
    i.Leave(),
    i.Detach(),
    i.Ready(False),
    i.Play(Take("c-12", False, (0, 2), True), 7),
    i.Play(Take("c-3"), 0),
    i.Play(Take("c-3"), 4, re=17),
    i.Resign(),
    i.Claim(),
    i.Back(),
    i.Rematch(False),
    i.Chat("ann (spectator)", "gut gemacht \N{COPYRIGHT SIGN}"),
    i.CatchUp(3, 17),
    i.Hint(18),
]

# what nodes sent before the intents had types (server/cluster.py, protocol 1.1 era)
BEFORE = {
    "join": {"player": "ann", "seat": 1, "seeded": True},
    "take": {"re": None, "take": ["c-12", False, [0, 2], True], "v": 7},
    "resume": {"th": "ab" * 32},
    "ready": {"ready": False},
    "rematch": {"yes": False},
    "chat": {"name": "ann (spectator)", "text": "gut gemacht \N{COPYRIGHT SIGN}"},
}


def test_every_intent_has_its_own_kind_and_a_message() -> None:
    types = set(typing.get_args(i.Intent))
    assert {type(x) for x in SAMPLES} == types
    assert len({t.kind for t in types}) == len(types)
    assert {encode_intent(x)[0] for x in SAMPLES} == KINDS == {t.kind for t in types}
    seat_only = {t for t in types if t.seat_only}
    assert seat_only == {
        i.Ready,
        i.Play,
        i.Resign,
        i.Claim,
        i.Back,
        i.Rematch,
        i.CatchUp,
        i.Hint,
    }


class _Hears:
    """An occupant that hears everything and says nothing."""

    minor = 2

    def __getattr__(self, name: str) -> typing.Any:
        return lambda *a, **k: None


@pytest.mark.parametrize("intent", SAMPLES, ids=lambda x: type(x).__name__)
async def test_a_table_applies_every_intent_type(intent: i.Intent) -> None:
    """``Table.apply`` matches on every intent type (mypy proves the match exhaustive;
    this proves it at run time): at a table in its lobby each is applied or refused
    with a ``TableError``, never left unmatched."""
    table = Table("t1", "apply", Options(players=2), MemoryStore())
    seated, watching = _Hears(), _Hears()
    await table.apply(seated, i.Join("ann"))  # type: ignore[arg-type]
    await table.apply(watching, i.Watch())  # type: ignore[arg-type]
    try:
        result = await table.apply(seated, intent)  # type: ignore[arg-type]
    except TableError as e:
        assert e.code in {"not_started", "not_seated", "bad_token", "not_finished", "not_allowed"}
        return
    if isinstance(intent, i.Join):
        assert result[0] == 1 and isinstance(result[1], str)
    elif isinstance(intent, i.Chat):
        assert result is None and table.seat_of(seated) == 0


@pytest.mark.parametrize("intent", SAMPLES, ids=lambda x: type(x).__name__)
def test_an_intent_crosses_between_nodes_unchanged(intent: i.Intent) -> None:
    kind, fields = encode_intent(intent)
    wire = msgpack.unpackb(msgpack.packb({"k": kind, "t": "t1", "sid": "3", **fields}))
    assert decode_intent(wire) == intent


@pytest.mark.parametrize("intent", SAMPLES, ids=lambda x: type(x).__name__)
def test_a_whole_intent_message_crosses_between_nodes_unchanged(intent: i.Intent) -> None:
    for sent in (
        IntentFor(intent, "t1", "3", 9, "node-a", 1, True, "inv"),
        IntentFor(intent, "t1", "3", minor=0),
        IntentFor(intent, "t1", "3"),
    ):
        wire = msgpack.unpackb(msgpack.packb(m.encode(sent)))
        invite = sent.invite if isinstance(intent, i.Join | i.Watch) else None
        assert m.decode(wire) == dataclasses.replace(sent, invite=invite)


def test_the_messages_are_the_bytes_older_nodes_send() -> None:
    """Whole messages, byte for byte (a msgpack map keeps its keys' order), as the nodes
    sent them before the intents travelled as they are: a take waiting for its answer,
    a watch sent in order with the rest, a detach of a session that cannot follow a
    rematch, and the node that is back on its channel."""
    take = i.Play(Take("c-12", False, (0, 2), True), 7, re=5)
    before = [
        (
            IntentFor(take, "t1", "3", 9, "node-a", 1, True, None),
            {
                "k": "take",
                "t": "t1",
                "sid": "3",
                "rid": 9,
                "front": "node-a",
                "minor": 1,
                "combined": True,
                "re": 5,
                "take": ["c-12", False, [0, 2], True],
                "v": 7,
            },
        ),
        (
            IntentFor(i.Join("ann", 1, True), "t1", "3", 2, "node-a", 2, False, "c0de"),
            {
                "k": "join",
                "t": "t1",
                "sid": "3",
                "rid": 2,
                "front": "node-a",
                "minor": 2,
                "combined": False,
                "invite": "c0de",
                "player": "ann",
                "seat": 1,
                "seeded": True,
            },
        ),
        (
            IntentFor(i.Watch(), "t1", "3", None, None, 0, False, None),
            {"k": "watch", "t": "t1", "sid": "3", "minor": 0, "combined": False, "invite": None},
        ),
        (IntentFor(i.Detach(), "t2", "3"), {"k": "detach", "t": "t2", "sid": "3"}),
        (
            IntentFor(i.Back(), "t1", "3", 4, "node-a", 1, False),
            {
                "k": "back",
                "t": "t1",
                "sid": "3",
                "rid": 4,
                "front": "node-a",
                "minor": 1,
                "combined": False,
            },
        ),
        (m.Reconnected(), {"k": "back"}),
    ]
    for msg, old in before:
        assert msgpack.packb(m.encode(msg)) == msgpack.packb(old), old["k"]
        assert m.decode(old) == msg


def test_the_messages_are_the_ones_older_nodes_send_and_read() -> None:
    for intent in SAMPLES[:1] + SAMPLES[3:4] + SAMPLES[6:8] + SAMPLES[13:15]:
        kind, fields = encode_intent(intent)
        packed = msgpack.unpackb(msgpack.packb(fields))
        assert packed == BEFORE[kind], kind
    kind, fields = encode_intent(i.CatchUp(3, 17))  # 1.4's, under its own names
    assert (kind, fields) == ("catch_up", {"since": 3, "re": 17})
    assert decode_intent({"k": "catch_up", "since": 3, "re": 17}) == i.CatchUp(3, 17)
    assert encode_intent(i.Hint(18)) == ("ask_hint", {"re": 18})  # 1.5's
    assert decode_intent({"k": "ask_hint", "re": 18}) == i.Hint(18)
    older_join = {"k": "join", "player": "cid", "seat": None}  # before ``seeded`` existed
    assert decode_intent(older_join) == i.Join("cid", None, False)


def test_a_registered_players_join_crosses_with_its_player() -> None:
    """1.2: a registered player's join carries the player's id to the table's owner
    (its seat is linked to the player there); an anonymous join is sent as before."""
    joined = i.Join("hanna", None, False, "p-7Kq2")
    kind, fields = encode_intent(joined)
    assert fields == {"player": "hanna", "seat": None, "seeded": False, "pid": "p-7Kq2"}
    wire = msgpack.unpackb(msgpack.packb({"k": kind, "t": "t1", "sid": "3", **fields}))
    assert decode_intent(wire) == joined


def test_a_message_of_another_kind_is_no_intent() -> None:
    with pytest.raises(KeyError):
        decode_intent({"k": "frame", "sid": "1", "f": b""})


NODE_MESSAGES: list[tuple[m.NodeMessage, dict[str, object]]] = [
    (m.FrameFor("3", b"\x82\xa4type"), {"k": "frame", "sid": "3", "f": b"\x82\xa4type"}),
    (m.Reply(9, [1, "tok"]), {"k": "reply", "rid": 9, "r": [1, "tok"]}),
    (m.Reply(9, 12, answered=True), {"k": "reply", "rid": 9, "r": 12, "answered": True}),
    (m.Reply(9, moved=True), {"k": "reply", "rid": 9, "moved": True}),
    (
        m.Reply(9, error=("not_your_turn", "it is seat 1's turn", None)),
        {"k": "reply", "rid": 9, "error": ["not_your_turn", "it is seat 1's turn", None]},
    ),
    (  # 1.6: a refusal's typed fields under a key of their own, which older nodes skip
        m.Reply(9, error=("server_full", "table limit", None), particulars={"limit": "tables"}),
        {
            "k": "reply",
            "rid": 9,
            "error": ["server_full", "table limit", None],
            "why": {"limit": "tables"},
        },
    ),
    (m.Replaced("3", 1), {"k": "replaced", "sid": "3", "seat": 1}),
    (
        m.Rematched("3", "t2", 1.5, 0, [["ann", None], ["easy bot", "easy"]]),
        {
            "k": "rematched",
            "sid": "3",
            "t": "t2",
            "c": 1.5,
            "seat": 0,
            "seats": [["ann", None], ["easy bot", "easy"]],
        },
    ),
    (m.Moved("t1"), {"k": "moved", "t": "t1"}),
    (
        m.Refused("t1", "3", "no_such_table", "no"),
        {"k": "refused", "t": "t1", "sid": "3", "e": ["no_such_table", "no"]},
    ),
    (m.Listed(4, full=True), {"k": "listed", "v": 4, "full": True}),
    (
        m.Listed(5, set={"t1": b"{}"}, deleted=["t0"]),
        {"k": "listed", "v": 5, "set": {"t1": b"{}"}, "del": ["t0"]},
    ),
    (m.Reconnected(), {"k": "back"}),
    (m.Released(["t1", "t2"]), {"k": "released", "tables": ["t1", "t2"]}),
    (m.CloseTable(4, "t1", 0), {"k": "close", "rid": 4, "t": "t1", "seat": 0}),
    (m.CloseTable(5, "t1", None), {"k": "close", "rid": 5, "t": "t1", "seat": None}),
    (m.AdminAsk(6, "tables"), {"k": "admin_ask", "rid": 6, "a": "tables"}),
]


@pytest.mark.parametrize(("msg", "before"), NODE_MESSAGES, ids=lambda x: type(x).__name__)
def test_what_nodes_tell_each_other_keeps_its_bytes(
    msg: m.NodeMessage, before: dict[str, object]
) -> None:
    encoded = m.encode(msg)
    assert encoded == before
    assert m.decode(msgpack.unpackb(msgpack.packb(encoded))) == msg


def test_every_kind_of_node_message_is_covered_and_intents_are_read_as_intents() -> None:
    covered = {type(x) for x, _ in NODE_MESSAGES} | {IntentFor}
    assert covered == set(typing.get_args(m.NodeMessage))
    for intent in SAMPLES:  # a person's ``back`` names its table: an intent, not a node's
        read = m.decode(m.encode(IntentFor(intent, "t1", "3")))
        assert isinstance(read, IntentFor) and read.intent == intent
    assert m.decode({"k": "no_such_kind", "t": "t1"}) is None
