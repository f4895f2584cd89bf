"""Protocol 1.5's hints: at a table whose options allow them, the seat to move asks for
the expert's take and gets it, weighed from its own view (``shared.analysis.suggest``
of the table's record so far); refused where the options allow none, at a rated table,
off its turn, to a spectator and to an older client; bounded per address."""

from __future__ import annotations

from pathlib import Path

from protocol import messages as m
from server.players.analyses import AnalysisBounds
from shared.analysis import suggest
from shared.record import action_to_dict

from .wsclient import FEW_SAMPLES, WsClient, human_table, serving


async def test_the_seat_to_move_gets_the_experts_take_from_its_own_view(tmp_path: Path) -> None:
    async with serving(tmp_path / "kk.db") as server:
        table, (a, b), _ = await human_table(server.port, minors=(5, 5), seed=77, hints=True)
        state = a.latest_view()
        assert state.view.options.hints  # shown to everyone at the table
        mover, other = (a, b) if state.view.to_move == 0 else (b, a)
        hint = await mover.request("ask_hint")
        assert hint.type == "hint" and hint.state_version == state.state_version
        course = server.lobby.tables[table].course
        assert course.record is not None
        want = suggest(course.record, budget=FEW_SAMPLES.budget)
        assert hint.take == m.RecordActionInfo.model_validate(action_to_dict(want.take))
        assert (hint.value, hint.points, hint.budget) == (want.value, want.points, 4)
        assert hint.take.take in [t.card for t in mover.latest_view().view.takes]
        err = await other.request("ask_hint")
        assert (err.type, err.code) == ("error", "not_your_turn")
        watcher = await WsClient.open(server.port, "w", (1, 5))
        await watcher.request("watch", table=table)
        err = await watcher.request("ask_hint")
        assert err.code == "not_seated"
        for c in (a, b, watcher):
            await c.close()


async def test_no_hint_where_none_is_allowed_nor_for_older_clients(tmp_path: Path) -> None:
    async with serving(tmp_path / "kk.db", rated_allow=frozenset({"seeds"})) as server:
        _, (a, b), _ = await human_table(server.port, minors=(5, 4), seed=5)
        mover = a if a.latest_view().view.to_move == 0 else b
        err = await mover.request("ask_hint")
        if mover is a:
            assert (err.code, err.detail) == ("not_allowed", "hints")
        else:
            assert err.code == "unknown_type"  # a 1.4 connection
        err = await b.request("ask_hint")
        assert err.code == "unknown_type"
        lobby = await WsClient.open(server.port, "x", (1, 5))
        err = await lobby.request("ask_hint")
        assert err.code == "not_seated"
        ann = await WsClient.open(server.port, "ann", (1, 5))
        signed = await ann.request("register", name="Ann", secret="s" * 32)
        assert signed.type == "signed_in"
        made = await ann.request(
            "create_table", name="r", player="Ann", rated=True, options={"hints": True}
        )
        assert (made.type, made.code) == ("error", "bad_options")
        for c in (a, b, lobby, ann):
            await c.close()


async def test_hints_are_bounded_per_address(tmp_path: Path) -> None:
    """One hint a minute from an address (burst 1): the second is refused with a
    ``retry_after``; one the table refused (off its turn) costs nothing."""
    bounds = AnalysisBounds(budget=4, workers=0, hints_per_minute=1, hint_burst=1)
    async with serving(tmp_path / "kk.db", analysis=bounds) as server:
        _, (a, b), _ = await human_table(server.port, minors=(5, 5), hints=True)
        mover, other = (a, b) if a.latest_view().view.to_move == 0 else (b, a)
        assert (await other.request("ask_hint")).code == "not_your_turn"
        assert (await mover.request("ask_hint")).type == "hint"
        err = await mover.request("ask_hint")
        assert err.code == "rate_limited" and err.retry_after >= 1
        for c in (a, b):
            await c.close()
