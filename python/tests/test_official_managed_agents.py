"""Claude Managed Agents through the official ``anthropic`` Python client (``client.beta.agents``, ``environments``,
``sessions`` and their events) against the mock the pytest-mockllm fixture starts (the Node runtime): a session whose
agent the script plays, its event stream opened before the send, a custom tool's ``requires_action`` answered with
``user.custom_tool_result``, and each model request journaled as a Messages turn of the fixture's session.
scripts/test-python.sh installs the client when pip can reach it; the test skips otherwise."""

from typing import Any, Dict, List

import pytest
from pytest_mockllm_server import MockLLM

WEATHER: Dict[str, Any] = {
    "name": "py-managed-agent",
    "steps": [
        {"id": "call", "match": {"turn": 1}, "respond": {"toolCalls": [{"name": "get_weather", "arguments": {"city": "Oslo"}}], "usage": {"inputTokens": 20, "outputTokens": 5}}},
        {"id": "answer", "match": {"toolResult": {"name": "get_weather"}}, "respond": {"text": "Oslo is cold.", "usage": {"inputTokens": 30, "outputTokens": 4}}},
    ],
}

TOOL = {"type": "custom", "name": "get_weather", "description": "Weather of a city", "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}}}


def _until_idle(events: Any) -> List[Any]:
    seen = []
    for event in events:
        seen.append(event)
        if event.type == "session.status_idle":
            break
    return seen


def test_managed_agent_session_with_a_custom_tool(mockllm: MockLLM) -> None:
    anthropic = pytest.importorskip("anthropic", reason="the official `anthropic` package is not installed")
    mockllm.upload(WEATHER)
    client = anthropic.Anthropic(base_url=mockllm.base_url("anthropic", "py-managed-agent"), api_key="sk-ant-test", max_retries=0)
    if not hasattr(client.beta, "sessions"):
        pytest.skip("this `anthropic` has no Managed Agents (client.beta.sessions)")
    agent = client.beta.agents.create(name="Weather", model="claude-sonnet-4-6", tools=[TOOL])
    assert (agent.version, agent.model.id, agent.model.speed) == (1, "claude-sonnet-4-6", "standard")
    env = client.beta.environments.create(name="py-env")
    session = client.beta.sessions.create(agent=agent.id, environment_id=env.id)
    assert session.status == "idle"

    stream = client.beta.sessions.events.stream(session.id)
    events = iter(stream)
    client.beta.sessions.events.send(session.id, events=[{"type": "user.message", "content": [{"type": "text", "text": "Weather in Oslo?"}]}])
    first = _until_idle(events)
    assert [e.type for e in first] == ["user.message", "session.status_running", "span.model_request_start", "agent.custom_tool_use", "span.model_request_end", "session.status_idle"]
    use = first[3]
    assert (use.name, use.input) == ("get_weather", {"city": "Oslo"})
    assert first[-1].stop_reason.type == "requires_action" and first[-1].stop_reason.event_ids == [use.id]

    client.beta.sessions.events.send(session.id, events=[{"type": "user.custom_tool_result", "custom_tool_use_id": use.id, "content": [{"type": "text", "text": "-3 C"}]}])
    second = _until_idle(events)
    stream.close()
    assert [e.type for e in second] == ["user.custom_tool_result", "session.status_running", "span.model_request_start", "agent.message", "span.model_request_end", "session.status_idle"]
    assert second[3].content[0].text == "Oslo is cold."
    assert second[-1].stop_reason.type == "end_turn"

    listed = client.beta.sessions.events.list(session.id)
    assert [e.id for e in listed.data] == [e.id for e in first + second]
    usage = client.beta.sessions.retrieve(session.id).usage
    assert (usage.input_tokens, usage.output_tokens) == (50, 9)
    assert [(e["step"], e["request"]["path"]) for e in mockllm.journal("py-managed-agent")] == [("call", "/v1/messages"), ("answer", "/v1/messages")]
