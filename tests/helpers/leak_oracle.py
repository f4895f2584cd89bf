"""The leak oracle: random games played through a server, every frame every connection
received checked against what that connection may know at that moment (RULES.md
section 9), with a truth rebuilt from the seed independently of the server's view code.

``tests/server/test_leak_oracle.py`` runs it on one server, ``test_cluster.py`` over the
nodes of a cluster; the rules it checks are told in the first one's docstring.
"""

from __future__ import annotations

import asyncio
import functools
import json
import random
import re
import types
from dataclasses import dataclass, field
from typing import Any

import msgpack  # type: ignore[import-untyped]
from websockets.protocol import State

from shared.cards import CARD_IDS, RECIPE_IDS
from shared.game import EMPTY, Game, Take
from shared.options import Options
from shared.record import action_to_dict
from tests.server.wsclient import WsClient, create, join, play_seat

__all__ = ["SEEN", "Conn", "Played", "check_game", "play_one"]

WELCOME: dict[int, Any] = {}  # the first welcome per version: every other must equal it
ZERO = types.SimpleNamespace(state_version=-1)
SEEN = {"takes": 0, "results": 0, "missed": 0, "analysis": 0, "hint": 0}  # 1.1, 1.4, 1.5
CARD_SET = frozenset(CARD_IDS)
CARD_RE = re.compile(r"[a-z_]+-[1-4]")
RECIPE_RE = re.compile("|".join(sorted(RECIPE_IDS, key=len, reverse=True)))
HASHED = 60.0
"""Seconds a ``register`` or ``sign_in`` may wait for its answer: a slow hash each
(scrypt: 50 ms of CPU and 16 MiB on a quiet machine), behind the other games' in the
server's line of two threads. Its memory is what a loaded machine slows most: one hash
took 1.3 to 2.8 s at a load of 14 to 18 on 2 cores, so the requests' usual 10 s ran out
at a load of 17 to 40. A hang guard, not a measure of speed."""
PLAYER_TYPES = frozenset({"signed_in", "device_code", "profile", "games", "record", "leaderboard"})


def _secret(rng: random.Random) -> str:
    """A player's secret (from the game's own random source: reproducible)."""
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"
    return "".join(rng.choice(alphabet) for _ in range(43))


@dataclass
class Conn:
    client: WsClient
    seat: int | None  # None: a spectator
    token: str | None = None
    minor: int = 0  # the protocol minor version it said in hello
    combined: bool = False  # 1.1 with one ``update`` per new state


@dataclass
class Played:
    options: Options
    conns: list[Conn] = field(default_factory=list)
    takes: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    secrets: list[str] = field(default_factory=list)  # 1.2: the players' secrets


# ---------------------------------------------------------------------- the truth
def truth(options: Options, takes: list[tuple[int, dict[str, Any]]]) -> list[Game]:
    """states[v]: the true game at state version v, replayed on our own engine copy."""
    game = Game.deal(options)
    states = [game]
    for version, f in sorted(takes, key=lambda t: t[0]):
        assert version == len(states) - 1, "acked takes form one chain of versions"
        game = game.copy()
        targets = f.get("targets")
        game.apply(
            Take(
                f["card"],
                f.get("special", True),
                None if targets is None else tuple(targets),
                f.get("keep", True),
            )
        )
        states.append(game)
    assert game.over
    return states


def may_know(game: Game, seat: int | None) -> tuple[set[str], set[str]]:
    """(card ids, recipe ids) a seat (None: spectator) may see in ``game``."""
    cards = {CARD_IDS[c] for c in game.grid if c != EMPTY}
    cards |= {CARD_IDS[c] for c in game.out}
    cards |= {CARD_IDS[k[-1]] for k in game.kettles}
    recipes: set[str] = set()
    if game.over:
        cards |= {CARD_IDS[c] for k in game.kettles for c in k}
        recipes = {r for hand in game.recipes for r in hand}
    else:
        if seat is not None and game.options.memory == "casual":
            cards |= {CARD_IDS[c] for c in game.kettles[seat]}
        if seat is not None:
            recipes = set(game.recipes[seat])
    return cards, recipes


def strings_and_ints(obj: Any, strs: list[str], ints: list[int]) -> None:
    """Every string and every integer (not a bool) anywhere in ``obj``, map keys
    included. (With a stack rather than recursion: each frame is walked once, and
    this walk was a quarter of the oracle's time.)"""
    stack = [obj]
    while stack:
        o = stack.pop()
        t = type(o)
        if t is str:
            strs.append(o)
        elif t is int:
            ints.append(o)
        elif t is dict:
            stack.extend(o)
            stack.extend(o.values())
        elif t is list or t is tuple:
            stack.extend(o)


