"""OpenAI moderations through the official Python ``openai`` client, against the mock the pytest-mockllm fixture starts
(the Node runtime): a scripted flag after a 429 the client retries, text and multimodal inputs, and the journal.
scripts/test-python.sh installs the client when pip can reach it; the test skips otherwise. (Python ``cohere`` is not
installable offline here: Cohere rerank is proven with the TypeScript ``cohere-ai`` client in test/compat.)"""

from typing import Any, Dict

import pytest
from pytest_mockllm_server import MockLLM

GUARD: Dict[str, Any] = {
    "name": "py-moderations",
    "steps": [
        {"id": "flag", "match": {"endpoint": "moderations", "lastUserMessage": {"contains": "hurt"}},
         "failures": [{"kind": "rate_limit"}],
         "respond": {"moderation": {"categories": ["violence", "self-harm/intent"], "scores": {"violence": 0.93}}}},
        {"id": "clean", "match": {"endpoint": "moderations"}, "respond": {"moderation": {}}},
    ],
}


def test_openai_moderations_create(mockllm: MockLLM) -> None:
    openai = pytest.importorskip("openai", reason="the official `openai` package is not installed")
    mockllm.upload(GUARD)
    client = openai.OpenAI(base_url=mockllm.base_url("openai"), api_key="sk-test", max_retries=2)

    flagged = client.moderations.create(model="omni-moderation-latest", input="I will hurt them")
    assert flagged.id.startswith("modr-") and len(flagged.id) == 37
    assert flagged.model == "omni-moderation-latest"
    [result] = flagged.results
    assert result.flagged is True
    assert (result.categories.violence, result.categories.self_harm_intent, result.categories.hate) == (True, True, False)
    assert result.category_scores.violence == 0.93
    assert result.category_scores.self_harm_intent >= 0.9
    assert result.category_scores.hate < 0.01
    assert result.category_applied_input_types.violence == ["text"]

    clean = client.moderations.create(input=[
        {"type": "text", "text": "a photo of a sunset"},
        {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}},
    ])
    [result] = clean.results
    assert result.flagged is False
    assert result.category_applied_input_types.violence == ["text", "image"]
    assert result.category_applied_input_types.harassment == ["text"]

    assert [(e["endpoint"], e["step"], e["outcome"], e["status"]) for e in mockllm.journal()] == [
        ("moderations", "flag", "failure", 429), ("moderations", "flag", "response", 200), ("moderations", "clean", "response", 200)]
    mockllm.verify()
