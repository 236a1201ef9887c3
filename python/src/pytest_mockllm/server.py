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


def resolve_command(configured: Optional[str]) -> List[str]:
    """The command that runs `mockllm`: $MOCKLLM_BIN, else the `mockllm_bin` ini option, else `mockllm` on PATH,
    else `npx --no mockllm` (a local install only: npx never downloads here)."""
    for text in (os.environ.get("MOCKLLM_BIN"), configured):
        if text and text.strip():
            return shlex.split(text)
    found = shutil.which("mockllm")
    if found:
        return [found]
    npx = shutil.which("npx")
    if npx:
        return [npx, "--no", "mockllm"]
    raise MockLLMError(
        "mockllm: no way to run mockllm: set MOCKLLM_BIN (e.g. MOCKLLM_BIN='npx mockllm'), set mockllm_bin in the "
        "pytest configuration, install it (npm install mockllm), or pass --mockllm-url to use a running one"
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
