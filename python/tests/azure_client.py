"""The official Python `openai` client's `AzureOpenAI`, pointed at a scenario's session on the running mockllm: the one
helper the Azure test files share. Skips the calling test when `openai` is missing."""

from typing import Any

import pytest
from pytest_mockllm_server import MockLLM


def azure(mockllm: MockLLM, scenario: str, api_version: str, **kw: Any) -> Any:
    openai = pytest.importorskip("openai", reason="the official `openai` package is not installed")
    endpoint = f"{mockllm.url}/s/{scenario}/{mockllm.session}"
    return openai.AzureOpenAI(azure_endpoint=endpoint, api_key="azure-key", api_version=api_version, **kw)
