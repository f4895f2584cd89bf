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

from client.i18n import _, ngettext
from shared.analysis import DEFAULT_BUDGET, Analysis, analyse
from shared.errors import RecordError
from shared.record import Record, position

from .analysis_text import write_analysis
from .common import choose_language, lang_argument
from .replay_text import write_text

EXIT_BAD_INPUT = 2


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
    lang_argument(parser)


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
    choose_language(args)
    tuning = [f for f in ("budget", "seat", "seed") if getattr(args, f) is not None]
    if tuning and not args.analyse:
        return _refuse(_("--{option} goes with --analyse").format(option=tuning[0]))
    if args.analyse and args.step:
        return _refuse(_("--analyse and --step do not go together"))
    try:
        with open(args.file, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        return _refuse(_("cannot read {file}: {why}").format(file=args.file, why=e.strerror))
    except UnicodeDecodeError:
        return _refuse(_("{file}: not a UTF-8 text file").format(file=args.file))
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
            said = ngettext(
                "--seat {seat}: the game has {n} seat",
                "--seat {seat}: the game has {n} seats",
                game.players,
            )
            return _refuse(said.format(seat=args.seat, n=game.players))
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
        sys.stderr.write(
            "\r" + _("analysing: take {done} of {total}").format(done=done, total=total)
        )
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


def _step(record: Record) -> int:
    """The move-by-move review of ``record`` in the terminal."""
    from protocol.convert import catalogue

    from ..ui.review import Review, frames_of_record, run_review

    return run_review(Review(frames_of_record(record)), catalogue())
