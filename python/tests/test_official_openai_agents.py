"""OpenAI's Agents API through the official ``openai`` Python client (``client.beta.agents``, ``sessions``, their
events, items and turns) against the mock the pytest-mockllm fixture starts (the Node runtime): a saved agent with a
function tool, a session whose agent the script plays, the client's own ``sessions.stream(tool_handlers=…)`` running
the tool, and each model request journaled as a Responses turn of the fixture's session.
scripts/test-python.sh installs the client when pip can reach it; the test skips otherwise."""

from typing import Any, Dict, List

import pytest
from pytest_mockllm_server import MockLLM

WEATHER: Dict[str, Any] = {
    "name": "py-openai-agent",
    "steps": [
        {"id": "call", "match": {"turn": 1}, "respond": {"toolCalls": [{"name": "get_weather", "arguments": {"city": "Oslo"}}], "usage": {"inputTokens": 20, "outputTokens": 5}}},
        {"id": "answer", "match": {"toolResult": {"name": "get_weather"}}, "respond": {"text": "Oslo is cold.", "usage": {"inputTokens": 30, "outputTokens": 4}}},
    ],
}

TOOL = {
    "type": "function",
    "name": "get_weather",
    "description": "Weather of a city",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
}


def test_openai_agent_session_with_a_function_tool(mockllm: MockLLM) -> None:
    openai = pytest.importorskip("openai", reason="the official `openai` package is not installed")
    mockllm.upload(WEATHER)
    client = openai.OpenAI(base_url=mockllm.base_url("openai", "py-openai-agent"), api_key="sk-test", max_retries=0)
    if not hasattr(client.beta, "agents"):
        pytest.skip("this `openai` has no Agents API (client.beta.agents)")
    agent = client.beta.agents.create(model="gpt-5.5", name="Weather", tools=[TOOL])
    assert (agent.object, agent.service_tier, agent.text.format.type, [t.name for t in agent.tools]) == ("agent", "auto", "text", ["get_weather"])
    session = client.beta.agents.sessions.create(agent_id=agent.id, environment={"type": "self_hosted", "workspace_directory": "/work"})
    assert (session.status, session.agent.id, session.environment.type) == ("idle", agent.id, "self_hosted")

    calls: List[Dict[str, Any]] = []

    def get_weather(args: Dict[str, Any]) -> Dict[str, Any]:
        calls.append(args)
        return {"celsius": -3}

    with client.beta.agents.sessions.stream(session.id, input="Weather in Oslo?", tool_handlers={"get_weather": get_weather}) as stream:
        events = [e for e in stream]
    assert calls == [{"city": "Oslo"}]
    types = [e.type for e in events]
    assert types[:4] == ["agent.session.turn.created", "agent.session.turn.item.added", "agent.session.in_progress", "agent.session.turn.in_progress"]
    assert types[-2:] == ["agent.session.turn.completed", "agent.session.idle"]
    assert "agent.session.requires_action" in types
    text = "".join(e.delta for e in events if e.type == "agent.session.turn.output_text.delta")
    assert text == "Oslo is cold."

    items = client.beta.agents.sessions.items.list(session.id, order="asc")
    assert [i.type for i in items.data] == ["message", "function_call", "function_call_output", "message"]
    assert (items.data[2].call_id, items.data[2].output, items.data[2].error) == (items.data[1].call_id, '{"celsius":-3}', None)
    usage = client.beta.agents.sessions.retrieve(session.id).usage
    assert (usage.input_tokens, usage.output_tokens, usage.total_tokens) == (50, 9, 59)
    assert [(e["step"], e["request"]["path"]) for e in mockllm.journal("py-openai-agent")] == [("call", "/v1/responses"), ("answer", "/v1/responses")]
