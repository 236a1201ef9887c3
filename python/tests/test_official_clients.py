"""The same loops through the official Python clients. scripts/test-python.sh installs them (requirements-official.txt)
when pip can reach a package index or a mirror; each test runs when its package is importable and is skipped with the
reason otherwise (then the wire tests beside this file, which send what these clients send, still hold)."""

import json

import pytest
from pytest_mockllm_server import MockLLM, MockLLMVerifyError

WEATHER = {
    "name": "py-sdk-weather",
    "steps": [
        {"id": "flaky-tool", "match": {"lastUserMessage": {"contains": "weather"}},
         "failures": [{"kind": "rate_limit", "retryAfterMs": 0}],
         "respond": {"toolCalls": [{"id": "call_1", "name": "get_weather", "arguments": {"city": "Paris"}}]}},
        {"id": "answer", "match": {"toolResult": {"name": "get_weather"}}, "respond": {"text": "It is sunny in Paris."}},
    ],
}
OPENAI_TOOLS = [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}}]


def test_openai_tool_loop_retry_and_stream(mockllm: MockLLM) -> None:
    openai = pytest.importorskip("openai", reason="the official `openai` package is not installed")
    mockllm.upload(WEATHER)
    client = openai.OpenAI(base_url=mockllm.base_url("openai"), api_key="sk-test", max_retries=2)
    messages = [{"role": "user", "content": "What's the weather in Paris?"}]
    first = client.chat.completions.create(model="gpt-4o-mini", messages=messages, tools=OPENAI_TOOLS)  # a 429, then the retry
    call = first.choices[0].message.tool_calls[0]
    assert (call.id, call.function.name, json.loads(call.function.arguments)) == ("call_1", "get_weather", {"city": "Paris"})
    messages += [first.choices[0].message.model_dump(exclude_none=True), {"role": "tool", "tool_call_id": call.id, "content": "22C"}]
    stream = client.chat.completions.create(model="gpt-4o-mini", messages=messages, tools=OPENAI_TOOLS, stream=True)
    deltas = [c.choices[0].delta.content for c in stream if c.choices and c.choices[0].delta.content]
    assert deltas == ["It", " is", " sunny", " in", " Paris."]
    assert [e["outcome"] for e in mockllm.journal()] == ["failure", "response", "response"]
    mockllm.verify()


def test_openai_unused_step_fails_verify(mockllm: MockLLM) -> None:
    openai = pytest.importorskip("openai", reason="the official `openai` package is not installed")
    mockllm.upload(WEATHER)
    client = openai.OpenAI(base_url=mockllm.base_url("openai"), api_key="sk-test", max_retries=2)
    client.chat.completions.create(model="gpt-4o-mini", messages=[{"role": "user", "content": "weather?"}], tools=OPENAI_TOOLS)
    with pytest.raises(MockLLMVerifyError, match=r'(?s)Steps never used \(1 of 2\):.*"answer" \(step 2\)'):
        mockllm.verify()


