"""The fixture's own contract: the marker, session names, base URLs, env(), uploads, reset."""

import json
from pathlib import Path

import pytest
from pytest_mockllm_server import MockLLM, MockLLMError, MockLLMServer

from wire import openai_headers, post

DOC = {"name": "py-hello", "steps": [{"id": "hello", "respond": {"text": "Hello!"}}]}


@pytest.mark.mockllm(scenario="py-hello")
def test_marker_names_the_scenario(mockllm: MockLLM, mockllm_server: MockLLMServer) -> None:
    assert mockllm.scenario == "py-hello"
    assert mockllm.session.startswith("test_marker_names_the_scenario-") and len(mockllm.session) == len("test_marker_names_the_scenario-") + 6
    root = f"{mockllm_server.url}/s/py-hello/{mockllm.session}"
    assert [mockllm.base_url(p) for p in ("openai", "anthropic", "gemini", "ollama")] == [f"{root}/v1", root, root, root]
    assert mockllm.base_url("openai", scenario="other") == f"{mockllm_server.url}/s/other/{mockllm.session}/v1"
    assert mockllm.env() == {
        "OPENAI_BASE_URL": f"{root}/v1", "OPENAI_API_KEY": "sk-mockllm-test",
        "ANTHROPIC_BASE_URL": root, "ANTHROPIC_API_KEY": "sk-mockllm-test",
        "GOOGLE_GEMINI_BASE_URL": root, "GEMINI_API_KEY": "sk-mockllm-test", "GOOGLE_API_KEY": "sk-mockllm-test",
        "OLLAMA_HOST": root,
        "MOCKLLM_URL": mockllm_server.url, "MOCKLLM_SCENARIO": "py-hello", "MOCKLLM_SESSION": mockllm.session,
    }


def test_each_test_gets_its_own_session(mockllm: MockLLM, request: pytest.FixtureRequest) -> None:
    assert mockllm.session.startswith("test_each_test_gets_its_own_session-")
    assert mockllm.scenario is None
    with pytest.raises(MockLLMError, match="no scenario for this test"):
        mockllm.base_url("openai")
    with pytest.raises(MockLLMError, match='unknown provider "bedrock"'):
        mockllm.base_url("bedrock", scenario="x")


def test_upload_a_file_then_reset(mockllm: MockLLM, tmp_path: Path) -> None:
    path = tmp_path / "hello.json"
    path.write_text(json.dumps(DOC))
    result = mockllm.upload(path)
    assert result["name"] == "py-hello" and len(result["version"]) == 16
    assert mockllm.scenario == "py-hello"  # the first upload names the test's scenario
    url = f"{mockllm.base_url('openai')}/chat/completions"
    body = {"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "hi"}]}
    assert post(url, body, openai_headers("sk")).json()["choices"][0]["message"]["content"] == "Hello!"
    used_up = post(url, body, openai_headers("sk"))
    assert used_up.status == 400 and "all 1 steps are used" in used_up.json()["error"]["message"]
    assert [e["outcome"] for e in mockllm.journal()] == ["response", "mismatch"]
    mockllm.reset()
    assert mockllm.journal() == []
    assert post(url, body, openai_headers("sk")).status == 200
    mockllm.verify()


def test_invalid_upload_lists_each_problem(mockllm: MockLLM) -> None:
    with pytest.raises(MockLLMError) as err:
        mockllm.upload({"name": "py-bad", "steps": [{"respond": {"txt": "typo"}}]})
    assert err.value.status == 400
    assert "$.steps[0].respond" in str(err.value) and 'did you mean "text"' in str(err.value)
    with pytest.raises(MockLLMError, match="cannot read scenario file"):
        mockllm.upload("/nonexistent/scenario.json")


@pytest.mark.mockllm(scenario="py-optional")
def test_verify_allows_optional_steps(mockllm: MockLLM) -> None:
    mockllm.upload({"name": "py-optional", "steps": [{"id": "hello", "respond": {"text": "Hi"}}, {"id": "small-talk", "respond": {"text": "Nice day."}}]})
    assert post(f"{mockllm.base_url('openai')}/chat/completions", {"model": "m", "messages": [{"role": "user", "content": "hi"}]}, openai_headers("sk")).status == 200
    with pytest.raises(AssertionError, match='"small-talk" \\(step 2\\)'):
        mockllm.verify()
    assert mockllm.verify(allow_unused=["small-talk"])["ok"] is True


@pytest.mark.mockllm(scenario="py-agent-cli")
def test_env_for_writes_the_cli_config(mockllm: MockLLM, tmp_path: Path) -> None:
    result = mockllm.env_for("gemini", write=tmp_path)
    root = f"{mockllm.url}/s/py-agent-cli/{mockllm.session}"
    assert result["env"] == {
        "HOME": str(tmp_path), "GEMINI_CLI_HOME": str(tmp_path), "GOOGLE_GEMINI_BASE_URL": root,
        "GEMINI_API_KEY": "sk-mockllm-agent", "GEMINI_CLI_TRUST_WORKSPACE": "true", "GEMINI_TELEMETRY_ENABLED": "false"}
    settings = json.loads((tmp_path / ".gemini" / "settings.json").read_text())
    assert settings["security"]["auth"] == {"selectedType": "gemini-api-key"}
    codex = mockllm.env_for("codex", websocket=True)
    assert codex["env"]["MOCKLLM_API_KEY"] == "sk-mockllm-agent"
    assert 'supports_websockets = true' in codex["files"][0]["content"]
    with pytest.raises(MockLLMError, match='unknown CLI "cursor"'):
        mockllm.env_for("cursor")
