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

# The browser tests drive Debian's Chromium. Installed here when missing and we may
# (root with apt-get, as on CI); otherwise those tests skip locally and fail under CI.
ensure_chromium() {
  if command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ]; then
    return
  fi
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing Chromium for the browser tests..." >&2
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "Chromium not installed and cannot install it here: browser tests will skip." >&2
  fi
}

case "${1:-}" in
  app)
    ensure_venv
    shift
    # Chat turns run in a worker process beside the app (application/worker.py), as in a
    # deployment; AEKO_RUNS=page runs them in the app's own process instead.
    export AEKO_RUNS="${AEKO_RUNS:-worker}"
    if [ "$AEKO_RUNS" = "worker" ]; then
      "$venv/bin/python" worker.py &
      worker=$!
      trap 'kill -TERM "$worker" 2>/dev/null; wait "$worker" 2>/dev/null' EXIT
    fi
    "$venv/bin/python" -m streamlit run app.py "$@"
    ;;
  test)
    ensure_venv
    ensure_chromium
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
