"""Structured outputs through the official Python clients (contract section 11): `openai`'s `.parse` with a pydantic
model (no scenario and scripted with `respond.json`), `google-genai`'s `response_schema` → `.parsed`, and verify
failing on a scripted answer that breaks the strict schema. Each test skips when its package is not installed."""

import pytest
from pydantic import BaseModel
from pytest_mockllm_server import MockLLM, MockLLMVerifyError


class Invoice(BaseModel):
    invoice_id: str
    customer_name: str
    total: float
    currency: str


SCRIPTED = {
    "name": "py-structured",
    "steps": [{"id": "extract", "match": {"outputSchema": {"name": "Invoice"}},
               "respond": {"json": {"invoice_id": "INV-7", "customer_name": "Ada", "total": 42.5, "currency": "EUR"}}}],
}
BROKEN = {"name": "py-structured-broken", "steps": [{"id": "wrong", "respond": {"json": {"invoice_id": 7}}}]}
MESSAGES = [{"role": "user", "content": "Extract the invoice."}]


def test_openai_parse_pydantic_default_responder(mockllm: MockLLM) -> None:
    openai = pytest.importorskip("openai", reason="the official `openai` package is not installed")
    client = openai.OpenAI(base_url=f"{mockllm.url}/v1", api_key="sk-test")
    res = client.chat.completions.parse(model="gpt-4.1", messages=MESSAGES, response_format=Invoice)
    parsed = res.choices[0].message.parsed
    assert isinstance(parsed, Invoice) and res.choices[0].message.refusal is None
    again = client.chat.completions.parse(model="gpt-4.1", messages=MESSAGES, response_format=Invoice)
    assert again.choices[0].message.parsed == parsed


def test_openai_parse_pydantic_scripted(mockllm: MockLLM) -> None:
    openai = pytest.importorskip("openai", reason="the official `openai` package is not installed")
    mockllm.upload(SCRIPTED)
    client = openai.OpenAI(base_url=mockllm.base_url("openai"), api_key="sk-test")
    res = client.chat.completions.parse(model="gpt-4.1", messages=MESSAGES, response_format=Invoice)
    assert res.choices[0].message.parsed == Invoice(invoice_id="INV-7", customer_name="Ada", total=42.5, currency="EUR")
    mockllm.verify()


def test_schema_violation_fails_verify(mockllm: MockLLM) -> None:
    openai = pytest.importorskip("openai", reason="the official `openai` package is not installed")
    mockllm.upload(BROKEN)
    client = openai.OpenAI(base_url=mockllm.base_url("openai"), api_key="sk-test")
    schema = {**Invoice.model_json_schema(), "additionalProperties": False}
    response_format = {"type": "json_schema", "json_schema": {"name": "Invoice", "strict": True, "schema": schema}}
    res = client.chat.completions.create(model="gpt-4.1", messages=MESSAGES, response_format=response_format)
    assert res.choices[0].message.content == '{"invoice_id":7}'
    with pytest.raises(MockLLMVerifyError, match=r"(?s)1 schema violation.*/invoice_id: must be string, got number"):
        mockllm.verify()


def test_google_genai_response_schema_parsed(mockllm: MockLLM) -> None:
    genai = pytest.importorskip("google.genai", reason="the official `google-genai` package is not installed")
    client = genai.Client(api_key="g-test", http_options={"base_url": mockllm.url})
    res = client.models.generate_content(model="gemini-2.5-flash", contents="Extract the invoice.",
                                         config={"response_mime_type": "application/json", "response_schema": Invoice})
    assert isinstance(res.parsed, Invoice)
