"""What the browser page costs a phone per move: the renderer's main-thread time.

A real ``kupferkessel serve`` runs on loopback (a child process, ``--no-persist``) and
Debian's Chromium, driven by Playwright (never a downloaded browser), plays a game
against the computer on it as a phone (390 x 844, touch) would, at the page's own
default pace. Per move (your take and the computer's reply, from one decision to the
next: the tap, the answer, the reply shown, every finite animation run to its end, then
``--think`` seconds of looking at the grid), the Chrome DevTools Protocol's
``Performance.getMetrics`` gives the renderer's main-thread time (``TaskDuration``:
script, style, layout, paint and the rest), and of it script, layout and style, and how
many style recalculations and layouts there were. Once at full speed and once with
``Emulation.setCPUThrottlingRate`` 4 (a low-end phone). Prints medians per move, and how
many animations that never end ran at the decisions. Beside the task time (wall-clock
time of the renderer's main-thread tasks, which grows when other programs take the CPU)
it prints the main thread's own CPU time (``ThreadTime``), steadier on a busy machine at
full speed; with throttling Chromium's throttler spends CPU time of its own in that
thread, so compare that column at 1x only. The bench's own probes (its waits in the page,
its taps: some ten DevTools Protocol calls a move) count in the figures too: about 2 ms
of main-thread time a move (4 ms of task time on a busy machine), measured by making
the same calls to a page at rest.

``--before REF`` measures a git ref of this repository as well (its tree exported to a
temporary folder by ``git archive`` and served from there) in the same run, the two
taking turns (``--rounds`` times per rate, a few moves each), so that before and after
meet the same machine, busy or not.

    python bench/web_render.py                        # this checkout
    python bench/web_render.py --before main          # main and this checkout
    python bench/web_render.py --moves 12 --think 2 --reduced-motion

The machine is shared: compare figures of one run. Prints figures, never fails.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the checkout first

from bench.browser import CHROMIUM, CHROMIUM_ARGS
from bench.ports import free_port

ROOT = Path(__file__).resolve().parent.parent
PHONE = {"width": 390, "height": 844}
METRICS = (
    "TaskDuration",
    "ThreadTime",
    "ScriptDuration",
    "LayoutDuration",
    "RecalcStyleDuration",
    "RecalcStyleCount",
    "LayoutCount",
)
MY_TURN = "document.querySelector('.cell.take:not([disabled])') !== null"
CARD = "document.querySelector('.cell.take:not([disabled])')"
ANSWER = "document.querySelector('.options button:not([disabled])')"
DECLINE = f"""([...document.querySelectorAll('.options button:not([disabled])')]
  .find(b => b.textContent.includes('decline')) ?? {ANSWER})"""
LAST_MOVE = "(document.querySelector('.lastmove')?.textContent ?? '')"
OVER = "document.getElementById('end-h') !== null"
# animations still to finish (finite ones running), and those that never end
FINITE_RUNNING = """document.getAnimations().filter(a => a.playState === 'running'
  && a.effect && a.effect.getComputedTiming().endTime !== Infinity)"""
ENDLESS_RUNNING = """document.getAnimations().filter(a => a.playState === 'running'
  && a.effect && a.effect.getComputedTiming().endTime === Infinity)"""


class Serve:
    """``kupferkessel serve`` of the source tree ``tree`` on a free loopback port."""

    def __init__(self, tree: Path) -> None:
        self.tree = tree
        self.log = Path(tempfile.mkstemp(prefix="kk-web-render-", suffix=".log")[1])
        self.proc: subprocess.Popen[bytes] | None = None
        self.url = ""

    def __enter__(self) -> Serve:
        env = {**os.environ, "PYTHONPATH": str(self.tree)}
        for _ in range(5):  # a port another program takes first: another port
            port = free_port()
            with self.log.open("wb") as out:
                self.proc = subprocess.Popen(
                    [
                        sys.executable,
                        "-m",
                        "client.cli",
                        "serve",
                        "--host",
                        "127.0.0.1",
                        "--port",
                        str(port),
                        "--no-persist",
                        # each game is left running when its page closes: the next
                        # one, from the same address, must not be refused for it
                        "--peer-unattended-games",
                        "1000",
                    ],
                    cwd=self.tree,
                    env=env,
                    stdout=subprocess.DEVNULL,
                    stderr=out,
                )
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and self.proc.poll() is None:
                if '"listening"' in self.log.read_text(errors="replace"):
                    self.url = f"http://127.0.0.1:{port}/"
                    return self
                time.sleep(0.05)
            self._stop()
        raise RuntimeError(f"the server of {self.tree} did not start:\n{self.log.read_text()}")

    def _stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def __exit__(self, *exc: object) -> None:
        self._stop()
        self.log.unlink(missing_ok=True)


@contextlib.contextmanager
def exported(ref: str) -> Iterator[Path]:
    """The tree of ``ref`` (the whole repository at it) in a temporary folder."""
    folder = Path(tempfile.mkdtemp(prefix="kk-web-render-tree-"))
    try:
        archive = subprocess.run(
            ["git", "archive", "--format=tar", ref], cwd=ROOT, check=True, capture_output=True
        )
        subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def until(page: Any, js: str, timeout: float = 60.0) -> None:
    """Wait until ``js`` is true in the page: checked once and then on each change of
    the page's DOM, in the page (no polling, which would cost the renderer time of its
    own and count in the figures)."""
    ok = page.evaluate(
        f"""() => new Promise(resolve => {{
          const ok = () => ({js});
          if (ok()) return resolve(true);
          const seen = new MutationObserver(() => {{
            if (ok()) {{ seen.disconnect(); clearTimeout(late); resolve(true); }}
          }});
          const late = setTimeout(() => {{ seen.disconnect(); resolve(ok()); }}, {timeout * 1000});
          seen.observe(document, {{subtree: true, childList: true, attributes: true,
                                   characterData: true}});
        }})"""
    )
    if not ok:
        raise RuntimeError(f"never true: {js}")


def settle(page: Any) -> int:
    """Wait until every finite animation has run to its end; the number of animations
    that never end, running then."""
    for _ in range(20):  # an animation's end may start another
        if page.evaluate(
            f"() => Promise.all({FINITE_RUNNING}.map(a => a.finished"
            ".catch(() => null))).then(r => r.length === 0)"
        ):
            break
    return int(page.evaluate(f"() => {ENDLESS_RUNNING}.length"))


def tap(page: Any, element: str) -> None:
    """A finger's tap on the element ``element`` (an expression): scrolled into view,
    then touched at its middle."""
    box = page.evaluate(
        f"""() => {{ const el = {element};
          el.scrollIntoView({{block: 'nearest'}});
          const r = el.getBoundingClientRect();
          return [r.left + r.width / 2, r.top + r.height / 2]; }}"""
    )
    page.touchscreen.tap(*box)


def new_game(page: Any, url: str, seed: int) -> None:
    """Ann at a new table against the computer, dealt by ``seed``."""
    page.goto(url)
    page.wait_for_selector("#tables")
    page.fill("#player-name", "Ann")
    page.click("#new-table")
    page.wait_for_selector("#create-go")  # the form is loaded on demand
    page.fill("#opt-seed", str(seed))  # the same deal for every tree
    page.click("#create-go")
    page.wait_for_selector("#board")


def take(page: Any) -> None:
    """Ann's take at her decision: a card tapped, then its answer, and the take shown."""
    said = page.evaluate(f"() => {LAST_MOVE}")
    tap(page, CARD)
    until(page, f"{ANSWER} !== null")
    # a wand's extra turn would make two takes one move: decline it
    tap(page, DECLINE)
    # the take is shown (the reply may follow at once: a corner stop)
    until(page, f"{LAST_MOVE} !== {json.dumps(said)} || {OVER}")