def test_anthropic_tool_loop_and_stream(mockllm: MockLLM) -> None:
    anthropic = pytest.importorskip("anthropic", reason="the official `anthropic` package is not installed")
    mockllm.upload(WEATHER)
    client = anthropic.Anthropic(base_url=mockllm.base_url("anthropic"), api_key="sk-ant-test", max_retries=2)
    tools = [{"name": "get_weather", "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}}}]
    messages = [{"role": "user", "content": "What's the weather in Paris?"}]
    first = client.messages.create(model="claude-opus-4-6", max_tokens=1024, messages=messages, tools=tools)
    use = first.content[0]
    assert (first.stop_reason, use.type, use.name, use.input) == ("tool_use", "tool_use", "get_weather", {"city": "Paris"})
    messages += [{"role": "assistant", "content": [use.model_dump()]},
                 {"role": "user", "content": [{"type": "tool_result", "tool_use_id": use.id, "content": "22C"}]}]
    with client.messages.stream(model="claude-opus-4-6", max_tokens=1024, messages=messages, tools=tools) as stream:
        assert list(stream.text_stream) == ["It", " is", " sunny", " in", " Paris."]
    mockllm.verify()


def test_google_genai_function_call_and_stream(mockllm: MockLLM) -> None:
    genai = pytest.importorskip("google.genai", reason="the official `google-genai` package is not installed")
    from google.genai import types

    no_failure = {**WEATHER, "name": "py-sdk-gemini", "steps": [{**WEATHER["steps"][0], "failures": []}, WEATHER["steps"][1]]}
    mockllm.upload(no_failure)  # google-genai retries nothing unless its retry_options say so
    client = genai.Client(api_key="test-key", http_options=types.HttpOptions(base_url=mockllm.base_url("gemini")))
    contents = [types.Content(role="user", parts=[types.Part.from_text(text="What's the weather in Paris?")])]
    first = client.models.generate_content(model="gemini-2.5-flash", contents=contents)
    assert (first.function_calls[0].name, first.function_calls[0].args) == ("get_weather", {"city": "Paris"})
    contents += [first.candidates[0].content,
                 types.Content(role="user", parts=[types.Part.from_function_response(name="get_weather", response={"result": "22C"})])]
    text = "".join(chunk.text or "" for chunk in client.models.generate_content_stream(model="gemini-2.5-flash", contents=contents))
    assert text == "It is sunny in Paris."
    mockllm.verify()


def test_google_genai_interactions(mockllm: MockLLM) -> None:
    genai = pytest.importorskip("google.genai", reason="the official `google-genai` package is not installed")
    from google.genai import types

    if not hasattr(genai.Client, "interactions"):
        pytest.skip("this `google-genai` has no Interactions API")
    no_failure = {**WEATHER, "name": "py-sdk-interactions", "steps": [{**WEATHER["steps"][0], "failures": []}, WEATHER["steps"][1]]}
    mockllm.upload(no_failure)
    client = genai.Client(api_key="test-key", http_options=types.HttpOptions(base_url=mockllm.base_url("gemini")))
    tools = [{"type": "function", "name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}]
    first = client.interactions.create(model="gemini-3-flash-preview", input="What's the weather in Paris?", tools=tools)
    call = next(step for step in first.steps if step.type == "function_call")
    assert (first.status, call.id, call.name, call.arguments) == ("requires_action", "call_1", "get_weather", {"city": "Paris"})
    stream = client.interactions.create(
        model="gemini-3-flash-preview", previous_interaction_id=first.id, tools=tools, stream=True,
        input=[{"type": "function_result", "call_id": call.id, "name": "get_weather", "result": "22C"}],
    )
    events = list(stream)
    assert "".join(e.delta.text for e in events if e.event_type == "step.delta" and e.delta.type == "text") == "It is sunny in Paris."
    assert (events[0].event_type, events[-1].event_type, events[-1].interaction.status) == ("interaction.created", "interaction.completed", "completed")
    mockllm.verify()


def test_google_genai_image_and_speech(mockllm: MockLLM) -> None:
    genai = pytest.importorskip("google.genai", reason="the official `google-genai` package is not installed")
    import struct

    from google.genai import types

    if not hasattr(types, "ImageConfig"):
        pytest.skip("this `google-genai` has no ImageConfig")
    mockllm.upload({"name": "py-sdk-gemini-media", "steps": [
        {"match": {"lastUserMessage": {"contains": "square"}}, "respond": {"text": "A red square.", "image": {"color": "#ff0000"}}},
        {"match": {"lastUserMessage": {"contains": "Say"}}, "respond": {"speech": {"durationMs": 1500}}},
    ]})
    client = genai.Client(api_key="test-key", http_options=types.HttpOptions(base_url=mockllm.base_url("gemini", scenario="py-sdk-gemini-media")))
    image = client.models.generate_content(
        model="gemini-2.5-flash-image", contents="Draw a square",
        config=types.GenerateContentConfig(response_modalities=["TEXT", "IMAGE"], image_config=types.ImageConfig(aspect_ratio="16:9")),
    )
    text, picture = image.candidates[0].content.parts
    assert (text.text, picture.inline_data.mime_type) == ("A red square.", "image/png")
    assert picture.inline_data.data[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", picture.inline_data.data[16:24]) == (1344, 768)
    assert [(d.modality, d.token_count) for d in image.usage_metadata.candidates_tokens_details][0] == (types.MediaModality.IMAGE, 1290)
    speech = client.models.generate_content(
        model="gemini-2.5-flash-preview-tts", contents="Say hello",
        config=types.GenerateContentConfig(
            response_modalities=["AUDIO"],
            speech_config=types.SpeechConfig(voice_config=types.VoiceConfig(prebuilt_voice_config=types.PrebuiltVoiceConfig(voice_name="Kore"))),
        ),
    )
    audio = speech.candidates[0].content.parts[0].inline_data
    assert (audio.mime_type, len(audio.data), speech.usage_metadata.candidates_token_count) == ("audio/L16;codec=pcm;rate=24000", 72_000, 48)
    mockllm.verify()


def test_google_genai_files_embeddings_counts_caches(mockllm: MockLLM) -> None:
    genai = pytest.importorskip("google.genai", reason="the official `google-genai` package is not installed")
    import io

    from google.genai import types

    mockllm.upload({"name": "py-sdk-gemini-around", "steps": [
        {"id": "read", "consume": False, "match": {"lastUserMessage": {"contains": "Summarise"}}, "respond": {"text": "A note."}},
        {"id": "vectors", "consume": False, "match": {"endpoint": "embeddings"}, "respond": {"embeddings": [[0.6, 0.8]]}},
    ]})
    client = genai.Client(api_key="test-key", http_options=types.HttpOptions(base_url=mockllm.base_url("gemini")))
    uploaded = client.files.upload(file=io.BytesIO(b"a short note"), config={"mime_type": "text/plain", "display_name": "note"})
    assert (uploaded.size_bytes, uploaded.state.name, uploaded.display_name) == (12, "ACTIVE", "note")
    answer = client.models.generate_content(model="gemini-2.5-flash", contents=[uploaded, "Summarise this."])
    assert answer.text == "A note."
    assert [e.values for e in client.models.embed_content(model="gemini-embedding-001", contents="a short note").embeddings] == [[0.6, 0.8]]
    assert client.models.count_tokens(model="gemini-2.5-flash", contents="hello there, how are you").total_tokens == 6
    cache = client.caches.create(model="gemini-2.5-flash", config={"contents": [uploaded], "system_instruction": "Be brief.", "ttl": "300s"})
    assert client.models.generate_content(model="gemini-2.5-flash", contents="Summarise this.", config={"cached_content": cache.name}).text == "A note."
    client.caches.delete(name=cache.name)
    client.files.delete(name=uploaded.name)
    with pytest.raises(genai.errors.ClientError) as refused:
        client.files.get(name=uploaded.name)
    assert refused.value.code == 403


def test_ollama_client(mockllm: MockLLM) -> None:
    ollama = pytest.importorskip("ollama", reason="the official `ollama` package is not installed")
    mockllm.upload({"name": "py-sdk-ollama", "steps": [{"respond": {"text": "Hello from llama."}}]})
    client = ollama.Client(host=mockllm.base_url("ollama"))
    parts = [chunk.message.content for chunk in client.chat(model="llama3.2", messages=[{"role": "user", "content": "hi"}], stream=True)]
    assert "".join(parts) == "Hello from llama."
    mockllm.verify()
