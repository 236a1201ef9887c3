"""Standard-library clients that send what the official Python SDKs send (paths, headers, bodies, retries), so
the plugin is proven where `openai`, `anthropic` and `google-genai` cannot be installed."""

from __future__ import annotations

import http.client
import json
import time
import urllib.parse
from dataclasses import dataclass, field
from typing import Any, Dict, Iterator, List, Optional, Tuple


@dataclass
class Response:
    status: int
    headers: Dict[str, str]
    body: bytes
    attempts: List[int] = field(default_factory=list)  # the status of every attempt, retries included

    def json(self) -> Any:
        return json.loads(self.body)


def _open(url: str, body: Dict[str, Any], headers: Dict[str, str]) -> http.client.HTTPResponse:
    parts = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=30)
    path = parts.path + (f"?{parts.query}" if parts.query else "")
    conn.request("POST", path, body=json.dumps(body).encode(), headers={"content-type": "application/json", "accept": "application/json", **headers})
    return conn.getresponse()


def post(url: str, body: Dict[str, Any], headers: Dict[str, str], max_retries: int = 0) -> Response:
    """POSTs JSON. With max_retries, retries as the official SDKs do: on 408, 409, 429 and 5xx (unless
    `x-should-retry: false`), after `retry-after-ms` (else `retry-after` seconds), sending `x-stainless-retry-count`."""
    attempts: List[int] = []
    for retry in range(max_retries + 1):
        res = _open(url, body, {**headers, "x-stainless-retry-count": str(retry)})
        data = res.read()
        attempts.append(res.status)
        got = {k.lower(): v for k, v in res.getheaders()}
        if retry < max_retries and _should_retry(res.status, got):
            time.sleep(_retry_delay(got))
            continue
        return Response(res.status, got, data, attempts)
    raise AssertionError("unreachable")


def _should_retry(status: int, headers: Dict[str, str]) -> bool:
    if headers.get("x-should-retry") in ("true", "false"):
        return headers["x-should-retry"] == "true"
    return status in (408, 409, 429) or status >= 500


def _retry_delay(headers: Dict[str, str]) -> float:
    if "retry-after-ms" in headers:
        return float(headers["retry-after-ms"]) / 1000
    if headers.get("retry-after", "").isdigit():
        return float(headers["retry-after"])
    return 0.5


def stream_sse(url: str, body: Dict[str, Any], headers: Dict[str, str]) -> Tuple[int, Dict[str, str], List[Tuple[Optional[str], str]]]:
    """POSTs and reads a `text/event-stream` line by line: the status, headers and each event's (name, data)."""
    res = _open(url, body, {**headers, "accept": "text/event-stream"})
    got = {k.lower(): v for k, v in res.getheaders()}
    return res.status, got, list(_events(res))


def _events(res: http.client.HTTPResponse) -> Iterator[Tuple[Optional[str], str]]:
    name: Optional[str] = None
    data: List[str] = []
    while True:
        raw = res.readline()
        if raw == b"":
            break
        line = raw.decode("utf-8").rstrip("\r\n")
        if line == "":
            if data:
                yield name, "\n".join(data)
            name, data = None, []
        elif line.startswith("event:"):
            name = line[6:].strip()
        elif line.startswith("data:"):
            data.append(line[5:].lstrip(" "))
    if data:
        yield name, "\n".join(data)


def stream_ndjson(url: str, body: Dict[str, Any], headers: Dict[str, str]) -> List[Any]:
    """POSTs and reads newline-delimited JSON (Ollama's stream)."""
    res = _open(url, body, headers)
    assert res.status == 200, res.read()
    return [json.loads(line) for line in res.read().decode().splitlines() if line.strip()]


def openai_headers(api_key: str) -> Dict[str, str]:
    """The headers `openai` (Python) sends on every request."""
    return {
        "authorization": f"Bearer {api_key}",
        "user-agent": "OpenAI/Python 1.99.0",
        "x-stainless-lang": "python",
        "x-stainless-package-version": "1.99.0",
        "x-stainless-runtime": "CPython",
    }


def anthropic_headers(api_key: str) -> Dict[str, str]:
    """The headers `anthropic` (Python) sends on every request."""
    return {"x-api-key": api_key, "anthropic-version": "2023-06-01", "user-agent": "Anthropic/Python 0.60.0", "x-stainless-lang": "python"}


def gemini_headers(api_key: str) -> Dict[str, str]:
    """The headers `google-genai` sends on every request."""
    return {"x-goog-api-key": api_key, "user-agent": "google-genai-sdk/1.30.0 gl-python/3.11", "x-goog-api-client": "google-genai-sdk/1.30.0 gl-python/3.11"}
