"""Where a move's renderer time goes, frame by frame: one traced move of a phone's page.

The page, the server and the moves are those of ``bench/web_render.py`` (a phone playing
against the computer, the CPU slowed ``--rate`` times); after ``--warm`` moves, one move
(from one decision to the next) is recorded with the Chrome DevTools Protocol's tracing
(``devtools.timeline``, through Playwright's ``Browser.start_tracing``). Printed for the
renderer's main thread: how many style recalculations, layouts, paints and commits to
the compositor the move took and their time, the size of each painted layer (the whole
page's layer painted for a change of a few cells shows as the page's height), and each
task over 1 ms with the work in it, from the tap on the card on. Under throttling
Chromium pauses the thread at random points, so a step's time may include a pause:
compare counts and sizes, and times only over several runs.

    python bench/web_trace.py                   # one move at 4x
    python bench/web_trace.py --rate 1 --save trace.json   # also the trace, for DevTools

Prints figures, never fails.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the checkout first

from bench.browser import CHROMIUM, CHROMIUM_ARGS
from bench.web_render import MY_TURN, OVER, PHONE, ROOT, Serve, new_game, settle, take, until

CATEGORIES = [
    "devtools.timeline",
    "disabled-by-default-devtools.timeline",
    "disabled-by-default-devtools.timeline.frame",
]
STEPS = ("UpdateLayoutTree", "Layout", "PrePaint", "Paint", "Layerize", "Commit")


def traced_move(browser: Any, url: str, rate: float, warm: int, think: float) -> list[Any]:
    """The trace events of one move after ``warm`` moves of a new game."""
    ctx = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    try:
        page = ctx.new_page()
        ctx.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": rate})
        new_game(page, url, seed=1)
        for i in range(warm + 2):
            until(page, f"{MY_TURN} || {OVER}")
            if page.evaluate(f"() => {OVER}"):
                sys.exit("the game ended before the traced move: fewer --warm moves")
            settle(page)
            time.sleep(think)
            if i == warm:
                browser.start_tracing(page=page, categories=CATEGORIES)
            elif i == warm + 1:
                trace = json.loads(browser.stop_tracing())
                events: list[Any] = trace["traceEvents"] if isinstance(trace, dict) else trace
                return events
            take(page)
    finally:
        ctx.close()
    raise AssertionError("unreachable")


def report(events: list[Any]) -> None:
    threads = {
        (e["pid"], e["tid"]): e["args"]["name"] for e in events if e.get("name") == "thread_name"
    }
    main = {k for k, name in threads.items() if name == "CrRendererMain"}
    mine = sorted(
        (e for e in events if (e.get("pid"), e.get("tid")) in main and e.get("ph") == "X"),
        key=lambda e: (e["ts"], -e.get("dur", 0)),
    )
    # from the tap on the card on (starting to trace costs a task of its own)
    taps = [e["ts"] for e in mine if e["name"] == "EventDispatch"]
    if not taps:
        print("no tap in the trace of the renderer's main thread")
        return
    t0 = taps[0]
    mine = [e for e in mine if e["ts"] + e.get("dur", 0) >= t0]
    count: Counter[str] = Counter(e["name"] for e in mine)
    spent: Counter[str] = Counter()
    for e in mine:
        spent[e["name"]] += e.get("dur", 0)
    tasks = [e for e in mine if e["name"] == "RunTask"]
    print(f"main-thread tasks: {len(tasks)}, {sum(e.get('dur', 0) for e in tasks) / 1000:.1f} ms")
    for name in (*STEPS, "FunctionCall", "TimerFire", "EventDispatch", "FireAnimationFrame"):
        print(f"  {name:20} {count[name]:4} {spent[name] / 1000:8.1f} ms")
    print("painted layers (width x height at ms):")
    for e in mine:
        clip = e["name"] == "Paint" and e.get("args", {}).get("data", {}).get("clip")
        if clip:
            xs, ys = clip[0::2], clip[1::2]
            print(
                f"  {(e['ts'] - t0) / 1000:8.1f}  {max(xs) - min(xs):.0f} x {max(ys) - min(ys):.0f}"
                f"  {e.get('dur', 0) / 1000:.1f} ms"
            )
    print("tasks over 1 ms (at ms, ms, the work in them over 1 ms):")
    for t in tasks:
        if t.get("dur", 0) < 1000:
            continue
        end = t["ts"] + t["dur"]
        inner = [
            e["name"]
            for e in mine
            if e is not t
            and t["ts"] <= e["ts"] <= end
            and e.get("dur", 0) >= 1000
            and e["name"] != "RunTask"
            and not e["name"].startswith("V8.")
        ]
        print(f"  {(t['ts'] - t0) / 1000:8.1f} {t['dur'] / 1000:6.1f}  {', '.join(inner)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rate", type=float, default=4.0, help="CPU throttling rate")
    parser.add_argument("--warm", type=int, default=2, help="moves played before the traced one")
    parser.add_argument("--think", type=float, default=1.0, help="seconds at each decision")
    parser.add_argument("--save", help="write the trace here too (DevTools opens it)")
    args = parser.parse_args()
    if not Path(CHROMIUM).exists():
        sys.exit(f"no Chromium at {CHROMIUM} (Debian: apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with Serve(ROOT) as serve, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            events = traced_move(browser, serve.url, args.rate, args.warm, args.think)
        finally:
            browser.close()
    if args.save:
        Path(args.save).write_text(json.dumps(events))
    print(
        f"one move (your take and the reply), phone {PHONE['width']}x{PHONE['height']},"
        f" CPU {args.rate:g}x"
    )
    report(events)


if __name__ == "__main__":
    main()
