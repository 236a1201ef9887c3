"""The mockllm admin API over urllib: uploads, journal, verify, reset (README "Admin API")."""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Dict, List, Optional, Sequence


#: ``MockLLMError.code`` of a session read (journal, verify) of a session no request ever reached.
SESSION_NOT_RUN = "session_not_run"


class MockLLMError(Exception):
    """An admin request failed: the server's status and message (and, for an invalid scenario, each issue).

    ``code`` is the server's error code when it sends one: ``"session_not_run"`` for a session that never ran.
    """

    def __init__(self, message: str, status: int = 0, issues: Optional[List[Dict[str, Any]]] = None, code: Optional[str] = None) -> None:
        super().__init__(message)
        self.status = status
        self.issues = issues or []
        self.code = code


MockLLMError.__module__ = "pytest_mockllm_server"


class MockLLMVerifyError(AssertionError):
    """A session did not do what its scenario says; the message is the server's verify summary, then the
    inspector link to the session (``inspector_url``)."""

    def __init__(self, result: Dict[str, Any], inspector_url: Optional[str] = None) -> None:
        summary = str(result.get("summary", "mockllm verify: FAILED"))
        super().__init__(summary if inspector_url is None else f"{summary}\n\ninspector: {inspector_url}")
        self.result = result
        self.inspector_url = inspector_url


MockLLMVerifyError.__module__ = "pytest_mockllm_server"  # tracebacks name the public import


def never_ran(scenario: str, session: str) -> Dict[str, Any]:
    """The verify result of a session no request ever reached (the server answers 404 ``session_not_run``)."""
    summary = (
        f'mockllm verify: FAILED: session "{session}" of scenario "{scenario}" never ran: no request reached '
        f"/s/{scenario}/{session}; is the client pointed at this scenario and session?"
    )
    return {"ok": False, "scenario": scenario, "session": session, "requests": 0, "neverRan": True, "summary": summary}


def _quote(name: str) -> str:
    return urllib.parse.quote(name, safe="")


