"""Paced play in real terminals: people in tmux at 60x20, 80x24 and 120x40 play 2- and
3-player games with the pacing on (the commands' own settings), and before each of
their decisions their screen shows every take of the other seats since their last
one, in the "since your take" lines or the log (issue 23: every take is seen as it
happens, RULES.md section 9)."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from client.lib import Client
from client.ui.render import Cards
from protocol import messages as m

from .tmux import KK, Tmux, columns, needs_tmux, seen

pytestmark = [needs_tmux, pytest.mark.e2e]


@dataclass
class Person:
    name: str
    size: tuple[int, int]
    seat: int = -1
    screens: list[tuple[float, str]] = field(default_factory=list)  # every screen read


async def play_and_read(
    url: str, tmp_path: Path, people: list[Person], bots: list[tuple[int, str]], players: int
) -> None:
    org = Client(url, name="org", persist_tokens=False, protocol=m.PROTOCOL_VERSION)
    await org.connect()
    created = await org.create_table("paced", m.TableOptions(players=players), bots=bots)
    table = created.table.id
    watcher = Client(url, name="eve", persist_tokens=False, protocol=m.PROTOCOL_VERSION)
    await watcher.connect()
    await watcher.watch(table)
    takes: list[tuple[float, m.TookEvent]] = []  # the truth, as it happened

    async def collect() -> None:
        async for u in watcher.updates():
            if isinstance(u, m.EventsMsg):
                takes.extend((time.monotonic(), e) for e in u.events if isinstance(e, m.TookEvent))

    collecting = asyncio.create_task(collect())
    t = Tmux(tmp_path, paced=True)  # the commands' own settings: pace 0.8 s, hold 0.4 s
    try:
        for p in people:  # each sits at the first free seat, in this order
            t.start(f"{KK} join {url} --table {table} --name {p.name}", name=p.name, size=p.size)
            async with asyncio.timeout(30):
                while not any(
                    s.name == p.name for s in (watcher.presence.seats if watcher.presence else ())
                ):
                    await asyncio.sleep(0.05)
        assert watcher.presence is not None
        for p in people:
            p.seat = next(s.seat for s in watcher.presence.seats if s.name == p.name)
        deadline = time.monotonic() + 300
        while not (watcher.view is not None and watcher.view.game_over):
            assert time.monotonic() < deadline, "\n\n".join(t.screen(p.name) for p in people)
            for p in people:
                screen = await asyncio.to_thread(t.screen, p.name)
                p.screens.append((time.monotonic(), columns(screen, p.size)))
                asks = ("Your turn", "[y]es", "[k]eep", "Targets (")
                if any(a in screen for a in asks):
                    await asyncio.to_thread(t.keys, "Enter", name=p.name)
            await asyncio.sleep(0.05)
        for p in people:  # every screen reaches the end
            async with asyncio.timeout(60):
                while "Final score" not in await asyncio.to_thread(t.screen, p.name):
                    await asyncio.sleep(0.1)
    finally:
        t.kill()
        collecting.cancel()
        await watcher.close()
        await org.close()
    cards = Cards.of(watcher.catalogue)
    for p in people:
        mine = [at for at, e in takes if e.seat == p.seat]
        assert len(mine) >= 3, (p.name, mine)
        checked = 0
        for before, at in zip([0.0, *mine], mine, strict=False):
            others = [e for when, e in takes if before < when < at and e.seat != p.seat]
            shown = [s for when, s in p.screens if before < when < at]
            if not others:
                continue  # a wand's second turn: nothing happened in between
            for e in others:  # on the screen, at some moment before the decision
                assert any(seen(s, cards, e.card, e.line) for s in shown), (
                    f"{p.name} ({p.size[0]}x{p.size[1]}) decided without seeing seat "
                    f"{e.seat} take {e.card} from {e.line}:\n{shown[-1] if shown else ''}"
                )
            checked += 1
        assert checked >= 2, (p.name, checked)


@pytest.mark.long
async def test_two_players_against_a_paced_computer(url: str, tmp_path: Path) -> None:
    await play_and_read(url, tmp_path, [Person("Ann", (80, 24))], [(1, "easy")], 2)


@pytest.mark.long
async def test_two_people_on_a_small_and_a_big_terminal(url: str, tmp_path: Path) -> None:
    await play_and_read(url, tmp_path, [Person("Ann", (60, 20)), Person("Bo", (120, 40))], [], 2)


@pytest.mark.long
async def test_three_people_at_three_sizes(url: str, tmp_path: Path) -> None:
    people = [Person("Ann", (60, 20)), Person("Bo", (80, 24)), Person("Cy", (120, 40))]
    await play_and_read(url, tmp_path, people, [], 3)
