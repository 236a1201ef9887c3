"""Azure OpenAI through the official Python `openai` client's `AzureOpenAI` (issue 35), as test/compat/azure-sdk.test.ts
does with the Node SDK: chat JSON (the deployment route, `model` matchers see the deployment) and stream (past the
leading empty-`choices` chunk), Responses on `/openai/responses`, embeddings, a 429 the client retries, and the prompt
block surfaced as `BadRequestError` with code `content_filter`. Skipped when `openai` is missing. LangChain's
`AzureChatOpenAI` is covered only where `langchain_openai` is importable (it is not in the suite's venv)."""

from typing import Any, Dict

import pytest
from azure_client import azure
from pytest_mockllm_server import MockLLM

VERSION = "2024-10-21"
TEXT = "The deployment answered in full."
SCENARIO: Dict[str, Any] = {
    "name": "py-azure",
    "steps": [
        {"id": "chat", "consume": False, "match": {"provider": "azure", "endpoint": "chat.completions", "model": "prod-4o"},
         "respond": {"text": TEXT, "usage": {"inputTokens": 7, "outputTokens": 5}, "stream": {"chunkWords": 2}}},
        {"id": "responses", "consume": False, "match": {"provider": "azure", "endpoint": "responses"}, "respond": {"text": "Responses through Azure."}},
        {"id": "embed", "consume": False, "match": {"provider": "azure", "endpoint": "embeddings"}, "respond": {"embeddings": [[0.5, 0.25, -1]]}},
    ],
}
BUSY: Dict[str, Any] = {"name": "py-azure-429", "steps": [{"id": "busy", "failures": [{"kind": "rate_limit", "retryAfterMs": 20}], "respond": {"text": "After the retry."}}]}
# Attempt k of a step answers failures[k-1]: one block per request (JSON, then stream).
BLOCKED = {"kind": "content_filter", "on": "prompt", "categories": ["hate"]}
BLOCK: Dict[str, Any] = {"name": "py-azure-block", "steps": [{"failures": [BLOCKED, BLOCKED], "respond": {"text": TEXT}}]}
USER = [{"role": "user", "content": "Hello"}]


def test_azure_chat_json_and_stream(mockllm: MockLLM) -> None:
    mockllm.upload(SCENARIO)
    c = azure(mockllm, "py-azure", VERSION, azure_deployment="prod-4o")
    raw = c.chat.completions.with_raw_response.create(model="gpt-4o", messages=USER)
    done = raw.parse()
    assert (done.choices[0].message.content, done.model, done.usage.total_tokens) == (TEXT, "prod-4o", 12)
    assert done.model_extra["prompt_filter_results"][0]["content_filter_results"]["hate"] == {"filtered": False, "severity": "safe"}
    assert done.choices[0].model_extra["content_filter_results"]["violence"] == {"filtered": False, "severity": "safe"}
    assert (raw.headers["x-ms-region"], len(raw.headers["apim-request-id"]), raw.request_id) == ("East US", 36, raw.headers["x-request-id"])
    seen = []
    for chunk in c.chat.completions.create(model="prod-4o", messages=USER, stream=True):
        seen.append("<empty>" if not chunk.choices else (chunk.choices[0].delta.content or chunk.choices[0].finish_reason or ""))
    assert seen == ["<empty>", "", "The deployment", " answered in", " full.", "stop"]


def test_azure_responses_and_embeddings(mockllm: MockLLM) -> None:
    mockllm.upload(SCENARIO)
    c = azure(mockllm, "py-azure", VERSION)
    r = c.responses.create(model="prod-4o", input="Hello")
    assert (r.output_text, r.model) == ("Responses through Azure.", "prod-4o")
    e = c.embeddings.create(model="ada-prod", input="hello")
    assert (e.data[0].embedding, e.model) == ([0.5, 0.25, -1], "ada-prod")
    assert [(x["step"], x["request"]["path"]) for x in mockllm.journal("py-azure")] == [
        ("responses", "/openai/responses"),
        ("embed", "/openai/deployments/ada-prod/embeddings"),
    ]


def test_azure_429_is_retried(mockllm: MockLLM) -> None:
    mockllm.upload(BUSY)
    c = azure(mockllm, "py-azure-429", VERSION, azure_deployment="prod-4o")
    done = c.chat.completions.create(model="prod-4o", messages=USER)
    assert done.choices[0].message.content == "After the retry."
    assert [(x["status"], x["outcome"]) for x in mockllm.journal("py-azure-429")] == [(429, "failure"), (200, "response")]


def test_azure_prompt_block_is_bad_request(mockllm: MockLLM) -> None:
    mockllm.upload(BLOCK)
    c = azure(mockllm, "py-azure-block", VERSION, azure_deployment="prod-4o", max_retries=0)
    import openai

    for stream in (False, True):
        with pytest.raises(openai.BadRequestError) as caught:
            c.chat.completions.create(model="prod-4o", messages=USER, stream=stream)
        err = caught.value
        assert (err.status_code, err.code, err.param) == (400, "content_filter", "prompt")
        assert err.body["innererror"]["code"] == "ResponsibleAIPolicyViolation"
        assert err.body["innererror"]["content_filter_result"]["hate"] == {"filtered": True, "severity": "medium"}


def test_langchain_azure_chat_openai(mockllm: MockLLM) -> None:
    lc = pytest.importorskip("langchain_openai", reason="langchain_openai is not installed in this venv")
    mockllm.upload(SCENARIO)
    model = lc.AzureChatOpenAI(azure_endpoint=f"{mockllm.url}/s/py-azure/{mockllm.session}", azure_deployment="prod-4o", api_version=VERSION, api_key="azure-key")
    assert model.invoke("Hello").content == TEXT
