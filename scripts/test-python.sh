#!/usr/bin/env bash
# Runs the Python suite (python/tests): installs pytest-mockllm from ./python into a cached venv, without network,
# plus the official clients when pip can reach them, and runs pytest against this repo's mockllm, built from the source.
# Usage: scripts/test-python.sh [pytest args...]     (PYTHON=python3.12 picks the interpreter)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cache="$root/node_modules/.cache/mockllm-python"
python="${PYTHON:-python3}"

fail() { echo "test:python: $*" >&2; exit 1; }

command -v "$python" > /dev/null || fail "no $python on PATH: the Python suite needs Python 3.9+ with pytest (apt-get install python3 python3-pytest python3-venv)"
"$python" -c 'import sys; sys.exit(sys.version_info < (3, 9))' || fail "$("$python" -V 2>&1) is too old: the Python suite needs 3.9+"
"$python" -c 'import pytest' 2> /dev/null || fail "$python has no pytest: apt-get install python3-pytest, or pip install pytest"

# The mockllm CLI built from the current source into a private directory (not dist/, which other scripts own),
# rebuilt when a source file is newer than the last build. Its imports resolve through this repo's node_modules.
stamp="$cache/built"
if [[ ! -f "$stamp" ]] || [[ -n "$(find "$root/src" "$root/bin" "$root/package-lock.json" "$root/tsconfig.client.json" -newer "$stamp" -type f -print -quit)" ]]; then
  mkdir -p "$cache/bin"
  node "$root/bin/build-client.mjs" --out-dir "$cache/dist" > /dev/null
  node "$root/bin/build-node.mjs" --out-dir "$cache/dist" > /dev/null
  cp "$root/bin/mockllm.js" "$cache/bin/mockllm.js"
  touch "$stamp"
fi

# A venv over the system site-packages (pytest comes from there), kept between runs and made again when the
# interpreter or python/tests/requirements-official.txt changes. pytest-mockllm is installed from ./python on every run
# with no index and no build dependency (python/_build is a standard-library build backend).
requirements="$root/python/tests/requirements-official.txt"
key="$( { "$python" -VV; cat "$requirements"; } | cksum | cut -d' ' -f1)"
venv="$cache/venv-$key"
if [[ ! -x "$venv/bin/python" ]]; then
  rm -rf "$cache"/venv*
  "$python" -m venv --system-site-packages --without-pip "$venv"
  if ! "$venv/bin/python" -m pip --version > /dev/null 2>&1; then
    rm -rf "$venv"
    "$python" -m venv --system-site-packages "$venv" || fail "cannot make a venv with pip (apt-get install python3-venv python3-pip)"
  fi
fi
"$venv/bin/python" -m pip install --quiet --no-index --no-deps --no-build-isolation --disable-pip-version-check "$root/python"

# The official clients (openai, anthropic with its Bedrock and Vertex extras, google-genai, mcp; python/tests/requirements-official.txt), through pip
# as this machine configures it (an index, a mirror, find-links), once per venv: no retries and a short timeout, so a
# machine without a reachable index loses seconds, not minutes. Without them the tests that need them skip.
official="$venv/official-clients"
if [[ ! -f "$official" ]]; then
  log="$cache/pip-official.log"
  if timeout "${MOCKLLM_PIP_TIMEOUT:-120}" "$venv/bin/python" -m pip install --disable-pip-version-check --retries 0 --timeout 5 \
    --quiet -r "$requirements" > "$log" 2>&1; then
    touch "$official"
  else
    echo "test:python: the official Python clients could not be installed (no reachable package index; see $log): their tests skip" >&2
  fi
fi

export MOCKLLM_BIN="$(printf '%q %q' "$(command -v node)" "$cache/bin/mockllm.js")"
export PYTHONDONTWRITEBYTECODE=1
unset MOCKLLM_URL MOCKLLM_ADMIN_TOKEN # the suite starts its own mock
cd "$root"
exec "$venv/bin/python" -m pytest -p no:cacheprovider -p no:benchmark -q -rs "$@" python/tests
