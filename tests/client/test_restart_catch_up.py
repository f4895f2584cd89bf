"""A terminal client quit and started again (protocol 1.4): it keeps the last state it
showed with the seat's token, and on taking the seat back from that token it shows the
takes made meanwhile, paced, before it asks for a decision, exactly as after a dropped
connection, instead of a summary. A real server; Ann's two sessions (the client quit,
then started again on the same data directory) and Bob's, with the terminal
application's own code."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
from prompt_toolkit.input import create_pipe_input

from client.lib import Client, Missed, Status
from client.tokens import TokenStore
from client.ui.app import KupferApp
from client.ui.render import text_of
from client.ui.seating import take_seat
from protocol import messages as m
from tests.helpers.screens import SizedOutput

from ..helpers import until

PV = m.PROTOCOL_VERSION


async def pump(client: Client, into: list[Any], kapp: KupferApp | None = None) -> None:
    """The updates as the application takes them (without its pace): kept in
    ``into``, each shown by ``kapp`` if given."""
    async for u in client.updates():
        into.append(u)
        if kapp is not None:
            kapp.on_update(u)


@pytest.fixture
async def bob(url: str) -> AsyncIterator[Client]:
    client = Client(url, name="Bob", persist_tokens=False, protocol=PV)
    await client.connect()
    yield client
    await client.close()


async def play(ann: Client, bob: Client, done: Any) -> list[int]:
    """Whoever is to move takes its first choice, until ``done()``; the state versions
    Bob's takes led to."""
    bobs = []
    while True:
        await until(lambda: ann.state_version == bob.state_version and bob.view is not None)
        if done():
            return bobs
        assert bob.view is not None
        mover = bob if bob.view.to_move == 1 else ann
        assert mover.view is not None
        version = await mover.take(mover.view.choices[0].card, special=False)
        if mover is bob:
            bobs.append(version)


def prompt(kapp: KupferApp) -> str:
    return "\n".join(text_of(line) for line in kapp.game.prompt_lines(80))


async def test_a_client_started_again_shows_the_takes_it_missed(url: str, bob: Client) -> None:
    ann = Client(url, name="Ann", protocol=PV)  # tokens on disk: the data directory
    await ann.connect()
    created = await ann.create_table("t", m.TableOptions(players=2), player="Ann", seat=0)
    table = created.table.id
    await bob.join(table, "Bob")
    await bob.ready()
    await ann.ready()
    first: list[Any] = []
    with create_pipe_input() as inp:
        kapp = KupferApp(name="Ann", client=ann, input=inp, output=SizedOutput())
        kapp.sat_down(ann)
        shown = asyncio.create_task(pump(ann, first, kapp))
        try:  # a few takes each; Ann quits once her take is shown and it is Bob's turn
            await play(
                ann,
                bob,
                lambda: bob.view is not None and bob.view.ply >= 3 and bob.view.to_move == 1,
            )
            await until(lambda: kapp.game.table.state_version == ann.state_version)
        finally:
            shown.cancel()
        since = kapp.game.table.state_version
        await ann.close()  # q: the seat stays Ann's, its token on disk
    store = TokenStore()
    assert store.shown(ann.url, table, 0) == since  # kept with the seat's token
    missed = await play(bob, bob, lambda: bob.view is not None and bob.view.to_move == 0)
    assert missed and bob.state_version == missed[-1]

    again = Client(url, name="Ann", protocol=PV)  # started again: the same data directory
    await again.connect()
    second: list[Any] = []
    reading = asyncio.create_task(pump(again, second))
    try:
        await take_seat(again, table, "Ann")  # as ``join --table`` takes the seat back
        await until(lambda: any(isinstance(u, m.ViewMsg) for u in second))
        with create_pipe_input() as inp:
            kapp = KupferApp(name="Ann", client=again, input=inp, output=SizedOutput())
            kapp.sat_down(again)
            said = []
            for u in second:
                kapp.on_update(u)
                if isinstance(u, m.ViewMsg):
                    break
                if isinstance(u, Missed) or said:  # the missed takes show, paced
                    said.append(prompt(kapp))
                    kapp.game.key("enter")  # no decision meanwhile
            log = "\n".join(e.text for e in kapp.game.table.log)
            asks = prompt(kapp)
            # shown, each for a moment: the status line still says what was missed (a
            # small terminal shows no log) until her take
            after = text_of(kapp.status_line(80))
            kapp.game.held_until = 0.0
            kapp.game.key("enter")
            for _ in range(2):  # a card with a symbol asks first (use it? whom?): Enter
                if kapp.game.table.decision is not None:
                    kapp.game.key("enter")
            taken = text_of(kapp.status_line(80))
    finally:
        reading.cancel()
        await again.close()
    assert again.resumed_from == since
    caught = next(u for u in second if isinstance(u, Missed))
    assert caught.since == since and caught.steps == len(missed)
    steps = second[second.index(caught) + 1 :]
    told = [u.state_version for u in steps if isinstance(u, m.EventsMsg)]
    assert told == list(range(since + 1, missed[-1] + 1))
    fresh = next(u for u in steps if not isinstance(u, m.EventsMsg | Status))
    assert isinstance(fresh, m.ViewMsg) and fresh.state_version == missed[-1]
    assert said and all("while you were away" in s.lower() for s in said), said
    assert "While you were away: " in log and "cards taken" not in log, log  # no summary
    assert "Bob" in log.split("While you were away: ")[-1], log
    assert "Your turn" in asks, asks
    assert after.startswith(f"While you were away: {len(missed)} take"), after
    assert taken == "", taken
    assert TokenStore().shown(again.url, table, 0) == missed[-1]  # it showed them
