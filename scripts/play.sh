#!/usr/bin/env bash
# Set up (once) and play a game against the computer on an embedded local server.
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
.venv/bin/python -m pip install -q -e . >/dev/null
exec .venv/bin/kupferkessel play "$@"
