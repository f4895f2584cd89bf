"""A profile by CPU time for the servers of ``bench/load.py``: the main thread's Python
stack sampled each time the process has spent another slice of CPU time.

cProfile (``--only profile``) charges every call its own overhead, so a path of many
small calls looks dearer than it is; a wall-clock sampler (py-spy) counts the time a
process waits for a core as its own, and on a machine busy with the load clients the
relay waits far more than it runs. This one counts CPU only: ``ITIMER_PROF`` raises
``SIGPROF`` after each ``interval`` of the process's CPU time (user and kernel), and
the handler, which Python runs in the main thread, records the stack it interrupted.
Time in C code and in system calls is charged to the Python function that called it.

The kernel raises the signal on its own clock ticks, so fewer samples come than the
interval asks for: each sample is weighed by the CPU time the process really spent
while sampling, divided by the samples taken. Python runs the handler at its next
check between bytecodes, so CPU spent in C or in the kernel is charged to the frame
running then: to the caller, or to the first function called after a system call
returns (a small function right after a socket read or write looks dearer than it
is). What a function and its callees cost together (``inclusive``) is the firmer
figure. The samples are of the main thread, so
CPU spent by other threads is charged to wherever the main thread was; profile the
in-memory store, whose server runs on the main thread alone.

``install(path)`` makes ``SIGUSR1`` start sampling and ``SIGUSR2`` stop it and write
the stacks to ``path`` (one line each: the frames from the outermost, ``;``-joined,
then its samples) with a first line ``# cpu SECONDS``: the CPU time sampled.
"""

from __future__ import annotations

import os
import signal
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType

__all__ = ["Profile", "install", "read"]


class _Sampler:
    def __init__(self, path: Path, interval: float) -> None:
        self.path, self.interval = path, interval
        self.stacks: Counter[str] = Counter()
        self.cpu0 = 0.0
        self.names: dict[object, str] = {}  # code object -> its frame's name

    def _name(self, frame: FrameType) -> str:
        code = frame.f_code
        name = self.names.get(code)
        if name is None:
            where = os.path.basename(code.co_filename)
            name = self.names[code] = f"{code.co_qualname} ({where})"
        return name

    def sample(self, signum: int, frame: FrameType | None) -> None:
        names = []
        while frame is not None:
            names.append(self._name(frame))
            frame = frame.f_back
        self.stacks[";".join(reversed(names))] += 1

    def start(self, signum: int, frame: FrameType | None) -> None:
        self.stacks.clear()
        self.cpu0 = time.process_time()
        signal.setitimer(signal.ITIMER_PROF, self.interval, self.interval)

    def stop(self, signum: int, frame: FrameType | None) -> None:
        signal.setitimer(signal.ITIMER_PROF, 0, 0)
        cpu = time.process_time() - self.cpu0
        lines = [f"# cpu {cpu:.6f}"] + [f"{k} {v}" for k, v in self.stacks.items()]
        self.path.write_text("\n".join(lines) + "\n")


def install(path: str | Path, interval: float = 0.001) -> None:
    """Sample from ``SIGUSR1`` to ``SIGUSR2`` and then write the stacks to ``path``."""
    sampler = _Sampler(Path(path), interval)
    signal.signal(signal.SIGPROF, sampler.sample)
    signal.signal(signal.SIGUSR1, sampler.start)
    signal.signal(signal.SIGUSR2, sampler.stop)


@dataclass
class Profile:
    """Sampled stacks as CPU seconds: ``own[f]`` spent in ``f`` itself (and the C code
    and system calls it made), ``inclusive[f]`` in ``f`` and what it called."""

    cpu: float
    samples: int
    own: Counter[str] = field(default_factory=Counter)
    inclusive: Counter[str] = field(default_factory=Counter)


def read(path: str | Path) -> Profile:
    """The profile ``install`` wrote to ``path``, its samples weighed in CPU seconds."""
    head, *lines = Path(path).read_text().splitlines()
    cpu = float(head.split()[-1])
    counts = []
    for line in lines:
        stack, _, n = line.rpartition(" ")
        counts.append((stack.split(";"), int(n)))
    samples = sum(n for _, n in counts)
    profile = Profile(cpu, samples)
    weight = cpu / samples if samples else 0.0
    for frames, n in counts:
        profile.own[frames[-1]] += n * weight
        for name in set(frames):
            profile.inclusive[name] += n * weight
    return profile
