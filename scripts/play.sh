#!/usr/bin/env bash
# Set up (once) and play a game against the computer on an embedded local server.
# The project is installed into .venv the first time and again only when
# pyproject.toml has changed since (a stamp in .venv remembers it).
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
stamp=.venv/.kk-play-install
want="$(sha256sum pyproject.toml | cut -d' ' -f1)"
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ] \
  && [ "$(cat .venv/.kk-test-install 2>/dev/null)" != "$want" ]; then
  .venv/bin/python -m pip install -q -e . >/dev/null
  echo "$want" >"$stamp"
fi
exec .venv/bin/kupferkessel play "$@"
