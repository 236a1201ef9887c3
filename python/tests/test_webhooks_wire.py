"""OpenAI webhooks on the wire, from Python without the `openai` package: an endpoint made over HTTP, a background
response whose end is POSTed to a receiver on this machine, its Standard Webhooks signature checked with Python's own
`hmac` (what the official clients' `webhooks.unwrap` does), and the fixture's `webhooks()` report of the attempt."""

import base64
import hashlib
import hmac
import json
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any, Dict, List

from pytest_mockllm_server import MockLLM

from wire import openai_headers, post

SLOW: Dict[str, Any] = {"name": "py-webhooks", "async": {"processingMs": 100}, "steps": [{"consume": False, "respond": {"text": "Done."}}]}


def receiver(received: List[Dict[str, Any]]) -> HTTPServer:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 (the http.server API)
            body = self.rfile.read(int(self.headers["content-length"])).decode("utf-8")
            received.append({"headers": {k.lower(): v for k, v in self.headers.items()}, "body": body})
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = HTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def signed_by(secret: str, delivery: Dict[str, Any]) -> bool:
    """Standard Webhooks: HMAC-SHA256 of ``{id}.{timestamp}.{body}`` under the bytes after ``whsec_``."""
    h = delivery["headers"]
    key = base64.b64decode(secret[len("whsec_"):])
    mac = hmac.new(key, f"{h['webhook-id']}.{h['webhook-timestamp']}.{delivery['body']}".encode(), hashlib.sha256).digest()
    expected = "v1," + base64.b64encode(mac).decode()
    return any(hmac.compare_digest(expected, s) for s in h["webhook-signature"].split(" "))


def test_a_background_response_ends_at_the_endpoint_signed(mockllm: MockLLM) -> None:
    mockllm.upload(SLOW)
    received: List[Dict[str, Any]] = []
    server = receiver(received)
    try:
        base = mockllm.base_url("openai", "py-webhooks")
        hook = f"http://127.0.0.1:{server.server_address[1]}/hook"
        made = post(f"{base}/webhook_endpoints", {"name": "py", "url": hook, "event_types": ["response.completed"]}, openai_headers("sk-test"))
        assert made.status == 200, made.body
        endpoint = made.json()
        assert endpoint["signing_secret"].startswith("whsec_")

        started = post(f"{base}/responses", {"model": "gpt-4.1", "input": "Go.", "background": True}, openai_headers("sk-test")).json()
        assert started["status"] == "queued"
        for _ in range(200):
            if received:
                break
            time.sleep(0.025)
        assert len(received) == 1
        delivery = received[0]
        assert signed_by(endpoint["signing_secret"], delivery)
        assert not signed_by("whsec_" + base64.b64encode(b"x" * 32).decode(), delivery)
        assert delivery["headers"]["user-agent"] == "OpenAI/1.0 (+https://platform.openai.com/docs/webhooks)"
        event = json.loads(delivery["body"])
        assert list(event) == ["object", "id", "type", "created_at", "data"]
        assert (event["type"], event["data"]) == ("response.completed", {"id": started["id"]})

        # The server is shared by the session's tests (one project): this endpoint's attempts and entry are its own.
        for _ in range(200):
            report = mockllm.webhooks()
            mine = [d for d in report["deliveries"] if d["endpoint"] == endpoint["id"]]
            if mine:
                break
            time.sleep(0.025)
        assert [(d["type"], d["endpoint"], d["status"], d["retry"]) for d in mine] == [("response.completed", endpoint["id"], 204, False)]
        listed = [e for e in report["endpoints"] if e["id"] == endpoint["id"]]
        assert len(listed) == 1
        assert "signing_secret" not in listed[0]

        req = urllib.request.Request(f"{base}/webhook_endpoints/{endpoint['id']}", method="DELETE", headers=openai_headers("sk-test"))
        with urllib.request.urlopen(req, timeout=30) as res:
            assert json.loads(res.read()) == {"id": endpoint["id"], "object": "webhook_endpoint.deleted", "deleted": True}
    finally:
        server.shutdown()


def test_the_official_client_makes_endpoints_and_unwraps_what_they_receive(mockllm: MockLLM) -> None:
    import pytest

    openai = pytest.importorskip("openai", reason="the official `openai` package is not installed")
    client = openai.OpenAI(base_url=f"{mockllm.url}/v1", api_key="sk-test", max_retries=0)
    if not hasattr(getattr(client, "webhooks", None), "create"):
        pytest.skip(f"openai {openai.__version__} has no webhook endpoints API")
    received: List[Dict[str, Any]] = []
    server = receiver(received)
    try:
        hook = f"http://127.0.0.1:{server.server_address[1]}/official"
        endpoint = client.webhooks.create(name="official", url=hook, event_types=["batch.completed"])
        result = client.webhooks.test(endpoint.id, event_type="eval.run.succeeded")
        assert (result.object, result.webhook_endpoint_id, result.status_code, result.success) == ("webhook_endpoint.test", endpoint.id, 204, True)
        assert len(received) == 1
        event = client.webhooks.unwrap(received[0]["body"], received[0]["headers"], secret=endpoint.signing_secret)
        assert event.type == "eval.run.succeeded"
        assert event.data.id.startswith("evalrun_")
        with pytest.raises(Exception, match="signature"):
            client.webhooks.unwrap(received[0]["body"], received[0]["headers"], secret="whsec_" + base64.b64encode(b"y" * 32).decode())
        assert client.webhooks.retrieve(endpoint.id).name == "official"
        client.webhooks.delete(endpoint.id)
    finally:
        server.shutdown()
