"""Incoming SIP calls from Python: the fixture rings a call bound to the test's session, the project's endpoint
receives `realtime.call.incoming` (signed, `data.call_id` and `sip_headers`), and the backend's accept and reject —
sent as the official clients send them — show in the fixture's `call()`."""

import json
import time
import urllib.request
from typing import Any, Dict, List

from pytest_mockllm_server import MockLLM

from test_webhooks_wire import receiver, signed_by
from wire import openai_headers, post

LINE: Dict[str, Any] = {"name": "py-phone-line", "steps": [{"consume": False, "respond": {"text": "Hello, caller."}}]}


def test_a_rung_call_reaches_the_endpoint_and_the_backend_answers_it(mockllm: MockLLM) -> None:
    mockllm.upload(LINE)
    received: List[Dict[str, Any]] = []
    server = receiver(received)
    try:
        base = f"{mockllm.url}/v1"
        hook = f"http://127.0.0.1:{server.server_address[1]}/calls"
        endpoint = post(f"{base}/webhook_endpoints", {"name": "py-calls", "url": hook, "event_types": ["realtime.call.incoming"]}, openai_headers("sk-test")).json()

        headers = [{"name": "From", "value": "sip:+14155550100@trunk.example.com"}]
        rung = mockllm.ring_call(sip_headers=headers)
        assert (rung["status"], rung["scenario"], rung["session"], rung["endpoints"]) == ("ringing", "py-phone-line", mockllm.session, 1)
        for _ in range(200):
            if received:
                break
            time.sleep(0.025)
        assert len(received) == 1
        assert signed_by(endpoint["signing_secret"], received[0])
        event = json.loads(received[0]["body"])
        assert (event["type"], event["data"]) == ("realtime.call.incoming", {"call_id": rung["call_id"], "sip_headers": headers})

        accepted = post(f"{base}/realtime/calls/{rung['call_id']}/accept", {"type": "realtime", "instructions": "Answer politely."}, openai_headers("sk-test"))
        assert (accepted.status, accepted.body) == (200, b"")
        call = mockllm.call(rung["call_id"])
        assert (call["status"], call["accepted_session"]) == ("accepted", {"instructions": "Answer politely."})

        other = mockllm.ring_call()
        rejected = post(f"{base}/realtime/calls/{other['call_id']}/reject", {"status_code": 486}, openai_headers("sk-test"))
        assert rejected.status == 200
        assert (mockllm.call(other["call_id"])["status"], mockllm.call(other["call_id"])["reject_status_code"]) == ("rejected", 486)
        again = post(f"{base}/realtime/calls/{other['call_id']}/accept", {"type": "realtime"}, openai_headers("sk-test"))
        assert again.status == 400
        assert again.json()["error"]["message"] == f"Call '{other['call_id']}' is rejected: accept needs a call that is ringing."
    finally:
        server.shutdown()
        req = urllib.request.Request(f"{mockllm.url}/v1/webhook_endpoints/{endpoint['id']}", method="DELETE", headers=openai_headers("sk-test"))
        urllib.request.urlopen(req, timeout=30).close()


def test_the_official_client_answers_a_call_and_makes_chatkit_sessions(mockllm: MockLLM) -> None:
    import pytest

    openai = pytest.importorskip("openai", reason="the official `openai` package is not installed")
    client = openai.OpenAI(base_url=f"{mockllm.url}/v1", api_key="sk-test", max_retries=0)
    if not hasattr(getattr(client, "realtime", None), "calls") or not hasattr(client.beta, "chatkit"):
        pytest.skip(f"openai {openai.__version__} has no realtime.calls or beta.chatkit")
    mockllm.upload(LINE)
    call_id = mockllm.ring_call()["call_id"]
    assert client.realtime.calls.accept(call_id, type="realtime", instructions="Answer politely.") is None
    client.realtime.calls.refer(call_id, target_uri="tel:+14155550123")
    client.realtime.calls.hangup(call_id)
    ended = mockllm.call(call_id)
    assert (ended["status"], ended["refer_target_uri"]) == ("ended", "tel:+14155550123")
    with pytest.raises(openai.NotFoundError, match="Call with id 'rtc_nope' not found."):
        client.realtime.calls.hangup("rtc_nope")

    session = client.beta.chatkit.sessions.create(user="device-7", workflow={"id": "wf_py"})
    assert (session.object, session.status, session.max_requests_per_1_minute, session.workflow.id) == ("chatkit.session", "active", 10, "wf_py")
    assert session.client_secret.startswith("ek_")
    assert client.beta.chatkit.sessions.cancel(session.id).status == "cancelled"
    assert list(client.beta.chatkit.threads.list()) == []
