"""The wave-3 surfaces through the official Python clients, against the mock the pytest-mockllm fixture starts (the
Node runtime): MCP (`mcp`), Bedrock and Vertex (`anthropic[bedrock,vertex]`, `google-genai` with `vertexai=True`) and
the WebSocket modes (`openai` Responses WS and Realtime). scripts/test-python.sh installs the clients when pip can
reach them; each test skips with the reason otherwise."""

import asyncio
import json
from typing import Any, Dict, List

import pytest
from pytest_mockllm_server import MockLLM

WEATHER: Dict[str, Any] = {
    "name": "py-wave3-weather",
    "steps": [
        {"id": "ask-tool", "match": {"lastUserMessage": {"contains": "weather"}},
         "respond": {"toolCalls": [{"id": "call_1", "name": "get_weather", "arguments": {"city": "Paris"}}]}},
        {"id": "answer", "match": {"toolResult": {"name": "get_weather"}}, "respond": {"text": "It is sunny in Paris."}},
    ],
}
HELLO: Dict[str, Any] = {"name": "py-wave3-hello", "steps": [{"id": "hi", "respond": {"text": "Hello from the mock."}}]}
ANTHROPIC_TOOLS = [{"name": "get_weather", "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}}}]


def prefix(mockllm: MockLLM) -> str:
    """``{url}/s/{scenario}/{session}``: every surface's routes answer under it."""
    return mockllm.base_url("anthropic")


def anthropic_tool_loop(client: Any, model: str) -> Any:
    """WEATHER through an Anthropic-shaped client: the tool call (create), then the answer (stream); the final message."""
    messages: List[Any] = [{"role": "user", "content": "What's the weather in Paris?"}]
    first = client.messages.create(model=model, max_tokens=1024, messages=messages, tools=ANTHROPIC_TOOLS)
    use = first.content[0]
    assert (first.stop_reason, use.type, use.id, use.name, use.input) == ("tool_use", "tool_use", "call_1", "get_weather", {"city": "Paris"})
    messages += [{"role": "assistant", "content": [use.model_dump()]},
                 {"role": "user", "content": [{"type": "tool_result", "tool_use_id": use.id, "content": "22C"}]}]
    with client.messages.stream(model=model, max_tokens=1024, messages=messages, tools=ANTHROPIC_TOOLS) as stream:
        assert list(stream.text_stream) == ["It", " is", " sunny", " in", " Paris."]
        return stream.get_final_message()


def outcomes(mockllm: MockLLM) -> List[str]:
    return [f'{e["provider"]} {e["endpoint"]} {e["step"]} {e["outcome"]}' for e in mockllm.journal()]


# --- MCP: the `mcp` client over Streamable HTTP at /s/{scenario}/{session}/mcp ---------------------------------------

MCP_WEATHER: Dict[str, Any] = {
    "name": "py-wave3-mcp",
    "steps": [],
    "mcp": {
        "tools": [{"name": "get_weather", "description": "Current weather for a city",
                   "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}],
        "calls": [
            {"id": "paris", "match": {"tool": "get_weather", "arguments": {"city": "Paris"}}, "failuresBeforeSuccess": 1,
             "error": {"code": -32000, "message": "weather service busy, try again"},
             "result": {"content": [{"type": "text", "text": "18C and sunny in {{args.city}}"}]}},
            {"id": "unknown-city", "match": {"tool": "get_weather"}, "consume": False,
             "result": {"content": [{"type": "text", "text": "No weather station for {{args.city}}"}], "isError": True}},
        ],
    },
}


@pytest.mark.parametrize(("mode", "spoken"), [("auto", "2026-07-28"), ("legacy", "2025-11-25")])
def test_mcp_client_lists_fails_once_then_answers(mockllm: MockLLM, mode: str, spoken: str) -> None:
    mcp = pytest.importorskip("mcp", reason="the official `mcp` package is not installed")
    from mcp.shared.exceptions import MCPError

    mockllm.upload(MCP_WEATHER)

    async def run() -> List[Any]:
        seen: List[Any] = []
        async with mcp.Client(f"{prefix(mockllm)}/mcp", mode=mode) as client:
            tools = (await client.list_tools()).tools
            seen.append([(t.name, t.description, t.input_schema["required"]) for t in tools])
            with pytest.raises(MCPError) as failed:
                await client.call_tool("get_weather", {"city": "Paris"})
            seen.append((failed.value.error.code, failed.value.error.message))
            for city in ("Paris", "Rome"):
                result = await client.call_tool("get_weather", {"city": city})
                seen.append((bool(result.is_error), [c.text for c in result.content]))
        return seen

    assert asyncio.run(run()) == [
        [("get_weather", "Current weather for a city", ["city"])],
        (-32000, "weather service busy, try again"),
        (False, ["18C and sunny in Paris"]),
        (True, ["No weather station for Rome"]),
    ]
    journal = mockllm.journal()
    assert outcomes(mockllm) == ["mcp tools/call paris failure", "mcp tools/call paris response", "mcp tools/call unknown-city response"]
    assert [e["request"]["headers"].get("mcp-protocol-version") for e in journal] == [spoken] * 3
    assert [e["canonical"]["arguments"] for e in journal] == [{"city": "Paris"}, {"city": "Paris"}, {"city": "Rome"}]
    mockllm.verify()


# --- Bedrock: anthropic.AnthropicBedrock (InvokeModel / InvokeModelWithResponseStream) ------------------------------

BEDROCK_MODEL = "us.anthropic.claude-opus-4-6-v1:0"


def test_anthropic_bedrock_create_and_stream(mockllm: MockLLM) -> None:
    anthropic = pytest.importorskip("anthropic", reason="the official `anthropic` package is not installed")
    pytest.importorskip("botocore", reason="anthropic[bedrock] (botocore) is not installed")
    mockllm.upload(WEATHER)
    client = anthropic.AnthropicBedrock(base_url=prefix(mockllm), aws_access_key="AKIDEXAMPLE", aws_secret_key="secret",
                                        aws_region="us-east-1", max_retries=0)
    final = anthropic_tool_loop(client, BEDROCK_MODEL)
    assert (final.stop_reason, [b.text for b in final.content]) == ("end_turn", ["It is sunny in Paris."])
    journal = mockllm.journal()
    assert outcomes(mockllm) == ["bedrock messages ask-tool response", "bedrock messages answer response"]
    assert [e["request"]["path"].rsplit("/", 1)[1] for e in journal] == ["invoke", "invoke-with-response-stream"]
    # SigV4-signed (the journal redacts the authorization header itself)
    assert [(e["request"]["headers"]["user-agent"], "x-amz-date" in e["request"]["headers"]) for e in journal] == [
        ("AnthropicBedrock/Python " + anthropic.__version__, True)] * 2
    mockllm.verify()


# --- Vertex: anthropic.AnthropicVertex (rawPredict / streamRawPredict), google-genai with vertexai=True -------------

def test_anthropic_vertex_create_and_stream(mockllm: MockLLM) -> None:
    anthropic = pytest.importorskip("anthropic", reason="the official `anthropic` package is not installed")
    mockllm.upload(WEATHER)
    client = anthropic.AnthropicVertex(base_url=f"{prefix(mockllm)}/v1", region="us-east5", project_id="my-project",
                                       access_token="fake-token", max_retries=0)
    final = anthropic_tool_loop(client, "claude-opus-4-6")
    assert (final.stop_reason, [b.text for b in final.content]) == ("end_turn", ["It is sunny in Paris."])
    journal = mockllm.journal()
    assert outcomes(mockllm) == ["vertex messages ask-tool response", "vertex messages answer response"]
    assert [e["request"]["path"].split(f"/{mockllm.session}", 1)[-1] for e in journal] == [
        "/v1/projects/my-project/locations/us-east5/publishers/anthropic/models/claude-opus-4-6:rawPredict",
        "/v1/projects/my-project/locations/us-east5/publishers/anthropic/models/claude-opus-4-6:streamRawPredict",
    ]
    assert [e["request"]["headers"]["user-agent"] for e in journal] == ["AnthropicVertex/Python " + anthropic.__version__] * 2
    mockllm.verify()


@pytest.mark.parametrize("auth", ["credentials", "express"])
def test_google_genai_vertex_generate_and_stream(mockllm: MockLLM, auth: str) -> None:
    genai = pytest.importorskip("google.genai", reason="the official `google-genai` package is not installed")
    from google.genai import types

    mockllm.upload(WEATHER)
    http_options = types.HttpOptions(base_url=prefix(mockllm))
    if auth == "credentials":  # a static OAuth token: what google-auth would mint, never refreshed
        from google.oauth2.credentials import Credentials

        client = genai.Client(vertexai=True, project="my-project", location="us-central1",
                              credentials=Credentials(token="fake-token"), http_options=http_options)
    else:  # Vertex express mode: an API key, no project
        client = genai.Client(vertexai=True, api_key="any-key", http_options=http_options)
    contents: List[Any] = [types.Content(role="user", parts=[types.Part.from_text(text="What's the weather in Paris?")])]
    first = client.models.generate_content(model="gemini-2.5-flash", contents=contents)
    assert [(c.id, c.name, c.args) for c in first.function_calls] == [("call_1", "get_weather", {"city": "Paris"})]
    contents += [first.candidates[0].content,
                 types.Content(role="user", parts=[types.Part.from_function_response(name="get_weather", response={"result": "22C"})])]
    chunks = [c.text for c in client.models.generate_content_stream(model="gemini-2.5-flash", contents=contents)]
    assert "".join(chunks) == "It is sunny in Paris."
    journal = mockllm.journal()
    assert outcomes(mockllm) == ["vertex generateContent ask-tool response", "vertex generateContent answer response"]
    where = "/projects/my-project/locations/us-central1" if auth == "credentials" else ""
    assert [e["request"]["path"].split(f"/{mockllm.session}", 1)[-1] for e in journal] == [
        f"/v1beta1{where}/publishers/google/models/gemini-2.5-flash:generateContent",
        f"/v1beta1{where}/publishers/google/models/gemini-2.5-flash:streamGenerateContent",
    ]
    mockllm.verify()


# --- WebSockets: openai Responses WS mode (client.responses.connect) and Realtime (client.realtime.connect) ----------

RESPONSES_TOOLS = [{"type": "function", "name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}]


def until(conn: Any, last: str) -> List[Any]:
    """The events up to and including the first of type ``last``."""
    events = []
    for event in conn:
        events.append(event)
        if event.type == last:
            return events
    raise AssertionError(f"the socket ended before {last}: {[e.type for e in events]}")


CALL_EVENTS = ["response.output_item.added", "response.function_call_arguments.delta", "response.function_call_arguments.done",
               "response.output_item.done"]
TEXT_EVENTS = ["response.output_item.added", "response.content_part.added", *["response.output_text.delta"] * 5,
               "response.output_text.done", "response.content_part.done", "response.output_item.done"]
DELTAS = ["It", " is", " sunny", " in", " Paris."]


def test_openai_responses_websocket_tool_turn_then_text(mockllm: MockLLM) -> None:
    openai = pytest.importorskip("openai", reason="the official `openai` package is not installed")
    pytest.importorskip("websockets", reason="the `websockets` package is not installed")
    mockllm.upload(WEATHER)
    client = openai.OpenAI(base_url=mockllm.base_url("openai"), api_key="sk-test", max_retries=0)  # ws:// from http://
    with client.responses.connect() as conn:
        conn.send({"type": "response.create", "model": "gpt-4.1", "input": "What's the weather in Paris?", "tools": RESPONSES_TOOLS})
        first = until(conn, "response.completed")
        assert [e.type for e in first] == ["response.created", "response.in_progress", *CALL_EVENTS, "response.completed"]
        call = first[-1].response.output[0]
        assert (call.type, call.call_id, call.name, json.loads(call.arguments), call.status) == (
            "function_call", "call_1", "get_weather", {"city": "Paris"}, "completed")
        assert [e.sequence_number for e in first] == list(range(len(first)))
        conn.send({"type": "response.create", "model": "gpt-4.1", "previous_response_id": first[-1].response.id,
                   "tools": RESPONSES_TOOLS, "input": [{"type": "function_call_output", "call_id": call.call_id, "output": "22C"}]})
        second = until(conn, "response.completed")
    assert [e.type for e in second] == ["response.created", "response.in_progress", *TEXT_EVENTS, "response.completed"]
    assert [e.delta for e in second if e.type == "response.output_text.delta"] == DELTAS
    assert (second[-1].response.output_text, second[-1].response.previous_response_id) == ("It is sunny in Paris.", first[-1].response.id)
    journal = mockllm.journal()
    assert outcomes(mockllm) == ["openai responses ask-tool response", "openai responses answer response"]
    assert [(e["request"]["method"], e["request"]["path"], e["request"]["body"]["type"]) for e in journal] == [
        ("WS", "/v1/responses", "response.create")] * 2
    assert journal[1]["canonical"]["toolResults"] == [{"name": "get_weather", "toolCallId": "call_1", "content": "22C"}]
    mockllm.verify()


def test_openai_realtime_function_call_then_text(mockllm: MockLLM) -> None:
    openai = pytest.importorskip("openai", reason="the official `openai` package is not installed")
    pytest.importorskip("websockets", reason="the `websockets` package is not installed")
    mockllm.upload(WEATHER)
    url = mockllm.base_url("openai")
    client = openai.OpenAI(base_url=url, websocket_base_url=url.replace("http", "ws", 1), api_key="sk-test", max_retries=0)
    with client.realtime.connect(model="gpt-realtime") as rt:
        created = rt.recv()
        assert (created.type, created.session.model, created.session.output_modalities) == ("session.created", "gpt-realtime", ["text"])
        rt.session.update(session={"type": "realtime", "tools": [{"type": "function", **RESPONSES_TOOLS[0]}]})
        assert [t.name for t in until(rt, "session.updated")[-1].session.tools] == ["get_weather"]
        rt.conversation.item.create(item={"type": "message", "role": "user", "content": [{"type": "input_text", "text": "What's the weather in Paris?"}]})
        rt.response.create()
        first = until(rt, "response.done")
        assert [e.type for e in first] == [
            "conversation.item.added", "conversation.item.done", "response.created", "response.output_item.added",
            "conversation.item.added", "response.function_call_arguments.delta", "response.function_call_arguments.done",
            "response.output_item.done", "conversation.item.done", "response.done"]
        call = first[-1].response.output[0]
        assert (call.type, call.call_id, call.name, json.loads(call.arguments), first[-1].response.status) == (
            "function_call", "call_1", "get_weather", {"city": "Paris"}, "completed")
        rt.conversation.item.create(item={"type": "function_call_output", "call_id": call.call_id, "output": "22C"})
        rt.response.create()
        second = until(rt, "response.done")
    assert [e.type for e in second] == [
        "conversation.item.added", "conversation.item.done", "response.created", "response.output_item.added",
        "conversation.item.added", "response.content_part.added", *["response.output_text.delta"] * 5,
        "response.output_text.done", "response.content_part.done", "response.output_item.done", "conversation.item.done",
        "response.done"]
    assert [e.delta for e in second if e.type == "response.output_text.delta"] == DELTAS
    message = second[-1].response.output[0]
    assert (message.type, message.role, [c.text for c in message.content]) == ("message", "assistant", ["It is sunny in Paris."])
    journal = mockllm.journal()
    assert outcomes(mockllm) == ["openai realtime ask-tool response", "openai realtime answer response"]
    assert [(e["request"]["method"], e["request"]["path"], e["canonical"]["model"]) for e in journal] == [("WS", "/v1/realtime", "gpt-realtime")] * 2
    mockllm.verify()