class AdminClient:
    """Calls one mockllm server's `/admin` routes with its bearer token."""

    def __init__(self, url: str, token: str, timeout: float = 30.0) -> None:
        self.url = url.rstrip("/")
        self.token = token
        self.timeout = timeout

    def request(self, method: str, path: str, body: Any = None) -> Any:
        """Sends one request; answers the parsed JSON (None when empty) or raises MockLLMError."""
        data = None if body is None else json.dumps(body).encode()
        headers = {"authorization": f"Bearer {self.token}", "accept": "application/json"}
        if data is not None:
            headers["content-type"] = "application/json"
        req = urllib.request.Request(f"{self.url}{path}", data=data, method=method, headers=headers)
        label = f"{method} {self.url}{path}"
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as res:
                text = res.read().decode("utf-8")
        except urllib.error.HTTPError as err:
            raise _error_from(err.code, label, err.read().decode("utf-8", "replace")) from None
        except (urllib.error.URLError, OSError) as err:
            reason = getattr(err, "reason", err)
            raise MockLLMError(f"mockllm: {label}: unreachable ({reason})") from None
        return json.loads(text) if text.strip() else None

    def upload(self, doc: Dict[str, Any]) -> Dict[str, Any]:
        name = doc.get("name")
        if not isinstance(name, str) or name == "":
            raise MockLLMError('mockllm: a scenario document needs a "name"')
        return self.request("PUT", f"/admin/scenarios/{_quote(name)}", doc)  # type: ignore[no-any-return]

    def sessions(self, scenario: Optional[str] = None) -> List[Dict[str, Any]]:
        query = "" if scenario is None else f"?scenario={_quote(scenario)}"
        return self.request("GET", f"/admin/sessions{query}")  # type: ignore[no-any-return]

    def journal(self, scenario: str, session: str) -> List[Dict[str, Any]]:
        """The session's journal; raises MockLLMError (``code == "session_not_run"``) for a session that never ran."""
        return self.request("GET", f"{_session_path(scenario, session)}/requests")  # type: ignore[no-any-return]

    def verify(self, scenario: str, session: str, allow_unused: Sequence[str] = ()) -> Dict[str, Any]:
        query = f"?allowUnused={','.join(_quote(s) for s in allow_unused)}" if allow_unused else ""
        return self.request("GET", f"{_session_path(scenario, session)}/verify{query}")  # type: ignore[no-any-return]

    def reset(self, scenario: str, session: str) -> None:
        self.request("POST", f"{_session_path(scenario, session)}/reset")

    def webhooks(self) -> Dict[str, Any]:
        """The project's webhooks: ``endpoints`` (no secrets), ``waiting`` and the last 100 ``deliveries``, newest
        first, each with what the endpoint answered (``status``) or why it did not (``error``)."""
        return self.request("GET", "/admin/webhooks")  # type: ignore[no-any-return]

    def ring_call(
        self, scenario: Optional[str] = None, session: Optional[str] = None, sip_headers: Optional[List[Dict[str, str]]] = None
    ) -> Dict[str, Any]:
        """Rings an incoming SIP call (``POST /admin/realtime/calls``): ``realtime.call.incoming`` goes to the project's
        webhook endpoints; the call's sideband socket plays ``scenario``/``session`` once the backend accepts it.
        Answers the call (``call_id``, ``status``, ``sip_headers``, …) and ``endpoints``, how many got the event."""
        body: Dict[str, Any] = {}
        if scenario is not None:
            body["scenario"] = scenario
        if session is not None:
            body["session"] = session
        if sip_headers is not None:
            body["sip_headers"] = sip_headers
        return self.request("POST", "/admin/realtime/calls", body)  # type: ignore[no-any-return]

    def call(self, call_id: str) -> Dict[str, Any]:
        """Where a rung call stands: ``status`` ringing, accepted, rejected, referred or ended, with what the backend
        sent (``accepted_session``, ``reject_status_code``, ``refer_target_uri``)."""
        return self.request("GET", f"/admin/realtime/calls/{_quote(call_id)}")  # type: ignore[no-any-return]

    def inspector_url(self, scenario: Optional[str] = None, session: Optional[str] = None, key: bool = True) -> str:
        """The inspector page (``GET /``) opened on a scenario/session, signed in with this client's token: the key
        rides in the URL fragment (``#scenario=…&session=…&key=…``), which the browser never sends."""
        parts = [("scenario", scenario), ("session", session), ("key", self.token if key else None)]
        fragment = "&".join(f"{name}={_quote(value)}" for name, value in parts if value)
        return f"{self.url}/#{fragment}" if fragment else f"{self.url}/"

    def failure_url(self, scenario: str, session: str) -> str:
        """The link a verify failure prints: with the key for a server on this machine only (a shared server's
        credential never goes into a test log; its link opens the session once the token is typed in)."""
        return self.inspector_url(scenario, session, key=_is_loopback(self.url))


def _is_loopback(url: str) -> bool:
    host = urllib.parse.urlsplit(url).hostname or ""
    return host in ("localhost", "::1") or host.endswith(".localhost") or re.fullmatch(r"127(\.\d{1,3}){3}", host) is not None


def _session_path(scenario: str, session: str) -> str:
    return f"/admin/sessions/{_quote(scenario)}/{_quote(session)}"


def _error_from(status: int, label: str, text: str) -> MockLLMError:
    message = text.strip()[:500]
    code: Optional[str] = None
    issues: List[Dict[str, Any]] = []
    try:
        error = json.loads(text).get("error")
        if isinstance(error, str):
            message = error
        elif isinstance(error, dict):
            message = str(error.get("message", message))
            code = error.get("code") if isinstance(error.get("code"), str) else None
            issues = [i for i in error.get("issues", []) if isinstance(i, dict)]
    except (ValueError, AttributeError):
        pass
    hint = " (is the client pointed at this scenario and session?)" if code == SESSION_NOT_RUN else ""
    lines = [f"mockllm: {label}: {status} {message}{hint}"]
    lines += [f"  {i.get('path', '$')}: {i.get('message', '')}" for i in issues]
    return MockLLMError("\n".join(lines), status, issues, code)
