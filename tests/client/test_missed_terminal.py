"""Back at the table after the connection dropped, in real terminals (protocol 1.4):
Ann (80x24) and Bo play against a computer; Bo's terminal is suspended and the server
cuts his connection, a computer stands in for him after the grace period, and when his
terminal runs again it reconnects and shows every take made meanwhile (the computer's
for his seat marked), paced as if watched, before it asks Bo for a decision. The score
screen says how each seat ended and how many takes the computer made for Bo."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from client.lib import Client
from client.ui.render import Cards
from protocol import messages as m
from server.app import Server

from .tmux import KK, Tmux, columns, needs_tmux, seen

pytestmark = [needs_tmux, pytest.mark.e2e]

ASKS = ("Your turn", "[y]es", "[k]eep", "Targets (")


@pytest.mark.long
@pytest.mark.parametrize("size", [(60, 20), (120, 40)], ids=["60x20", "120x40"])
async def test_a_terminal_back_after_a_drop_shows_what_it_missed(
    url: str, server: Server, tmp_path: Path, size: tuple[int, int]
) -> None:
    org = Client(url, name="org", persist_tokens=False, protocol=m.PROTOCOL_VERSION)
    eve = Client(url, name="eve", persist_tokens=False, protocol=m.PROTOCOL_VERSION)
    await org.connect()
    await eve.connect()
    options = m.TableOptions(players=3)
    created = await org.create_table("away", options, bots=[(2, "easy")], timing=m.Timing(grace=1))
    table = created.table.id
    await eve.watch(table)
    takes: list[tuple[float, m.TookEvent, bool]] = []  # the truth: when, what, by a computer

    async def collect() -> None:
        async for u in eve.updates():
            if isinstance(u, m.EventsMsg):
                for e in u.events:
                    if isinstance(e, m.TookEvent):
                        takes.append((time.monotonic(), e, u.by_computer))

    collecting = asyncio.create_task(collect())
    t = Tmux(tmp_path, paced=True)
    people = {"Ann": (80, 24), "Bo": size}
    screens: list[tuple[float, str]] = []  # Bo's, read as a person reads them
    try:
        for name, at in people.items():
            # Bo's client under a shell of its own: tmux wakes a stopped pane process
            # at once (SIGCONT), but not the shell's child
            command = f"{KK} join {url} --table {table} --name {name}"
            t.start(f"sh -c '{command}; true'" if name == "Bo" else command, name=name, size=at)
            async with asyncio.timeout(30):
                while not any(s.name == name for s in (eve.presence.seats if eve.presence else ())):
                    await asyncio.sleep(0.05)
        assert eve.presence is not None
        bo = next(s.seat for s in eve.presence.seats if s.name == "Bo")

        async def play(until: Callable[[], bool], *, bo_too: bool = True) -> None:
            """Answer Ann's (and Bo's) questions until ``until()``; read Bo's screens."""
            deadline = time.monotonic() + 180
            while not until():
                assert time.monotonic() < deadline, (t.screen("Ann"), t.screen("Bo"))
                for name in people:
                    if name == "Bo" and not bo_too:
                        continue
                    screen = await asyncio.to_thread(t.screen, name)
                    if name == "Bo":
                        screens.append((time.monotonic(), columns(screen, size)))
                    if any(a in screen for a in ASKS):
                        await asyncio.to_thread(t.keys, "Enter", name=name)
                await asyncio.sleep(0.05)

        def own(seat: int) -> int:
            return sum(1 for _, e, computer in takes if e.seat == seat and not computer)

        def over() -> bool:
            return eve.view is not None and eve.view.game_over

        await play(lambda: own(bo) >= 2 or over())
        assert not over()
        shell = t.tmux("list-panes", "-t", "Bo", "-F", "#{pane_pid}").split()[0]
        pid = int(subprocess.run(["pgrep", "-P", shell], capture_output=True, text=True).stdout)
        os.kill(pid, signal.SIGSTOP)  # Bo's terminal stops: his phone locked
        cut_off = [s for s in server.sessions if s.name == "Bo"]
        assert cut_off, [s.name for s in server.sessions]
        for session in cut_off:
            session.ws.transport.abort()
        cut = time.monotonic()

        def for_bo() -> int:
            return sum(1 for at, e, computer in takes if at > cut and e.seat == bo and computer)

        await play(lambda: for_bo() >= 2 or over(), bo_too=False)
        away = [(at, e, c) for at, e, c in takes if at > cut]
        os.kill(pid, signal.SIGCONT)
        back = time.monotonic()
        await play(over)
        async with asyncio.timeout(90):  # his screen reaches the end too
            while "Final score" not in await asyncio.to_thread(t.screen, "Bo"):
                await asyncio.sleep(0.1)
        final = await _scrolled_to(t, "the computer made", size)
    finally:
        t.kill()
        collecting.cancel()
        await eve.close()
        await org.close()
    cards = Cards.of(eve.catalogue)
    after = [s for at, s in screens if at > back]
    decided = next((at for at, e, c in takes if at > back and e.seat == bo and not c), None)
    before = [s for at, s in screens if back < at < (decided or float("inf"))]
    assert any("While you were away" in s or "missed take" in s for s in after), after[-1:]
    for _, e, _ in away:  # every take made while away, on his screen before he decided
        assert any(seen(s, cards, e.card, e.line) for s in before), (e, before[-1:])
    assert any("computer's move" in s or "You (a computer)" in s for s in after)
    assert "the computer made" in final and "Bo" in final, final


async def _scrolled_to(t: Tmux, text: str, size: tuple[int, int]) -> str:
    """Bo's score screen scrolled down (Down) until it shows ``text``."""
    for _ in range(40):
        screen = await asyncio.to_thread(t.screen, "Bo")
        if text in screen:
            return columns(screen, size)
        await asyncio.to_thread(t.keys, "Down", name="Bo")
        await asyncio.sleep(0.1)
    raise AssertionError(screen)
