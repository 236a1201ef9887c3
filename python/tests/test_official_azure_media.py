"""Azure OpenAI's images, audio and stored responses through the official Python `openai` client's `AzureOpenAI`, as
test/compat/azure-media-sdk.test.ts does with the Node SDK: `images.generate` on the deployment route with Azure's
annotations as extra fields, `audio.speech` and `audio.transcriptions` on theirs, `responses.retrieve`/`delete` on
`/openai/responses/{id}`, and a blocked image prompt surfaced as `BadRequestError` with code
`content_policy_violation`. Skipped when `openai` is missing."""

import base64
from typing import Any, Dict

import pytest
from azure_client import azure
from pytest_mockllm_server import MockLLM

VERSION = "2025-04-01-preview"
SCENARIO: Dict[str, Any] = {
    "name": "py-azure-media",
    "steps": [
        {"id": "img", "consume": False, "match": {"provider": "azure", "endpoint": "images"}, "respond": {"image": {"color": "#204060"}}},
        {"id": "tts", "consume": False, "match": {"provider": "azure", "endpoint": "speech"}, "respond": {"speech": {"durationMs": 1000}}},
        {"id": "stt", "consume": False, "match": {"provider": "azure", "endpoint": "transcriptions"}, "respond": {"transcript": "Heard through Azure."}},
        {"id": "resp", "consume": False, "match": {"provider": "azure", "endpoint": "responses"}, "respond": {"text": "Kept for later."}},
    ],
}
BLOCK: Dict[str, Any] = {
    "name": "py-azure-image-block",
    "steps": [{"consume": False, "failures": [{"kind": "content_filter", "on": "prompt", "categories": ["violence"]}], "respond": {"image": {}}}],
}


def test_azure_images_and_audio(mockllm: MockLLM) -> None:
    mockllm.upload(SCENARIO)
    c = azure(mockllm, "py-azure-media", VERSION)
    img = c.images.generate(model="dalle3", prompt="a fox", response_format="b64_json")
    png = base64.b64decode(img.data[0].b64_json)
    assert (png[1:4], int.from_bytes(png[16:20], "big")) == (b"PNG", 1024)
    assert img.data[0].model_extra["content_filter_results"]["violence"] == {"filtered": False, "severity": "safe"}
    wav = c.audio.speech.create(model="tts-prod", voice="alloy", input="Hello", response_format="wav").read()
    assert (wav[:4], len(wav)) == (b"RIFF", 44 + 48_000)
    text = c.audio.transcriptions.create(model="whisper-prod", file=("meeting.wav", b"RIFF0000WAVE", "audio/wav"))
    assert text.text == "Heard through Azure."
    assert [(x["step"], x["provider"], x["request"]["path"]) for x in mockllm.journal("py-azure-media")] == [
        ("img", "azure", "/openai/deployments/dalle3/images/generations"),
        ("tts", "azure", "/openai/deployments/tts-prod/audio/speech"),
        ("stt", "azure", "/openai/deployments/whisper-prod/audio/transcriptions"),
    ]


def test_azure_stored_responses(mockllm: MockLLM) -> None:
    mockllm.upload(SCENARIO)
    c = azure(mockllm, "py-azure-media", VERSION)
    import openai

    created = c.responses.create(model="prod-4o", input="Remember this")
    got = c.responses.retrieve(created.id)
    assert (got.id, got.output_text) == (created.id, "Kept for later.")
    c.responses.delete(created.id)
    with pytest.raises(openai.NotFoundError):
        c.responses.retrieve(created.id)


def test_azure_image_prompt_block_is_bad_request(mockllm: MockLLM) -> None:
    mockllm.upload(BLOCK)
    c = azure(mockllm, "py-azure-image-block", VERSION, max_retries=0)
    import openai

    with pytest.raises(openai.BadRequestError) as caught:
        c.images.generate(model="dalle3", prompt="something")
    err = caught.value
    assert (err.status_code, err.code, err.type) == (400, "content_policy_violation", "invalid_request_error")
    assert err.body["inner_error"]["content_filter_results"]["violence"] == {"filtered": True, "severity": "medium"}
