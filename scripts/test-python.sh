#!/usr/bin/env bash
# Runs the Python suite (python/tests): installs pytest-mockllm-server from ./python into a cached venv, without network,
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
# The build goes to a fresh directory that then replaces the old one, and the stamp is a new file: never written
# through, since node_modules may be a hard-linked copy (cp -al) whose files other checkouts share.
stamp="$cache/built"
if [[ ! -f "$stamp" ]] || [[ ! -f "$cache/package.json" ]] || [[ -n "$(find "$root/src" "$root/bin" "$root/package.json" "$root/package-lock.json" "$root/tsconfig.client.json" -newer "$stamp" -type f -print -quit)" ]]; then
  mkdir -p "$cache"
  build="$(mktemp -d "$cache/build.XXXXXX")"
  trap 'rm -rf "$build"' EXIT
  mkdir -p "$build/bin"
  node "$root/bin/build-client.mjs" --out-dir "$build/dist" > /dev/null
  node "$root/bin/build-node.mjs" --out-dir "$build/dist" > /dev/null
  cp "$root/bin/mockllm.js" "$build/bin/mockllm.js"
  cp "$root/package.json" "$build/package.json" # `mockllm --version` reads it (the plugin's header line shows it)
  rm -rf "$cache/dist" "$cache/bin" "$stamp"
  mv "$build/dist" "$cache/dist"
  mv "$build/bin" "$cache/bin"
  mv -f "$build/package.json" "$cache/package.json"
  : > "$stamp"
  rm -rf "$build"
  trap - EXIT
fi

# The venv, with pytest-mockllm-server and (when pip can reach them) the official clients.
venv_python="$(PYTHON="$python" bash "$root/scripts/python-venv.sh")"

export MOCKLLM_BIN="$(printf '%q %q' "$(command -v node)" "$cache/bin/mockllm.js")"
export PYTHONDONTWRITEBYTECODE=1
unset MOCKLLM_URL MOCKLLM_ADMIN_TOKEN # the suite starts its own mock
cd "$root"
exec "$venv_python" -m pytest -p no:cacheprovider -p no:benchmark -q -rs "$@" python/tests
