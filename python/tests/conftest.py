"""The suite runs against this repo's mockllm: $MOCKLLM_BIN (scripts/test-python.sh sets it), else bin/mockllm.js."""

import os
from pathlib import Path

pytest_plugins = ["pytester"]

REPO = Path(__file__).resolve().parents[2]
os.environ.setdefault("MOCKLLM_BIN", f"node {REPO / 'bin' / 'mockllm.js'}")