@functools.cache
def named(s: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The card ids and the recipe ids the string ``s`` names (most strings of a game
    come again and again: a card's id, a colour, a message type)."""
    cards = tuple(cid for cid in CARD_RE.findall(s) if cid in CARD_SET)
    return cards, tuple(RECIPE_RE.findall(s))


def check_game(played: Played) -> int:
    """Check every frame of one game; returns the number of frames checked."""
    options = played.options
    seed = options.seed
    assert seed is not None
    states = truth(options, played.takes)
    final = states[-1]
    tokens = {c.token for c in played.conns if c.token is not None}
    as_text = str(seed)
    frames = 0
    for conn in played.conns:
        for raw in conn.client.raw:
            frames += 1
            if conn.client.json:  # the JSON subprotocol: text frames, every one
                assert isinstance(raw, str), "a JSON connection gets text frames only"
                raw = msgpack.packb(json.loads(raw))  # the same map, read alike
            assert isinstance(raw, bytes), "the server sends binary frames only"
            where = f"seat {conn.seat}, frame {raw[:60]!r}"
            for tok in tokens:
                if tok.encode() in raw:
                    obj = msgpack.unpackb(raw, raw=False)
                    assert obj["type"] == "joined" and tok == conn.token, f"token leak: {where}"
            assert str(seed).encode() not in raw, f"seed as text: {where}"
            for secret in played.secrets:  # 1.2: a player's secret never comes back
                assert secret.encode() not in raw, f"secret leak: {where}"
            obj = msgpack.unpackb(raw, raw=False, strict_map_key=False)
            strs: list[str] = []
            ints: list[int] = []
            strings_and_ints(obj, strs, ints)
            assert seed not in ints, f"seed leak: {where}"
            assert not any(as_text in s for s in strs), f"seed leak: {where}"
            kind = obj["type"]
            if kind == "welcome":  # the static catalogue: every card and recipe, no game facts
                static = {k: v for k, v in obj.items() if k not in ("seq", "re")}
                assert static["protocol"] == [1, conn.minor]
                assert WELCOME.setdefault(conn.minor, static) == static
                continue
            if conn.minor < 2:  # nothing of 1.2 before 1.2
                assert kind not in PLAYER_TYPES and "rated" not in obj.get("table", {}), where
            if conn.minor < 4:  # nothing of 1.4 before 1.4
                assert kind != "missed" and not V14_KEYS & _keys(obj), f"1.4 in: {where}"
            if conn.minor < 5:  # nothing of 1.5 before 1.5
                assert kind not in ("analysis", "hint"), f"1.5 in: {where}"
            if kind == "hint":  # 1.5: a take of the asking seat's, naming what it may know
                SEEN["hint"] += 1
                game = states[obj["state_version"]]
                assert conn.seat == game.to_move and not game.over, where
                assert obj["take"]["take"] in {t.card for t in game.legal_actions()}, where
                check_cards(obj, [game], conn.seat, where)
                continue
            if kind == "analysis":  # 1.5: each decision names what its seat knew then
                SEEN["analysis"] += 1
                check_analysis(obj, states, played, where)
                continue
            if kind == "missed":  # 1.4: each step holds what its state's events may
                SEEN["missed"] += 1
                for step in obj.get("steps", []):
                    v = step["state_version"]
                    check_cards(step, [states[v - 1], states[v]], conn.seat, where)
                continue
            if conn.minor == 0:  # 1.0: nothing of 1.1, ever
                assert kind != "update" and not {"takes", "result", "clock"} & set(
                    obj.get("view", {})
                ), f"1.1 in a 1.0 frame: {where}"
            if kind in ("view", "update"):
                check_11_view(obj, states[obj["state_version"]], conn, where)
            at: list[Game] = []
            if kind in ("view", "events", "update"):
                v = obj["state_version"]
                only_view = kind == "view" or (kind == "update" and not obj.get("events"))
                at = [states[v]] if only_view or v == 0 else [states[v - 1], states[v]]
            check_cards(obj, at, conn.seat, where, strs)
            if kind in ("view", "update"):  # our replay agrees with what the server shows
                g = states[obj["state_version"]]
                grid = [
                    [None if x == EMPTY else CARD_IDS[x] for x in g.grid[r * 6 : r * 6 + 6]]
                    for r in range(6)
                ]
                assert obj["view"]["grid"] == grid
                assert obj["view"].get("seat") == conn.seat
    last = [c for c in played.conns if c.seat == 0][-1].client.latest_view()
    assert last.view.game_over
    assert [list(k.cards) for k in last.view.kettles] == [
        [CARD_IDS[c] for c in k] for k in final.kettles
    ]
    return frames


def check_analysis(obj: dict[str, Any], states: list[Game], played: Played, where: str) -> None:
    """1.5's ``analysis`` of the game: one decision per take, each the take acknowledged
    at its state by its mover, and naming (the take, the expert's) only cards its seat
    could know when it decided; a summary per seat."""
    decisions = obj.get("decisions", [])
    assert len(decisions) == len(played.takes) == len(states) - 1, where
    acked = dict(played.takes)
    for d in decisions:
        ply, seat = d["ply"], d["seat"]
        assert seat == states[ply].to_move and d["take"]["take"] == acked[ply]["card"], where
        check_cards(d, [states[ply]], seat, f"{where} decision {ply}")
    assert [s["seat"] for s in obj["seats"]] == list(range(played.options.players)), where


V14_KEYS = frozenset({"by_computer", "computer_takes", "ended", "rating_before", "rating_after"})
"""Protocol 1.4's fields: no frame of an older connection has one."""


def _keys(obj: Any) -> set[str]:
    """Every map key anywhere in ``obj``."""
    keys: set[str] = set()
    stack = [obj]
    while stack:
        o = stack.pop()
        if type(o) is dict:
            keys.update(o)
            stack.extend(o.values())
        elif type(o) is list:
            stack.extend(o)
    return keys


def check_cards(
    obj: Any, at: list[Game], seat: int | None, where: str, strs: list[str] | None = None
) -> None:
    """Every card and recipe ``obj`` names is one ``seat`` may know in a state of
    ``at`` (none: it may name none). ``strs``: its strings, when already walked."""
    allowed_cards: set[str] = set()
    allowed_recipes: set[str] = set()
    for g in at:
        cards, recipes = may_know(g, seat)
        allowed_cards |= cards
        allowed_recipes |= recipes
    if strs is None:
        strs = []
        strings_and_ints(obj, strs, [])
    for s in strs:
        cids, rids = named(s)
        for cid in cids:
            assert cid in allowed_cards, f"card {cid} leaked: {where} {obj}"
        for rid in rids:
            assert rid in allowed_recipes, f"recipe {rid} leaked: {where} {obj}"


def check_11_view(obj: dict[str, Any], game: Game, conn: Conn, where: str) -> None:
    """``takes`` only for the seat to move, exactly the engine's legal decisions;
    ``result`` only once the game is over (it ends views of a finished game only)."""
    view = obj["view"]
    mover = game.to_move if not game.over else None
    if "takes" in view:
        SEEN["takes"] += 1
        assert conn.seat is not None and conn.seat == mover, f"takes to a non-mover: {where}"
        legal = [action_to_dict(t) for t in game.legal_actions()]
        assert [{"take": t.pop("card"), **t} for t in view["takes"]] == legal, where
    elif conn.minor >= 1 and conn.seat is not None and conn.seat == mover:
        raise AssertionError(f"the mover's 1.1 view lacks takes: {where}")
    if "result" in view:
        SEEN["results"] += 1
        assert view.get("game_over") is True and game.over, f"a result before the end: {where}"


# ---------------------------------------------------------------------- playing
async def play_one(
    port: int | list[int], rng: random.Random, *, json: bool = False, players: bool = False
) -> Played:
    """One random game; with several ports (the nodes of a cluster) every connection
    goes to another node than the one before: seats, spectators and a seat's
    reconnection each on their own. ``json``: every connection speaks the JSON
    subprotocol. ``players``: seats speak 1.2 too, registered players signed in (a
    rated table when every seat is one), who come back by ``sign_in`` and ``rejoin``."""
    ports = [port] if isinstance(port, int) else port
    opened = iter(range(10**6))

    def node() -> int:
        return ports[next(opened) % len(ports)]

    registered, players = players, rng.choice([2, 3])
    hints = not registered and rng.random() < 0.5  # 1.5: hints, never at a rated table
    options = Options(
        hints=hints,
        players=players,
        recipes=rng.random() < 0.5,
        memory=rng.choice(["strict", "casual"]),
        start_card=rng.choice(["no_player_colors", "not_own_color"]),
        third_colour=rng.choice(["lilac", "brown", "green", "gray"]),
        seed=rng.randrange(2**40, 2**53),
    )
    played = Played(options)
    wire = options.to_dict()
    wire["recipes"] = options.recipes
    minors = [rng.choice([0, 1, 2, 4] if registered else [0, 1, 4, 5]) for _ in range(players)]
    clients = [
        await WsClient.open(node(), f"p{i}", (1, minors[i]), json=json) for i in range(players)
    ]
    names = [f"p{i}-{rng.randrange(10**9)}" for i in range(players)]
    for i, c in enumerate(clients):
        if minors[i] == 2:
            played.secrets.append(_secret(rng))
            answer = await c.request(
                "register", name=names[i], secret=played.secrets[-1], timeout=HASHED
            )
            assert answer.type == "signed_in", answer
    rated = {"rated": True} if registered and set(minors) == {2} else {}
    table, _, token = await create(clients[0], options=wire, **rated)
    played.conns.append(Conn(clients[0], 0, token, minors[0]))
    for i, c in enumerate(clients[1:], 1):
        _, tok = await join(c, table, f"p{i}", seeded=True)
        played.conns.append(Conn(c, i, tok, minors[i]))
    watch = rng.choice(["none", "before", "during"])

    async def watcher(name: str) -> None:
        minor, combined = rng.choice([(0, False), (1, False), (1, True), (4, True), (5, True)])
        spectator = await WsClient.open(node(), None, json=json)
        hello = {"protocol": [1, minor], "client": name, "combined": combined}
        assert (await spectator.request("hello", **hello)).type == "welcome"
        await spectator.request("watch", table=table)
        played.conns.append(Conn(spectator, None, None, minor, combined))
        if minor >= 4 and name == "late":  # 1.4: what it missed, from the start
            await spectator.wait_type("update")  # combined: its fresh view
            missed = await spectator.request("catch_up", since=0)
            assert missed.type == "missed", missed

    if watch == "before":
        await watcher("spectator")
    for c in clients:
        await c.send("ready")

    async def seat_task(seat: int) -> None:
        conn = played.conns[seat]
        r = random.Random(rng.random())
        if r.random() < 0.25:  # drop and resume once, somewhere in the game
            last = await play_seat(
                conn.client, seat, r, max_takes=r.randint(0, 8), takes=played.takes
            )
            if last.view.game_over:
                return
            seen = conn.client.latest_view().state_version
            await conn.client.close()
            client = await WsClient.open(node(), f"p{seat}-again", (1, conn.minor), json=json)
            if conn.minor == 2:  # a registered player: signs in and rejoins, no token
                secret = played.secrets[sum(m == 2 for m in minors[:seat])]
                signed = await client.request(
                    "sign_in", name=names[seat], secret=secret, timeout=HASHED
                )
                assert signed.type == "signed_in" and signed.secret is None
                resumed = await client.request("rejoin", table=table)
            else:
                resumed = await client.request("resume", token=conn.token)
            assert resumed.type == "resumed" and resumed.seat == seat
            if conn.minor >= 4:  # 1.4: what it missed while away
                missed = await client.request("catch_up", since=seen)
                assert missed.type == "missed", missed
            played.conns.append(Conn(client, seat, None, conn.minor))
            conn = played.conns[-1]
        hinted = 0.3 if hints and conn.minor >= 5 else 0.0
        await play_seat(conn.client, seat, r, takes=played.takes, hints=hinted)

    async def late_watcher() -> None:
        # the game's sixth take may come after a seat's sign-in again (its slow hash)
        async with asyncio.timeout(HASHED + 30):
            while max((c.client.latest_view() or ZERO).state_version for c in played.conns) < 6:
                await asyncio.sleep(0.005)  # whichever seat connection is open sees it
        await watcher("late")

    tasks = [seat_task(s) for s in range(players)]
    if watch == "during":
        tasks.append(late_watcher())
    await asyncio.gather(*tasks)
    for conn in played.conns:
        if conn.seat is None:
            kind = "update" if conn.combined else "view"
            await conn.client.wait_for(lambda x, k=kind: x.type == k and x.view.game_over)
    for conn in played.conns:  # 1.5: the finished game's analysis, each asking
        if conn.minor >= 5 and conn.client.ws.state is State.OPEN:
            answer = await conn.client.request("analyse_game", table=table, timeout=HASHED)
            assert answer.type == "analysis" or answer.code == "rate_limited", answer
    for conn in played.conns:
        await conn.client.close()
    return played
