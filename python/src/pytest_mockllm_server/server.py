"""Starts `mockllm serve --port 0` as a subprocess, reads its ready banner, and stops it."""

from __future__ import annotations

import os
import re
import secrets
import shlex
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import List, Optional, Sequence

from .admin import MockLLMError

# "mockllm is ready on http://127.0.0.1:41234 (Node runtime)" and "  admin token        mockllm-…"
_READY = re.compile(r"mockllm is ready on (https?://\S+)")
_TOKEN = re.compile(r"^\s*admin token\s+(\S+)", re.MULTILINE)


def resolve_command(configured: Optional[str], option: Optional[str] = None, cwd: Optional[Path] = None) -> List[str]:
    """The command that runs `mockllm`: ``--mockllm-bin``, else $MOCKLLM_BIN, else the `mockllm_bin` ini option (each
    split as a shell would), else the current environment's `mockllm`: `node_modules/.bin/mockllm` in the working
    directory or one of its parents, `mockllm` on PATH, then `node_modules/.bin/mockllm` in a subdirectory or a sibling
    directory (a repo whose JavaScript lives beside its Python)."""
    for text in (option, os.environ.get("MOCKLLM_BIN"), configured):
        if text and text.strip():
            return shlex.split(text)
    here = (cwd or Path.cwd()).resolve()
    name = "mockllm.cmd" if os.name == "nt" else "mockllm"
    for directory in (here, *here.parents):
        candidate = directory / "node_modules" / ".bin" / name
        if candidate.is_file():
            return [str(candidate)]
    found = shutil.which("mockllm")
    if found:
        return [found]
    for directory in (here, here.parent):
        for candidate in sorted(directory.glob(f"*/node_modules/.bin/{name}")):
            if candidate.is_file():
                return [str(candidate)]
    raise MockLLMError(
        f"mockllm: cannot find the mockllm command: no node_modules/.bin/mockllm in {here} or its parents, none in a "
        "subdirectory or a sibling directory, and no mockllm on PATH. Add mockllm to the project (npm install "
        "--save-dev from a packed tarball, a path or a git URL: see the mockllm README, \"Add it to your project\"), "
        "or say how to run it: set MOCKLLM_BIN (e.g. MOCKLLM_BIN='node /path/to/mockllm/bin/mockllm.js'), pass "
        "--mockllm-bin '<command>', or set mockllm_bin in the pytest configuration; or pass --mockllm-url (and "
        "--mockllm-key) to use a running server"
    )


class ServerProcess:
    """A `mockllm serve` child process whose stdout and stderr go to a log file."""

    def __init__(
        self, command: Sequence[str], scenario_files: Sequence[str] = (), timeout: float = 60.0, extra_args: Sequence[str] = ()
    ) -> None:
        self.command = list(command)
        self.token = f"mockllm-{secrets.token_hex(12)}"
        self._dir = tempfile.mkdtemp(prefix="pytest-mockllm-")
        self.log_path = Path(self._dir) / "server.log"
        args = [*self.command, "serve", "--port", "0", "--admin-token", self.token, "--log-requests"]
        for f in scenario_files:
            args += ["--scenarios", f]
        args += list(extra_args)
        env = dict(os.environ)
        env.setdefault("DEFAULT_WORDS_PER_SECOND", "0")  # the default responder answers without pacing delays
        self._log = open(self.log_path, "wb")
        try:
            self._proc = subprocess.Popen(
                args, stdin=subprocess.DEVNULL, stdout=self._log, stderr=subprocess.STDOUT, env=env,
                start_new_session=hasattr(os, "killpg"),
            )
        except OSError as err:
            self._log.close()
            raise MockLLMError(f"mockllm: cannot run {shlex.join(args)}: {err}") from None
        self.url = self._wait_ready(timeout)

    def log_size(self) -> int:
        return self.log_path.stat().st_size if self.log_path.exists() else 0

    def log_since(self, offset: int) -> str:
        with open(self.log_path, "rb") as f:
            f.seek(offset)
            return f.read().decode("utf-8", "replace")

    def _wait_ready(self, timeout: float) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            text = self.log_since(0)
            found = _READY.search(text)
            if found:
                url = found.group(1).rstrip("/")
                token = _TOKEN.search(text)
                if token:
                    self.token = token.group(1)
                _wait_healthy(url, deadline)
                return url
            if self._proc.poll() is not None:
                self.stop()
                raise MockLLMError(f"mockllm: `{shlex.join(self.command)} serve` exited ({self._proc.returncode}):\n{text}")
            time.sleep(0.05)
        self.stop()
        raise MockLLMError(f"mockllm: `{shlex.join(self.command)} serve` not ready after {timeout:.0f} s:\n{self.log_since(0)}")

    def stop(self) -> None:
        """SIGTERM (the server ends open streams and exits), SIGKILL after 10 s; safe to call twice."""
        if self._proc.poll() is None:
            self._signal(signal.SIGTERM)
            try:
                self._proc.wait(10)
            except subprocess.TimeoutExpired:
                self._signal(signal.SIGKILL)
                self._proc.wait()
        self._log.close()

    def _signal(self, sig: int) -> None:
        try:
            if hasattr(os, "killpg"):
                os.killpg(self._proc.pid, sig)  # its own process group: npx and the node it runs
            else:
                self._proc.send_signal(sig)
        except ProcessLookupError:
            pass


def _wait_healthy(url: str, deadline: float) -> None:
    while True:
        try:
            with urllib.request.urlopen(f"{url}/healthz", timeout=5) as res:
                if res.status == 200:
                    return
        except OSError:
            pass
        if time.monotonic() > deadline:
            raise MockLLMError(f"mockllm: {url}/healthz does not answer")
        time.sleep(0.05)
