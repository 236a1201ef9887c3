"""`MockLLM`: what the `mockllm` fixture gives a test — one server, the test's own session name."""

from __future__ import annotations

import json
import os
import re
import secrets
import subprocess
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Sequence, Union

from .admin import SESSION_NOT_RUN, AdminClient, MockLLMError, MockLLMVerifyError, never_ran
from .server import resolve_command

PROVIDERS = ("openai", "anthropic", "gemini", "ollama")
_NAME = re.compile(r"^[a-z0-9][a-z0-9._-]{0,63}$")


def session_name(test_name: str) -> str:
    """A session name unique to one test run: the test's name (as names allow) and 6 random hex digits."""
    base = re.sub(r"[^a-z0-9._-]+", "-", test_name.lower()).strip("-._")[:50] or "test"
    return f"{base}-{secrets.token_hex(3)}"


class MockLLM:
    """One test's handle on mockllm: base URLs and environment for its session, and the admin calls on it.

    ``scenario`` is the marker's ``@pytest.mark.mockllm(scenario="…")``, else the name of the first document
    ``upload()`` stores; every method's ``scenario=None`` means it.
    """

    def __init__(self, url: str, admin: AdminClient, session: str, scenario: Optional[str] = None, api_key: Optional[str] = None,
                 command: Optional[List[str]] = None) -> None:
        self.url = url.rstrip("/")
        self._command = command
        self.admin = admin
        self.session = session
        self.scenario = scenario
        # A namespace key (mk_…) selects its namespace on provider routes too; any other key would only be noise.
        self.api_key = api_key if api_key and api_key.startswith("mk_") else "sk-mockllm-test"
        self.scenarios_used: List[str] = []

    def _scenario(self, scenario: Optional[str]) -> str:
        name = scenario if scenario is not None else self.scenario
        if name is None:
            raise MockLLMError(
                "mockllm: no scenario for this test: pass scenario=…, mark the test "
                '@pytest.mark.mockllm(scenario="…"), or upload() a scenario document first'
            )
        if not _NAME.match(name):
            raise MockLLMError(f'mockllm: invalid scenario name "{name}": names match [a-z0-9][a-z0-9._-]{{0,63}}')
        if name not in self.scenarios_used:
            self.scenarios_used.append(name)
        return name

    def base_url(self, provider: str, scenario: Optional[str] = None) -> str:
        """The base URL to give that provider's SDK: ``{url}/s/{scenario}/{session}``, plus ``/v1`` for OpenAI.

        >>> OpenAI(base_url=mockllm.base_url("openai"), api_key="sk-test")
        """
        if provider not in PROVIDERS:
            raise MockLLMError(f'mockllm: unknown provider "{provider}": one of {", ".join(PROVIDERS)}')
        prefix = f"{self.url}/s/{self._scenario(scenario)}/{self.session}"
        return f"{prefix}/v1" if provider == "openai" else prefix

    def env(self, scenario: Optional[str] = None) -> Dict[str, str]:
        """Environment variables that point the official SDKs (and CLIs built on them) at this session.

        >>> subprocess.run(["my-agent"], env={**os.environ, **mockllm.env()})
        """
        name = self._scenario(scenario)
        root = self.base_url("anthropic", name)
        return {
            "OPENAI_BASE_URL": f"{root}/v1",
            "OPENAI_API_KEY": self.api_key,
            "ANTHROPIC_BASE_URL": root,
            "ANTHROPIC_API_KEY": self.api_key,
            "GOOGLE_GEMINI_BASE_URL": root,
            "GEMINI_API_KEY": self.api_key,
            "GOOGLE_API_KEY": self.api_key,
            "OLLAMA_HOST": root,
            "MOCKLLM_URL": self.url,
            "MOCKLLM_SCENARIO": name,
            "MOCKLLM_SESSION": self.session,
        }

    def env_for(self, cli: str, scenario: Optional[str] = None, *, write: Union[str, "os.PathLike[str]", None] = None,
                key: Optional[str] = None, websocket: bool = False) -> Dict[str, Any]:
        """What an agent CLI (``codex``, ``gemini``, ``opencode``, ``qwen``, ``claude``) needs to talk to this test's
        session, as ``mockllm env`` prints it: ``{"cli", "env", "files"}``. With ``write`` (a folder, e.g. ``tmp_path``)
        the CLI's config files are written there and ``env`` sets HOME (and the CLI's own variable) to it.

        >>> subprocess.run(["gemini", "-p", "fix it", "--yolo"], env={"PATH": os.environ["PATH"],
        ...                **mockllm.env_for("gemini", write=tmp_path)["env"]})
        """
        args = [*(self._command or resolve_command(None)), "env", cli, "--url", self.url, "--scenario",
                self._scenario(scenario), "--session", self.session, "--json"]
        if write is not None:
            args += ["--write", str(write)]
        if key is not None:
            args += ["--key", key]
        if websocket:
            args.append("--websocket")
        run = subprocess.run(args, capture_output=True, text=True, timeout=60)
        if run.returncode != 0:
            raise MockLLMError(f"mockllm: `mockllm env {cli}` failed: {run.stderr.strip()}")
        result: Dict[str, Any] = json.loads(run.stdout)
        return result

    def upload(self, doc_or_path: Union[Mapping[str, Any], str, "os.PathLike[str]"]) -> Dict[str, Any]:
        """Validates and stores a scenario (a dict, or the path of a JSON file); answers ``{"name", "version"}``.

        Raises MockLLMError listing each problem with its JSON path when the document is invalid.
        """
        if isinstance(doc_or_path, Mapping):
            doc = dict(doc_or_path)
        else:
            path = Path(doc_or_path)
            try:
                doc = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError) as err:
                raise MockLLMError(f"mockllm: cannot read scenario file {path}: {err}") from None
        result = self.admin.upload(doc)
        if self.scenario is None:
            self.scenario = str(result.get("name", doc.get("name")))
        return result

    def journal(self, scenario: Optional[str] = None) -> List[Dict[str, Any]]:
        """This session's requests, oldest first: step, outcome, reasons, the request and what was answered.

        Raises MockLLMError (``code == "session_not_run"``) when no request ever reached this session."""
        return self.admin.journal(self._scenario(scenario), self.session)

    def verify(self, scenario: Optional[str] = None, *, allow_unused: Sequence[str] = ()) -> Dict[str, Any]:
        """Answers the verify result when every step was used (but ``allow_unused``), nothing mismatched and no
        scripted failure is left unanswered; else raises MockLLMVerifyError, whose message is the summary and the
        inspector link to the session (for a session no request ever reached: that it never ran)."""
        name = self._scenario(scenario)
        try:
            result = self.admin.verify(name, self.session, allow_unused)
        except MockLLMError as err:
            if err.code != SESSION_NOT_RUN:
                raise
            raise MockLLMVerifyError(never_ran(name, self.session)) from None
        if not result.get("ok"):
            raise MockLLMVerifyError(result, self.admin.failure_url(name, self.session))
        return result

    def webhooks(self) -> Dict[str, Any]:
        """The project's webhooks as the server sees them: endpoints, deliveries waiting, the last attempts (newest
        first) with what each endpoint answered — where to look when a handler under test hears nothing."""
        return self.admin.webhooks()

    def ring_call(self, scenario: Optional[str] = None, *, sip_headers: Optional[List[Dict[str, str]]] = None) -> Dict[str, Any]:
        """Rings an incoming SIP call bound to this test's session: ``realtime.call.incoming`` goes to the project's
        webhook endpoints, and once the backend under test accepts it, its ``/v1/realtime?call_id=…`` socket plays
        the scenario. Answers the call and ``endpoints`` (how many endpoints got the event)."""
        return self.admin.ring_call(self._scenario(scenario), self.session, sip_headers)

    def call(self, call_id: str) -> Dict[str, Any]:
        """Where a rung call stands (``status``, and what the backend accepted, rejected with, or referred to)."""
        return self.admin.call(call_id)

    def inspector_url(self, scenario: Optional[str] = None) -> str:
        """The inspector page on this test's session, signed in (the key rides in the URL fragment)."""
        return self.admin.inspector_url(self._scenario(scenario), self.session)

    def reset(self, scenario: Optional[str] = None) -> None:
        """Forgets this session's usage, attempts and journal; its next request picks up the newest version."""
        self.admin.reset(self._scenario(scenario), self.session)

    def __repr__(self) -> str:
        return f"MockLLM(url={self.url!r}, scenario={self.scenario!r}, session={self.session!r})"
