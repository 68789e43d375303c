#!/usr/bin/env bash
# The two commands of the quick start:
#   ./dev.sh app    start the app on its embedded defaults
#   ./dev.sh test   run the whole test suite (lint included)
# Each makes .venv with Python 3.11+ and installs what it needs the first time, or when
# pyproject.toml changes.
set -euo pipefail
cd "$(dirname "$0")"

venv=.venv
python=${PYTHON:-python3}

ensure_venv() {
  if [ ! -x "$venv/bin/python" ]; then
    "$python" -m venv "$venv"
  fi
  local stamp="$venv/.installed" want
  want=$(sha256sum pyproject.toml | cut -d' ' -f1)
  if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    "$venv/bin/python" -m pip install --quiet --upgrade pip
    "$venv/bin/python" -m pip install --quiet -e ".[dev]"
    echo "$want" > "$stamp"
  fi
}

case "${1:-}" in
  app)
    ensure_venv
    shift
    exec "$venv/bin/python" -m streamlit run app.py "$@"
    ;;
  test)
    ensure_venv
    shift
    "$venv/bin/python" -m ruff check .
    "$venv/bin/python" -m ruff format --check .
    exec "$venv/bin/python" -m pytest "$@"
    ;;
  *)
    echo "usage: ./dev.sh app | ./dev.sh test [pytest args]" >&2
    exit 2
    ;;
esac
