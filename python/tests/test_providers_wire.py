"""The Anthropic, Gemini and Ollama wires through base_url(), as their official Python clients send them."""

import json

import pytest
from pytest_mockllm_server import MockLLM

from wire import anthropic_headers, gemini_headers, post, stream_ndjson, stream_sse

TOOL_THEN_TEXT = {
    "name": "py-providers",
    "steps": [
        {"id": "tool", "respond": {"toolCalls": [{"id": "toolu_01", "name": "get_weather", "arguments": {"city": "Paris"}}]}},
        {"id": "text", "match": {"toolResult": {"name": "get_weather"}}, "respond": {"text": "Sunny in Paris."}},
    ],
}


@pytest.fixture(autouse=True)
def scenario(mockllm: MockLLM) -> None:
    mockllm.upload(TOOL_THEN_TEXT)


def test_anthropic_messages(mockllm: MockLLM) -> None:
    url = f"{mockllm.base_url('anthropic')}/v1/messages"
    messages = [{"role": "user", "content": "weather in Paris?"}]
    tools = [{"name": "get_weather", "input_schema": {"type": "object"}}]
    first = post(url, {"model": "claude-sonnet-4-5", "max_tokens": 1024, "messages": messages, "tools": tools}, anthropic_headers("sk-ant"), max_retries=2)
    assert first.status == 200
    body = first.json()
    assert body["stop_reason"] == "tool_use"
    assert body["content"] == [{"type": "tool_use", "id": "toolu_01", "name": "get_weather", "input": {"city": "Paris"}}]

    messages += [
        {"role": "assistant", "content": body["content"]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_01", "content": "22C"}]},
    ]
    status, _, events = stream_sse(url, {"model": "claude-sonnet-4-5", "max_tokens": 1024, "messages": messages, "tools": tools, "stream": True}, anthropic_headers("sk-ant"))
    assert status == 200
    names = [name for name, _ in events]
    assert names == ["message_start", "content_block_start", "ping", "content_block_delta", "content_block_delta", "content_block_delta",
                     "content_block_stop", "message_delta", "message_stop"]
    deltas = [json.loads(data)["delta"]["text"] for name, data in events if name == "content_block_delta"]
    assert deltas == ["Sunny", " in", " Paris."]
    assert [e["canonical"]["answered"]["text"] for e in mockllm.journal()] == [None, "Sunny in Paris."]
    mockllm.verify()


def test_gemini_generate_content(mockllm: MockLLM) -> None:
    base = f"{mockllm.base_url('gemini')}/v1beta/models/gemini-2.5-flash"
    contents = [{"role": "user", "parts": [{"text": "weather in Paris?"}]}]
    first = post(f"{base}:generateContent", {"contents": contents}, gemini_headers("AIza-test"))
    assert first.status == 200
    parts = first.json()["candidates"][0]["content"]["parts"]
    assert parts == [{"functionCall": {"id": "toolu_01", "name": "get_weather", "args": {"city": "Paris"}}}]

    contents += [
        {"role": "model", "parts": parts},
        {"role": "user", "parts": [{"functionResponse": {"name": "get_weather", "response": {"result": "22C"}}}]},
    ]
    status, _, events = stream_sse(f"{base}:streamGenerateContent?alt=sse", {"contents": contents}, gemini_headers("AIza-test"))
    assert status == 200
    chunks = [json.loads(data) for _, data in events]
    assert "".join(c["candidates"][0]["content"]["parts"][0]["text"] for c in chunks) == "Sunny in Paris."
    assert chunks[-1]["candidates"][0]["finishReason"] == "STOP"
    assert [e["provider"] for e in mockllm.journal()] == ["gemini", "gemini"]
    mockllm.verify()


def test_ollama_chat(mockllm: MockLLM) -> None:
    url = f"{mockllm.base_url('ollama')}/api/chat"
    messages = [{"role": "user", "content": "weather in Paris?"}]
    first = post(url, {"model": "llama3.2", "messages": messages, "stream": False}, {"user-agent": "ollama-python/0.5.1"})
    message = first.json()["message"]
    assert message["tool_calls"][0]["function"] == {"index": 0, "name": "get_weather", "arguments": {"city": "Paris"}}

    messages += [message, {"role": "tool", "content": "22C", "tool_name": "get_weather"}]
    lines = stream_ndjson(url, {"model": "llama3.2", "messages": messages}, {"user-agent": "ollama-python/0.5.1"})
    assert "".join(line["message"]["content"] for line in lines) == "Sunny in Paris."
    assert lines[-1]["done"] is True and lines[-1]["done_reason"] == "stop"
    mockllm.verify()
