"""What the name rules cost (``server.players.names``): the key's table read from the
file shipped with the server and built from Unicode's data, and one name's key and
check, as ``register``, ``sign_in`` and each ``join`` pay them. Prints medians over
--repeat runs.

    python bench/names.py
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from server.players import names

NAMES = ["Ada", "Iris Milo", "Иван Петров", "Σωκράτης", "山田 太郎", "Zoë-2 the Great", "Тroll"]


def per_call(fn: object, calls: int) -> float:
    """Microseconds per call of ``fn`` over every name of ``NAMES``."""
    start = time.perf_counter()
    for _ in range(calls):
        for name in NAMES:
            fn(name)  # type: ignore[operator]
    return (time.perf_counter() - start) / (calls * len(NAMES)) * 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--calls", type=int, default=20_000)
    args = ap.parse_args()
    read, built, keyed, checked = [], [], [], []
    for _ in range(args.repeat):
        names.key_table.cache_clear()
        start = time.perf_counter()
        names.key_table()
        read.append(time.perf_counter() - start)
        start = time.perf_counter()
        names.build_key_table()
        built.append(time.perf_counter() - start)
        keyed.append(per_call(names.name_key, args.calls))
        checked.append(per_call(names.name_refusal, args.calls))
    print(f"key table read from {names.TABLE_FILE}: {statistics.median(read) * 1e3:8.1f} ms")
    print(f"key table built from Unicode's data: {statistics.median(built) * 1e3:8.1f} ms")
    print(f"name_key of one name:                {statistics.median(keyed):8.2f} us")
    print(f"name_refusal of one name:            {statistics.median(checked):8.2f} us")


if __name__ == "__main__":
    main()
