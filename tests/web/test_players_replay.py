"""The JavaScript library's replay of a game record (``replayRecord``, web/src/lib) held
to the engine: games played by computer players (two and three seats, the recipe
variant, booms, wands, the ending card kept or discarded) replayed in Node from their
records give, after every take, the grid, the kettles, the pawns and the seat to move
that ``shared.game`` gives."""

from __future__ import annotations

import itertools
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from protocol.convert import catalogue
from shared.bots import make_bot, play
from shared.game import Game, Take
from shared.options import Options
from shared.record import Record

pytestmark = pytest.mark.e2e  # runs Node in a process of its own

ASSETS = Path(__file__).resolve().parents[2] / "server" / "webassets"

SCRIPT = """
const [lib] = process.argv.slice(2);
const { replayRecord } = await import(lib);
let raw = "";
for await (const chunk of process.stdin) raw += chunk;
const { catalogue, records } = JSON.parse(raw);
const out = records.map((r) => replayRecord(r, catalogue));
process.stdout.write(JSON.stringify(out));
"""


def frame_of(game: Game) -> dict[str, Any]:
    return {
        "grid": game.grid_ids(),
        "kettles": [game.kettle_ids(s) for s in range(game.options.players)],
        "pawns": list(game.pawns),
        "toMove": None if game.over else game.to_move,
        "over": game.over,
    }


def played(options: Options, discard: bool) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A bot game's record (the last card discarded, if ``discard``) and its frames."""
    record = Record.new(options)
    game = record.start()
    bots = [make_bot("easy", s, seed=s + 7) for s in range(options.players)]
    play(options, bots, game=game, on_take=lambda seat, take: record.actions.append(take))
    if discard:
        last = record.actions[-1]
        record.actions[-1] = Take(last.card, last.special, last.targets, False)
    game = record.start()
    frames = [frame_of(game)]
    for take in record.actions:
        game.apply(take)
        frames.append(frame_of(game))
    raw = record.to_dict()
    raw["options"] = {"players": options.players, "recipes": options.recipes}
    return raw, frames


def test_the_js_replay_gives_the_engines_positions(tmp_path: Path) -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    (lib,) = ASSETS.glob("kupferkessel-client.*.js")
    games = [
        played(Options(players=p, recipes=r, seed=seed), discard=seed % 2 == 1)
        for seed, (p, r) in enumerate([(2, False), (3, False), (2, True), (3, True)] * 3)
    ]
    script = tmp_path / "replay.mjs"
    script.write_text(SCRIPT)
    feed = {
        "catalogue": catalogue().model_dump(mode="json"),
        "records": [raw for raw, _ in games],
    }
    run = subprocess.run(
        [node, str(script), lib.as_uri()],
        input=json.dumps(feed),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    replayed = json.loads(run.stdout)
    booms = wands = 0
    for (raw, frames), js in zip(games, replayed, strict=True):
        assert len(js) == len(frames) == len(raw["actions"]) + 1
        for i, (want, got) in enumerate(zip(frames, js, strict=True)):
            assert {k: got[k] for k in want} == want, f"frame {i} of {raw['options']}"
            booms += bool(got["exploded"])
        wands += sum(
            1
            for a, b in itertools.pairwise(js)
            if b["took"] and a["toMove"] == b["toMove"] and not b["over"]
        )
        assert js[-1]["over"] and js[-1]["took"]["keep"] == raw["actions"][-1].get("keep", True)
    assert booms and wands  # the games used both symbols