def metrics(cdp: Any) -> dict[str, float]:
    got = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    return {k: float(got.get(k, 0.0)) for k in METRICS}


def play(
    browser: Any, url: str, moves: int, rate: float, think: float, reduced: bool, seed: int
) -> tuple[list[dict[str, float]], int]:
    """``moves`` measured moves (games against the computer, a new one when one ends);
    the per-move metric deltas and the most animations that never end seen running."""
    measured: list[dict[str, float]] = []
    endless = 0
    while len(measured) < moves:
        ctx = browser.new_context(
            viewport=PHONE,
            has_touch=True,
            is_mobile=True,
            reduced_motion="reduce" if reduced else "no-preference",
        )
        try:
            page = ctx.new_page()
            cdp = ctx.new_cdp_session(page)
            cdp.send("Performance.enable")
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
            new_game(page, url, seed)
            before: dict[str, float] | None = None  # at the decision before
            while len(measured) < moves:
                until(page, f"{MY_TURN} || {OVER}")
                if page.evaluate(f"() => {OVER}"):
                    break
                endless = max(endless, settle(page))
                time.sleep(think)  # the person looks at the grid
                now = metrics(cdp)
                if before is not None:
                    measured.append({k: now[k] - before[k] for k in METRICS})
                before = now
                take(page)
        finally:
            ctx.close()
    return measured, endless


