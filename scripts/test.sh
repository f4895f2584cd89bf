#!/usr/bin/env bash
# Set up (once) and run the whole test suite, as CI does: ./scripts/test.sh [pytest args...]
#   ./scripts/test.sh                    the whole suite
#   ./scripts/test.sh -m "not e2e"       the fast tier: no processes, tmux, PostgreSQL,
#                                        Redis, browsers or soaks
#   ./scripts/test.sh tests/shared -x    any pytest arguments; -n 0 runs in one process
# Creates .venv beside this checkout and installs the project with its test extra from
# pyproject.toml (again whenever pyproject.toml changed), then runs pytest with two
# workers per core (pytest-xdist; KK_TEST_WORKERS=N sets another number): the paced
# terminal, cluster and process tests wait more than they compute. The whole run is
# about 900 CPU seconds (every process it starts counted), half of it tests/web, so
# two cores take at least 7 min 30 s whatever the order. A browser page costs about
# 0.4 CPU s before it loads anything (its tab and renderer; the same in a context kept
# open) and 0.9 once the lobby is drawn; so a test that checks a layout at several
# sizes reads them from one page, resized, not from a new page and game per size
# (tests/web: 465 CPU s before, 434 after, measured side by side).
# tests/conftest.py puts the tests marked `long` first, then the browser tests together
# (a worker starts Chromium once, tests/helpers/chromium.py, and keeps it for all of
# them; once per module it had started it about 120 times a run), then the other
# end-to-end tests, the short ones last; each worker takes the next two tests from
# that one queue whenever it runs short (--dist load --maxschedchunk 2), so the long
# tests are shared out at the start and the workers finish together (--dist worksteal
# handed the first worker the first quarter of the queue, the long tests, to run one
# after another).
# Soak tests run a short form unless KK_SOAK=1.
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
stamp=.venv/.kk-test-install
want="$(sha256sum pyproject.toml | cut -d' ' -f1)"
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  .venv/bin/python -m pip install -q --upgrade pip >/dev/null
  .venv/bin/python -m pip install -q -e '.[test]'
  echo "$want" >"$stamp"
fi
# Byte-compile the project once (only what changed since): with PYTHONDONTWRITEBYTECODE
# set, as on CI machines, every server, node and terminal a test starts would compile
# each module it imports again (about 0.1 s of CPU a process).
.venv/bin/python -m compileall -q -j 0 shared protocol server client bench tests >/dev/null
# pytest rewrites the asserts of each test module it imports and keeps the result in
# __pycache__, but never writes it with PYTHONDONTWRITEBYTECODE set: then each worker
# rewrote every test module again (about 8 s of CPU a worker; the fast tier took 115 s
# instead of 85). So collect once with it unset, the test folders in two halves at once;
# the workers read what that wrote. It takes about 2 s when nothing changed.
prime() { env -u PYTHONDONTWRITEBYTECODE .venv/bin/python -m pytest -q --collect-only \
  -p no:cacheprovider "$@" >/dev/null 2>&1 || true; }
mapfile -t dirs < <(ls -d tests/*/ | grep -v __pycache__)
half=$(( (${#dirs[@]} + 1) / 2 ))
prime "${dirs[@]:0:half}" & prime "${dirs[@]:half}" tests/test_*.py & wait
workers="${KK_TEST_WORKERS:-$((2 * $(nproc)))}"
exec .venv/bin/python -m pytest -n "$workers" --dist load --maxschedchunk 2 "$@"
