"""What a language costs the terminal client (``client.i18n``): its ``.po`` catalogue
read and compiled in memory with Babel when the language is chosen (once a process),
and one message looked up in it, as every drawn screen does a few hundred times.
Prints medians over --repeat runs.

    python bench/catalogues.py
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from client import i18n

MESSAGES = ["Your recipes", "{who} takes {card} from {line}", "q: quit", "Final score"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--calls", type=int, default=20_000)
    args = ap.parse_args()
    for lang in [lang for lang in i18n.LANGUAGES if lang != "en"]:
        compiled, looked_up = [], []
        for _ in range(args.repeat):
            i18n.translations.cache_clear()
            start = time.perf_counter()
            i18n.use(lang)
            compiled.append(time.perf_counter() - start)
            start = time.perf_counter()
            for _ in range(args.calls):
                for message in MESSAGES:
                    i18n._(message)
            looked_up.append((time.perf_counter() - start) / (args.calls * len(MESSAGES)))
        print(
            f"{lang}: read and compiled {statistics.median(compiled) * 1e3:6.1f} ms, "
            f"a message {statistics.median(looked_up) * 1e6:5.2f} us"
        )


if __name__ == "__main__":
    main()
