#!/usr/bin/env bash
# Set up (once) and run the whole test suite: ./scripts/test.sh [pytest args...]
# Creates .venv beside this checkout, installs the project with its test extra from
# pyproject.toml, and runs pytest. Soak tests run a short form unless KK_SOAK=1.
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
.venv/bin/python -m pip install -q --upgrade pip >/dev/null
.venv/bin/python -m pip install -q -e '.[test]'
exec .venv/bin/python -m pytest "$@"
