"""The OpenAI Chat Completions wire through the fixture: a tool loop, a 429 then the retry, a stream."""

import json

import pytest
from pytest_mockllm_server import MockLLM

from wire import openai_headers, post, stream_sse

WEATHER = {
    "name": "py-weather",
    "steps": [
        {
            "id": "ask-tool",
            "match": {"lastUserMessage": {"contains": "weather"}},
            "respond": {"toolCalls": [{"id": "call_1", "name": "get_weather", "arguments": {"city": "Paris"}}]},
        },
        {"id": "answer", "match": {"toolResult": {"name": "get_weather"}}, "respond": {"text": "It is sunny in Paris, 22 °C."}},
    ],
}
TOOLS = [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}}]


def chat(mockllm: MockLLM, messages, **extra):
    url = f"{mockllm.base_url('openai')}/chat/completions"
    return post(url, {"model": "gpt-4o-mini", "messages": messages, **extra}, openai_headers("sk-test"), max_retries=2)


def test_tool_loop(mockllm: MockLLM) -> None:
    mockllm.upload(WEATHER)
    messages = [{"role": "user", "content": "What's the weather in Paris?"}]
    first = chat(mockllm, messages, tools=TOOLS)
    assert first.status == 200
    message = first.json()["choices"][0]["message"]
    assert first.json()["choices"][0]["finish_reason"] == "tool_calls"
    assert message["tool_calls"] == [{"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": '{"city":"Paris"}'}}]

    # The agent runs the tool and sends the result back, as an SDK tool loop does.
    args = json.loads(message["tool_calls"][0]["function"]["arguments"])
    messages += [message, {"role": "tool", "tool_call_id": "call_1", "content": f"22C, sunny in {args['city']}"}]
    second = chat(mockllm, messages, tools=TOOLS)
    assert second.json()["choices"][0]["message"]["content"] == "It is sunny in Paris, 22 °C."

    journal = mockllm.journal()
    assert [(e["step"], e["outcome"], e["status"]) for e in journal] == [("ask-tool", "response", 200), ("answer", "response", 200)]
    assert journal[1]["canonical"]["toolResults"] == [{"name": "get_weather", "toolCallId": "call_1", "content": "22C, sunny in Paris"}]
    result = mockllm.verify()
    assert result["ok"] is True and result["requests"] == 2


def test_failure_then_retry(mockllm: MockLLM) -> None:
    mockllm.upload({"name": "py-flaky", "steps": [{"id": "flaky", "failures": [{"kind": "rate_limit", "retryAfterMs": 0}], "respond": {"text": "Hello!"}}]})
    res = chat(mockllm, [{"role": "user", "content": "hi"}])
    assert res.attempts == [429, 200]
    assert res.json()["choices"][0]["message"]["content"] == "Hello!"
    journal = mockllm.journal()
    assert [(e["outcome"], e["status"]) for e in journal] == [("failure", 429), ("response", 200)]
    assert journal[1]["request"]["headers"]["x-stainless-retry-count"] == "1"
    mockllm.verify()


def test_unanswered_failure_fails_verify(mockllm: MockLLM) -> None:
    mockllm.upload({"name": "py-flaky", "steps": [{"id": "flaky", "failures": [{"kind": "rate_limit", "retryAfterMs": 0}], "respond": {"text": "Hello!"}}]})
    res = post(f"{mockllm.base_url('openai')}/chat/completions", {"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "hi"}]}, openai_headers("sk"))
    assert res.status == 429
    assert res.json()["error"]["code"] == "rate_limit_exceeded"
    with pytest.raises(AssertionError, match=r"FAILED: scenario \"py-flaky\""):
        mockllm.verify()


def test_stream(mockllm: MockLLM) -> None:
    mockllm.upload({"name": "py-stream", "steps": [{"id": "s", "respond": {"text": "It is sunny in Paris."}}]})
    body = {"model": "gpt-4o-mini", "stream": True, "stream_options": {"include_usage": True}, "messages": [{"role": "user", "content": "hi"}]}
    status, headers, events = stream_sse(f"{mockllm.base_url('openai')}/chat/completions", body, openai_headers("sk"))
    assert status == 200 and headers["content-type"].startswith("text/event-stream")
    assert events[-1] == (None, "[DONE]")
    chunks = [json.loads(data) for _, data in events[:-1]]
    assert [c["choices"][0]["delta"] for c in chunks if c["choices"]] == [
        {"role": "assistant", "content": "", "refusal": None},
        {"content": "It"},
        {"content": " is"},
        {"content": " sunny"},
        {"content": " in"},
        {"content": " Paris."},
        {},
    ]
    assert chunks[-2]["choices"][0]["finish_reason"] == "stop"
    assert chunks[-1]["choices"] == [] and chunks[-1]["usage"]["completion_tokens"] == 32
    assert len({c["id"] for c in chunks}) == 1
    [entry] = mockllm.journal()
    assert entry["stream"] is True and entry["canonical"]["answered"]["text"] == "It is sunny in Paris."
    mockllm.verify()
