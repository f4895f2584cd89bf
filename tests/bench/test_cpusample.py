"""The CPU-time sampler of ``bench/load.py --only sample`` (``bench/_cpusample.py``):
started and stopped by signals, it charges the CPU spent to the functions that spent
it, and a tiny run of the bench prints the relay's and our server's figures."""

from __future__ import annotations

import os
import re
import signal
import time
from pathlib import Path

import pytest

from bench import _cpusample

from .runner import run_bench


def _spin(seconds: float) -> int:
    """Spend ``seconds`` of CPU time in this very function."""
    end, n = time.process_time() + seconds, 0
    while time.process_time() < end:
        n += 1
    return n


def test_the_cpu_goes_to_the_function_that_spent_it(tmp_path: Path) -> None:
    out = tmp_path / "samples"
    old = {s: signal.getsignal(s) for s in (signal.SIGPROF, signal.SIGUSR1, signal.SIGUSR2)}
    try:
        _cpusample.install(out)
        os.kill(os.getpid(), signal.SIGUSR1)
        time.sleep(0.2)  # asleep: no CPU, no samples
        _spin(0.5)
        os.kill(os.getpid(), signal.SIGUSR2)
    finally:
        for s, handler in old.items():
            signal.signal(s, handler)
    profile = _cpusample.read(out)
    assert profile.samples > 10
    assert 0.45 <= profile.cpu <= 1.0  # the spin, and little else
    name = next(n for n in profile.own if n.startswith("_spin "))
    assert profile.own[name] >= 0.8 * profile.cpu  # the spin's own time, in CPU seconds
    # sums of the same floats added in another order: equal up to rounding
    assert profile.own[name] <= profile.inclusive[name] + 1e-9
    assert profile.inclusive[name] <= profile.cpu + 1e-9
    assert sum(profile.own.values()) == pytest.approx(profile.cpu)


@pytest.mark.e2e
def test_a_small_sampled_run() -> None:
    out = run_bench(
        "load.py",
        "--only=sample",
        "--tables=3",
        "--procs=1",
        "--seconds=2",
        "--warmup=0.5",
        "--clients=1.1",
        "--profile-top=10",
        timeout=120,
    )
    for target in ("relay", "memory"):
        line = rf"{target}: \d+ intents/s, [0-9.]+ us per intent sampled \(\d+ samples\)"
        assert re.search(line, out), out
    assert "own time, us per intent:" in out
    assert re.search(r"^ +[0-9.]+ +[0-9.]+  \S", out, re.M), out  # both
    assert re.search(r"^ +[0-9.]+  Session\.run \(session\.py\)$", out, re.M)
