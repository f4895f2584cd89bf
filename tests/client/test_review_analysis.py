"""The review with the server's analysis (protocol 1.5): a game of a player's history
is analysed on request (``a`` on its review) and each take then says its mark, what it
cost and the expert's card in words, the start each seat's points lost; in English and
in German; a 1.4 server's review offers no analysis."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from prompt_toolkit.input import create_pipe_input

from bench.stored import registered
from client.i18n import _, use
from client.lib import Client
from client.ui.app import KupferApp
from client.ui.render import Cards, seat_label
from client.ui.review import Review, summary, verdict
from protocol import messages as m
from server.app import Server, ServerConfig
from server.store import MemoryStore
from tests.helpers.games import finished_game
from tests.helpers.screens import SizedOutput, draw, whole
from tests.server.wsclient import FEW_SAMPLES


@pytest.fixture
async def analysing() -> AsyncIterator[tuple[Server, str]]:
    """A server that analyses at 4 samples a decision, with one finished public game."""
    srv = Server(ServerConfig(host="127.0.0.1", port=0, analysis=FEW_SAMPLES), MemoryStore())
    await srv.start()
    ids = await registered(srv.store, 2, "rv")
    table = await finished_game(srv.store, ids, 5, private=False)
    yield srv, table
    await srv.stop()


async def _until(what: object, deadline: float = 30) -> None:
    async with asyncio.timeout(deadline):
        while not what():  # type: ignore[operator]
            await asyncio.sleep(0.02)


def _history_game(table: str) -> m.GameSummary:
    return m.GameSummary(
        table=table,
        name="Friday potions",
        finished=1764590400,
        seat=0,
        names=("Ada", "Grace"),
        ending="played_out",
        places=(1, 2),
    )


@pytest.mark.parametrize("lang", ["en", "de"])
async def test_a_game_of_the_history_is_analysed_on_request_beside_each_take(
    analysing: tuple[Server, str], lang: str
) -> None:
    srv, table = analysing
    url = f"ws://127.0.0.1:{srv.port}"
    client = Client(url, name="Ada", persist_tokens=False, protocol=m.PROTOCOL_VERSION)
    await client.connect()
    use(lang)
    try:
        with create_pipe_input() as inp:
            app = KupferApp(name="Ada", client=client, input=inp, output=SizedOutput())
            players = app.players
            players.page, players.player = (
                "profile",
                m.PlayerInfo(name="Ada", since=1, rating=0, mu=25, sigma=8),
            )
            players.games.add([_history_game(table)], None, 1)
            app.key("enter")
            await _until(lambda: players.review is not None)
            review = players.review
            assert review is not None and review.analysis is None
            whole(_("a: the expert's analysis"), draw(app, 100, 40))
            app.key("a")
            await _until(lambda: review.analysis is not None)
            analysis = review.analysis
            assert analysis is not None and analysis.table == table
            assert len(analysis.decisions) == len(review.frames) - 1  # every take
            cards, colours = Cards.of(client.catalogue), review.frames[0].view.colours
            screen = draw(app, 100, 40)
            for s in analysis.seats:  # the start: each seat's summary
                whole(summary(s, colours, review.names), screen)
                assert seat_label(colours, s.seat, review.names) in screen
            costly = max(analysis.decisions, key=lambda d: d.loss)
            best = next(d for d in analysis.decisions if d.loss == 0)
            assert costly.loss > 0
            for d in (best, costly):
                review.index = d.ply + 1  # the step of that take
                screen = draw(app, 100, 40)
                whole(verdict(d, cards), screen)
            whole(cards.name(costly.best.take), screen)  # the expert's card, in words
            app.key("a")  # asked once: nothing more
            assert players.review is review
    finally:
        use("en")
        await client.close()


async def test_a_review_says_the_mark_the_loss_and_the_experts_card() -> None:
    """The words of a decision: the expert's choice, or its mark, loss and card."""
    use("en")
    cat = Cards.of(m.Catalogue.model_validate(_catalogue()))
    bad = m.DecisionInfo(
        ply=3,
        seat=1,
        take=m.RecordActionInfo(take="root-1", special=False),
        best=m.RecordActionInfo(take="toad-2"),
        loss=13.3,
        mark="blunder",
    )
    assert verdict(bad, cat) == f"Expert: a blunder, 13.3 points lost; better {cat.name('toad-2')}."
    small = bad.model_copy(update={"loss": 1.0, "mark": None})
    assert verdict(small, cat) == f"Expert: 1.0 points lost; better {cat.name('toad-2')}."
    same = bad.model_copy(update={"loss": 0.0, "mark": None, "best": bad.take})
    assert verdict(same, cat) == "Expert: the best take."
    review = Review([], ())
    assert not review.key("a")  # no way to ask: an unknown key closes it


def _catalogue() -> dict[str, object]:
    from protocol.convert import catalogue

    return catalogue().model_dump()
