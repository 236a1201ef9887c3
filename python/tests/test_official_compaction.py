"""OpenAI compaction through the official Python `openai` client (issue 31), as test/compat/openai-compaction.test.ts
does with the Node SDK: `client.responses.compact` (scripted and default compactions), the compacted window sent back
(a `compacted: true` step answers it) and `client.responses.input_tokens.count`. Skipped when `openai` is missing or
too old to have these calls."""

from typing import Any, Dict, List, Optional

import pytest
from pytest_mockllm_server import MockLLM

SUMMARY = "The user plans a trip to Kyoto in May."
TRIP: Dict[str, Any] = {
    "name": "py-compaction-trip",
    "steps": [
        {"id": "first", "match": {"compacted": False, "turn": 1}, "respond": {"text": "Kyoto in May is lovely."}},
        {"id": "squash", "respond": {"compaction": {"summary": SUMMARY}, "usage": {"inputTokens": 1200, "outputTokens": 80}}},
        {"id": "after", "match": {"compacted": True, "turn": 1, "lastUserMessage": "Book it."}, "respond": {"text": "Booked."}},
    ],
}
PLAIN: Dict[str, Any] = {"name": "py-compaction-plain", "steps": [{"id": "only", "respond": {"text": "A turn, not a compaction."}}]}
CONVERSATION: List[Dict[str, Any]] = [
    {"role": "user", "content": "Plan a trip to Kyoto."},
    {"role": "assistant", "content": "Which month?"},
    {"role": "user", "content": "In May."},
]


def client(mockllm: MockLLM, scenario: Optional[str]) -> Any:
    """A client for the scenario's session, or (None) for the default responder at ``{url}/v1``."""
    openai = pytest.importorskip("openai", reason="the official `openai` package is not installed")
    base_url = mockllm.base_url("openai", scenario) if scenario else f"{mockllm.url}/v1"
    c = openai.OpenAI(base_url=base_url, api_key="sk-test", max_retries=0)
    if not hasattr(c.responses, "compact") or not hasattr(c.responses, "input_tokens"):
        pytest.skip(f"openai {openai.__version__} has no responses.compact / responses.input_tokens")
    return c


def test_compaction_scripted_then_compacted_turn(mockllm: MockLLM) -> None:
    mockllm.upload(TRIP)
    c = client(mockllm, "py-compaction-trip")
    first = c.responses.create(model="gpt-5", input="Plan a trip to Kyoto.")
    assert first.output_text == "Kyoto in May is lovely."
    compacted = c.responses.compact(model="gpt-5", previous_response_id=first.id, input=[{"role": "user", "content": "In May."}])
    assert compacted.object == "response.compaction"
    assert [o.type for o in compacted.output] == ["message", "message", "compaction"]
    assert [(o.role, o.content[0].text) for o in compacted.output[:2]] == [("user", "Plan a trip to Kyoto."), ("user", "In May.")]
    item = compacted.output[2]
    assert item.id.startswith("cmp_") and item.encrypted_content.startswith("gAAAAAB")
    assert compacted.usage.input_tokens == 1200
    # The SDK types output messages as assistant output (output_text); the retained user messages hold input_text, as
    # the real API sends them, so pydantic would warn while dumping them.
    window = [o.model_dump(exclude_none=True, warnings=False) for o in compacted.output]
    after = c.responses.create(model="gpt-5", input=[*window, {"role": "user", "content": "Book it."}])
    assert after.output_text == "Booked."
    journal = mockllm.journal("py-compaction-trip")
    assert [(e["step"], e["outcome"]) for e in journal] == [("first", "response"), ("squash", "response"), ("after", "response")]
    assert [(e["canonical"].get("compactionRequested"), e["canonical"]["answered"].get("compaction"), e["canonical"].get("compaction")) for e in journal] == [
        (None, None, None),
        (True, {"summary": SUMMARY}, None),
        (None, None, {"summary": SUMMARY}),
    ]
    report = mockllm.verify("py-compaction-trip")
    assert (report["ok"], report["compactions"]) == (True, {"answered": 1, "carried": 1})


def test_compaction_default_is_deterministic_and_takes_no_step(mockllm: MockLLM) -> None:
    mockllm.upload(PLAIN)
    c = client(mockllm, "py-compaction-plain")
    compacted = c.responses.compact(model="gpt-5", input=CONVERSATION)
    assert [o.type for o in compacted.output] == ["message", "message", "compaction"]
    # The same output, ids and usage; `created_at` is the clock's, as on every scripted session's answer.
    again = c.responses.compact(model="gpt-5", input=CONVERSATION).model_dump(warnings=False)
    first = compacted.model_dump(warnings=False)
    assert abs(again.pop("created_at") - first.pop("created_at")) <= 5
    assert again == first
    assert c.responses.create(model="gpt-5", input="hi").output_text == "A turn, not a compaction."
    assert [(e["step"], e["outcome"]) for e in mockllm.journal("py-compaction-plain")] == [
        (None, "response"), (None, "response"), ("only", "response")]


def test_input_tokens_count_and_default_responder(mockllm: MockLLM) -> None:
    c = client(mockllm, None)
    assert c.responses.compact(model="gpt-5", input=CONVERSATION).usage.input_tokens == 9
    count = c.responses.input_tokens.count(model="gpt-5", instructions="Be brief.", input=CONVERSATION)
    assert (count.object, count.input_tokens) == ("response.input_tokens", 11)
    created = c.responses.create(model="gpt-5", instructions="Be brief.", input=CONVERSATION)
    assert created.usage.input_tokens == 11
