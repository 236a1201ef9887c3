"""OpenAI's legacy ``/v1/completions`` through the official Python ``openai`` client (``client.completions``), against
the mock the pytest-mockllm fixture starts (the Node runtime): a scripted text matched on the prompt, its stream with
usage, ``echo`` with ``logprobs``, no ``max_tokens`` (16: the text is shorter), and a chat model's 404. scripts/test-python.sh
installs the client when pip can reach it; the test skips otherwise."""

from typing import Any, Dict

import pytest
from pytest_mockllm_server import MockLLM

LEGACY: Dict[str, Any] = {
    "name": "py-legacy",
    "steps": [
        {"id": "haiku", "consume": False, "match": {"endpoint": "completions", "lastUserMessage": {"contains": "haiku"}},
         "respond": {"text": "\n\nAn old silent pond.", "usage": {"inputTokens": 4, "outputTokens": 5}}},
    ],
}


def test_openai_completions_create(mockllm: MockLLM) -> None:
    openai = pytest.importorskip("openai", reason="the official `openai` package is not installed")
    mockllm.upload(LEGACY)
    client = openai.OpenAI(base_url=mockllm.base_url("openai"), api_key="sk-test", max_retries=0)

    done = client.completions.create(model="gpt-3.5-turbo-instruct", prompt="Write a haiku", max_tokens=32)
    assert done.object == "text_completion" and done.id.startswith("cmpl-") and len(done.id) == 34
    assert [(c.index, c.text, c.finish_reason) for c in done.choices] == [(0, "\n\nAn old silent pond.", "stop")]
    assert (done.usage.prompt_tokens, done.usage.completion_tokens, done.usage.total_tokens) == (4, 5, 9)

    chunks = list(client.completions.create(model="gpt-3.5-turbo-instruct", prompt="Write a haiku", max_tokens=32, stream=True,
                                            stream_options={"include_usage": True}))
    assert "".join(c.choices[0].text for c in chunks if c.choices) == "\n\nAn old silent pond."
    assert [c.choices[0].finish_reason for c in chunks if c.choices][-1] == "stop"
    assert chunks[-1].choices == [] and chunks[-1].usage.completion_tokens == 5

    echoed = client.completions.create(model="gpt-3.5-turbo-instruct", prompt="A haiku:", max_tokens=32, echo=True, logprobs=1)
    [choice] = echoed.choices
    assert choice.text == "A haiku:\n\nAn old silent pond."
    assert "".join(choice.logprobs.tokens) == choice.text
    assert choice.logprobs.token_logprobs[0] is None and choice.logprobs.text_offset[:2] == [0, 1]

    # As the API: 16 tokens when max_tokens is not sent.
    short = client.completions.create(model="davinci-002", prompt="Write a haiku")
    assert (short.choices[0].text, short.choices[0].finish_reason) == ("\n\nAn old silent pond.", "stop")

    with pytest.raises(openai.NotFoundError) as refused:
        client.completions.create(model="gpt-4o", prompt="x")
    assert refused.value.body["message"].startswith("This is a chat model and not supported in the v1/completions endpoint.")

    assert [(e["endpoint"], e["step"]) for e in mockllm.journal()] == [("completions", "haiku")] * 4