def median(rows: list[dict[str, float]], key: str) -> float:
    return statistics.median(r[key] for r in rows)


def report(label: str, rate: float, rows: list[dict[str, float]], endless: int) -> None:
    ms: Callable[[str], str] = lambda k: f"{median(rows, k) * 1000:7.1f}"  # noqa: E731
    print(
        f"{label:>10} {rate:>4.0f}x {len(rows):>5} {ms('TaskDuration')} {ms('ThreadTime')}"
        f" {ms('ScriptDuration')}"
        f" {ms('LayoutDuration')} {ms('RecalcStyleDuration')}"
        f" {median(rows, 'RecalcStyleCount'):>7.0f} {median(rows, 'LayoutCount'):>7.0f}"
        f" {endless:>7}",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--before", help="a git ref to measure too (e.g. main)")
    parser.add_argument("--moves", type=int, default=10, help="moves measured per row")
    parser.add_argument("--think", type=float, default=1.0, help="seconds at each decision")
    parser.add_argument("--rates", default="1,4", help="CPU throttling rates to measure")
    parser.add_argument("--reduced-motion", action="store_true", help="as a reduce-motion system")
    parser.add_argument("--seed", type=int, default=1, help="the deal of every game")
    parser.add_argument("--rounds", type=int, default=3, help="turns the trees take per rate")
    parser.add_argument("--json", action="store_true", help="also print the rows as JSON")
    args = parser.parse_args()
    if not Path(CHROMIUM).exists():
        sys.exit(f"no Chromium at {CHROMIUM} (Debian: apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    rates = [float(r) for r in args.rates.split(",")]
    with contextlib.ExitStack() as stack:
        trees: list[tuple[str, Path]] = []
        if args.before:
            trees.append((args.before, stack.enter_context(exported(args.before))))
        trees.append(("this", ROOT))
        servers = [(label, stack.enter_context(Serve(tree))) for label, tree in trees]
        p = stack.enter_context(sync_playwright())
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        stack.callback(browser.close)
        print(
            f"renderer main-thread time per move (your take and the reply), medians;"
            f" phone {PHONE['width']}x{PHONE['height']}, think {args.think} s"
            + (", reduced motion" if args.reduced_motion else "")
        )
        print(
            f"{'tree':>10} {'cpu':>5} {'moves':>5} {'task ms':>7} {'on cpu':>7} {'script':>7}"
            f" {'layout':>7}"
            f" {'style':>7} {'recalcs':>7} {'layouts':>7} {'endless':>7}"
        )
        out = []
        for rate in rates:
            # the trees take turns, a few moves each, so that a machine busier for a
            # while weighs on both alike
            rows: dict[str, list[dict[str, float]]] = {label: [] for label, _ in servers}
            endless = dict.fromkeys(rows, 0)
            turns = max(1, min(args.rounds, args.moves))
            for k in range(turns):
                chunk = args.moves * (k + 1) // turns - args.moves * k // turns
                for label, serve in servers:
                    got, most = play(
                        browser, serve.url, chunk, rate, args.think, args.reduced_motion, args.seed
                    )
                    rows[label] += got
                    endless[label] = max(endless[label], most)
            for label, _ in servers:
                report(label, rate, rows[label], endless[label])
                out.append(
                    {"tree": label, "rate": rate, "endless": endless[label], "moves": rows[label]}
                )
        if args.json:
            print(json.dumps(out))


if __name__ == "__main__":
    main()
