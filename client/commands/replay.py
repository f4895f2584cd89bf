"""``kupferkessel replay FILE [--json] [--upto N]``: replay a game record (RULES.md
section 11) and print the whole position and, once the game is over, every score with
its breakdown. ``--analyse`` prints the expert's analysis of every decision instead
(``shared.analysis``; ``--budget``, ``--seat``, ``--seed``). A bad record or argument
prints the reason (naming the field or the action index) to stderr and exits 2; it
never shows a traceback."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from typing import Any, TextIO

from shared.analysis import DEFAULT_BUDGET, Analysis, analyse
from shared.errors import RecordError
from shared.geometry import LINE_IDS, SPACE_LINE
from shared.record import Record, position

from .analysis_text import write_analysis

EXIT_BAD_INPUT = 2
CELL = 14  # the longest card id, "dragon_blood-4"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="a game record (JSON)")
    parser.add_argument("--json", action="store_true", help="print the position as JSON")
    parser.add_argument(
        "--step",
        action="store_true",
        help="step through the game take by take on the board (Left/Right, q: quit)",
    )
    parser.add_argument(
        "--upto",
        metavar="N",
        type=_count,
        default=None,
        help="replay only the first N actions",
    )
    parser.add_argument(
        "--analyse",
        "--analyze",
        action="store_true",
        help="the expert's analysis of every decision, from what its seat knew",
    )
    parser.add_argument(
        "--budget",
        metavar="N",
        type=_positive,
        default=None,
        help=f"with --analyse: sampled deals a decision (default {DEFAULT_BUDGET})",
    )
    parser.add_argument(
        "--seat",
        metavar="N",
        type=_positive,
        default=None,
        help="with --analyse: only the decisions of seat N (from 1)",
    )
    parser.add_argument(
        "--seed", metavar="N", type=int, default=None, help="with --analyse: the seed (0)"
    )


def _count(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        n = -1
    if n < 0:
        raise argparse.ArgumentTypeError(f"must be a whole number >= 0, not {text!r}")
    return n


def _positive(text: str) -> int:
    n = _count(text)
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number >= 1, not {text!r}")
    return n


def _refuse(message: str) -> int:
    print(f"kupferkessel replay: {message}", file=sys.stderr)
    return EXIT_BAD_INPUT


def run(args: argparse.Namespace) -> int:
    tuning = [f for f in ("budget", "seat", "seed") if getattr(args, f) is not None]
    if tuning and not args.analyse:
        return _refuse(f"--{tuning[0]} goes with --analyse")
    if args.analyse and args.step:
        return _refuse("--analyse and --step do not go together")
    try:
        with open(args.file, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        print(f"kupferkessel replay: cannot read {args.file}: {e.strerror}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except UnicodeDecodeError:
        print(f"kupferkessel replay: {args.file}: not a UTF-8 text file", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        record = Record.loads(text)
        game = record.replay(args.upto)
        whole = args.upto is None or args.upto >= len(record.actions)
        if whole:
            record.check_result(game)
    except RecordError as e:
        # e.message starts with e.where: "actions[3]: moss-2 is not in col1"
        print(f"kupferkessel replay: {args.file}: {e.message}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.step:
        return _step(record)
    if args.analyse:
        if args.seat is not None and args.seat > game.players:
            return _refuse(f"--seat {args.seat}: the game has {game.players} seats")
        if not whole:
            record = Record(record.options, record.setup, record.actions[: args.upto])
        return _analyse(args, record)
    pos = position(game, record.result if whole else None)
    pos["colours"] = list(game.options.colours)
    _output(pos if args.json else None, lambda out: write_text(pos, out))
    return 0


def _output(as_json: dict[str, Any] | None, as_text: Callable[[TextIO], None]) -> None:
    """``as_json`` as JSON, or else ``as_text`` written, to standard output; quietly
    if a reader such as ``| head`` stopped reading."""
    try:
        if as_json is not None:
            json.dump(as_json, sys.stdout, indent=1)
            sys.stdout.write("\n")
        else:
            as_text(sys.stdout)
        sys.stdout.flush()
    except BrokenPipeError:  # ``| head`` read enough: no traceback
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())


def _analyse(args: argparse.Namespace, record: Record) -> int:
    """``--analyse``: the analysis as text or JSON; a progress line on a terminal."""
    shown = sys.stderr.isatty()

    def progress(done: int, total: int) -> None:
        sys.stderr.write(f"\ranalysing: take {done} of {total}")
        if done == total:
            sys.stderr.write("\n")
        sys.stderr.flush()

    analysis: Analysis = analyse(
        record,
        budget=DEFAULT_BUDGET if args.budget is None else args.budget,
        seed=0 if args.seed is None else args.seed,
        seats=None if args.seat is None else (args.seat - 1,),
        progress=progress if shown and record.actions else None,
    )
    as_json = analysis.to_dict() if args.json else None
    _output(as_json, lambda out: write_analysis(analysis, out, args.file))
    return 0


# ----------------------------------------------------------------- plain text


def _name(pos: dict[str, Any], seat: int) -> str:
    """``White (seat 1)``: seats counted from 1, as the terminal client shows them (the
    JSON keeps the protocol's indices, from 0)."""
    return f"{pos['colours'][seat].capitalize()} (seat {seat + 1})"


def write_text(pos: dict[str, Any], out: TextIO) -> None:
    """The position as readable text: grid, pawns, kettles, deck, removed, scores."""
    w = out.write
    w(f"After {pos['ply']} takes: ")
    result = pos.get("result")
    if pos["game_over"]:
        w(f"game over, ended by {_name(pos, pos['ended_by'])}\n\n")
    elif result is not None:
        w(f"game ended early ({ENDING_TEXT[result['ending']]})\n\n")
    else:
        turn = " (extra turn)" if pos["turn_in_row"] == 2 else ""
        w(f"{_name(pos, pos['to_move'])} to move{turn}\n\n")
    corners = {(0, 0), (0, 5), (5, 0), (5, 5)}
    for r, row in enumerate(pos["grid"]):
        cells = [
            ("(corner)" if (r, c) in corners else ".") if card is None else card
            for c, card in enumerate(row)
        ]
        w("  " + " ".join(cell.ljust(CELL) for cell in cells).rstrip() + "\n")
    w("\nPawns:\n")
    for seat, space in enumerate(pos["pawns"]):
        line = SPACE_LINE[space]
        where = "corner" if line < 0 else LINE_IDS[line]
        w(f"  {_name(pos, seat)}: space {space} ({where})\n")
    w("Kettles (bottom first):\n")
    for seat, kettle in enumerate(pos["kettles"]):
        w(f"  {_name(pos, seat)}: {', '.join(kettle)}\n")
    if any(pos["recipes"]):
        w("Recipes:\n")
        for seat, hand in enumerate(pos["recipes"]):
            w(f"  {_name(pos, seat)}: {', '.join(hand) or '-'}\n")
    w(f"Deck ({len(pos['deck'])}, top first): {', '.join(pos['deck']) or '-'}\n")
    w(f"Removed ({len(pos['removed'])}): {', '.join(pos['removed']) or '-'}\n")
    if pos["game_over"] or result is not None:
        for score in pos["scores"]:
            _write_score(pos, score, out)
        if result is not None:
            w(f"\n{result_text(result, lambda s: _name(pos, s))}\n")
        winners = " and ".join(_name(pos, s) for s in pos["winners"]) or "nobody"
        w(f"\nWinner{'s' if len(pos['winners']) > 1 else ''}: {winners}\n")


ENDING_TEXT = {
    "played_out": "played out",
    "resigned": "by resignation",
    "claimed": "claimed by the opponent of an absent player",
    "timed_out": "every person timed out",
    "abandoned": "abandoned: nobody was connected",
}
"""How each ending of ``shared.result.ENDINGS`` reads in text."""


def result_text(result: dict[str, Any], name: Callable[[int], str]) -> str:
    """A result (``GameResult.to_dict``) in a few plain lines."""
    lines = [f"Result: {ENDING_TEXT[result['ending']]}"]
    for label, key in (("resigned", "resigned"), ("timed out", "timed_out")):
        if result[key]:
            lines.append(f"  {label}: {', '.join(name(s) for s in result[key])}")
    if result["replaced"]:
        seats = ", ".join(name(s) for s in result["replaced"])
        lines.append(f"  played by the computer for a while: {seats}")
    if result["claimed_by"] is not None:
        lines.append(f"  claimed by: {name(result['claimed_by'])}")
    order = sorted(range(len(result["places"])), key=lambda s: result["places"][s])
    lines.append(
        "  places: "
        + ", ".join(f"{result['places'][s]}. {name(s)} ({result['totals'][s]})" for s in order)
    )
    return "\n".join(lines)


def _write_score(pos: dict[str, Any], score: dict[str, Any], out: TextIO) -> None:
    w = out.write
    w(f"\nScore of {_name(pos, score['seat'])}: {score['total']}\n")
    for ing in score["ingredients"]:
        values = " ".join(card.rsplit("-", 1)[1] for card in ing["cards"])
        doubled = "x2" if ing["doubled"] else "  "
        bonus = f"+{ing['bonus']}" if ing["bonus"] else ""
        w(
            f"  {ing['ingredient']:<14} {values:<8} {doubled} {ing['points']:>+4}"
            f" {bonus:>3} = {ing['total']:>+4}\n"
        )
    w(f"  value-1 cards: {score['value_ones']}, bonus {score['value_one_bonus']:+d}\n")
    for rec in score["recipes"]:
        state = "met" if rec["met"] else "missed"
        w(f"  recipe {rec['id']}: {state}, {rec['bonus']:+d}\n")
    w(f"  total: {score['total']}\n")


def _step(record: Record) -> int:
    """The move-by-move review of ``record`` in the terminal."""
    from protocol.convert import catalogue

    from ..ui.review import Review, frames_of_record, run_review

    return run_review(Review(frames_of_record(record)), catalogue())
