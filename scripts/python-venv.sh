#!/usr/bin/env bash
# Makes (or reuses) the Python suite's venv and prints its python: a venv over the system site-packages (pytest comes
# from there) under node_modules/.cache/mockllm-python, made again when the interpreter or
# python/tests/requirements-official.txt changes, with pytest-mockllm-server from ./python and, when pip can reach them, the
# official clients. scripts/test-python.sh runs the suite with it; test/compat/mcp-python.test.ts runs the `mcp` client
# with it. Messages go to stderr; stdout is the python's path alone.
# Usage: scripts/python-venv.sh     (PYTHON=python3.12 picks the interpreter; MOCKLLM_PIP_TIMEOUT caps the install, s)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cache="$root/node_modules/.cache/mockllm-python"
python="${PYTHON:-python3}"
requirements="$root/python/tests/requirements-official.txt"

fail() { echo "python-venv: $*" >&2; exit 1; }

command -v "$python" > /dev/null || fail "no $python on PATH: the Python suite needs Python 3.9+ with pytest (apt-get install python3 python3-pytest python3-venv)"
"$python" -c 'import sys; sys.exit(sys.version_info < (3, 9))' || fail "$("$python" -V 2>&1) is too old: the Python suite needs 3.9+"

# One maker at a time (the node and node-runtime vitest projects may ask at once).
mkdir -p "$cache"
if command -v flock > /dev/null; then
  exec 9> "$cache/venv.lock"
  flock 9
fi

key="$( { "$python" -VV; cat "$requirements"; } | cksum | cut -d' ' -f1)"
venv="$cache/venv-$key"
if [[ ! -x "$venv/bin/python" ]]; then
  rm -rf "$cache"/venv-*
  "$python" -m venv --system-site-packages --without-pip "$venv"
  if ! "$venv/bin/python" -m pip --version > /dev/null 2>&1; then
    rm -rf "$venv"
    "$python" -m venv --system-site-packages "$venv" || fail "cannot make a venv with pip (apt-get install python3-venv python3-pip)"
  fi
fi

# pytest-mockllm-server from ./python on every run, with no index and no build dependency (python/_build is a standard-library
# build backend).
# The distribution was called pytest-mockllm before wave 15 (a name PyPI gives another project): a venv made then
# drops it first, so one copy of the plugin's files is installed.
if "$venv/bin/python" -m pip show --disable-pip-version-check pytest-mockllm > /dev/null 2>&1; then
  "$venv/bin/python" -m pip uninstall --quiet --yes --disable-pip-version-check pytest-mockllm >&2
fi
"$venv/bin/python" -m pip install --quiet --no-index --no-deps --no-build-isolation --disable-pip-version-check "$root/python" >&2

# The official clients (python/tests/requirements-official.txt), through pip as this machine configures it (an index,
# a mirror, find-links), once per venv: no retries and a short timeout, so a machine without a reachable index loses
# seconds, not minutes (and tries again an hour later). Without them the tests that need them skip.
ok="$venv/official-clients"
failed="$venv/official-clients-failed"
if [[ ! -f "$ok" ]] && { [[ ! -f "$failed" ]] || [[ -n "$(find "$failed" -mmin +60)" ]]; }; then
  log="$cache/pip-official.log"
  if timeout "${MOCKLLM_PIP_TIMEOUT:-120}" "$venv/bin/python" -m pip install --disable-pip-version-check --retries 0 --timeout 5 \
    --quiet -r "$requirements" > "$log" 2>&1; then
    touch "$ok"
    rm -f "$failed"
  else
    touch "$failed"
  fi
fi
if [[ ! -f "$ok" ]]; then
  echo "python-venv: the official Python clients (openai, anthropic, google-genai, mcp) are not installed: pip could not reach them (see $cache/pip-official.log; retried after an hour, or delete $venv); their tests skip" >&2
fi
echo "$venv/bin/python"
