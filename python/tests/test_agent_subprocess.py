"""The seed-002 shape: the code under test is another program (an agent CLI) pointed at the mock by env()."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from pytest_mockllm_server import MockLLM

AGENT = Path(__file__).with_name("agent.py")
SCENARIO = {
    "name": "py-agent",
    "systemPromptMustInclude": ["weather bot"],
    "steps": [
        {"id": "ask-tool", "match": {"lastUserMessage": {"contains": "weather"}},
         "failures": [{"kind": "overloaded", "retryAfterMs": 0}],
         "respond": {"toolCalls": [{"name": "get_weather", "arguments": {"city": "Paris"}}]}},
        {"id": "answer", "match": {"toolResult": {"name": "get_weather", "content": {"contains": "sunny"}}},
         "respond": {"text": "It is sunny in Paris, 22 °C."}},
    ],
}


@pytest.mark.mockllm(scenario="py-agent")
def test_agent_cli_through_env(mockllm: MockLLM) -> None:
    mockllm.upload(SCENARIO)
    run = subprocess.run([sys.executable, str(AGENT), "What's the weather in Paris?"], env={**os.environ, **mockllm.env()},
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout == "It is sunny in Paris, 22 °C.\n"
    assert run.stderr == "tool: get_weather({'city': 'Paris'})\n"
    journal = mockllm.journal()
    assert [(e["step"], e["outcome"], e["status"]) for e in journal] == [
        ("ask-tool", "failure", 503), ("ask-tool", "response", 200), ("answer", "response", 200)]
    assert journal[2]["canonical"]["toolResults"][0]["content"] == "22C, sunny in Paris"
    mockllm.verify()


CLAUDE_SCENARIO = {
    "name": "py-claude-code",
    "steps": [
        {"id": "run-echo", "respond": {"toolCalls": [{"name": "Bash", "arguments": {"command": "echo mock-ok", "description": "Print mock-ok"}}]}},
        {"id": "answer", "match": {"toolResult": {"content": {"contains": "mock-ok"}}}, "respond": {"text": "The command printed mock-ok."}},
    ],
}


@pytest.mark.skipif(shutil.which("claude") is None, reason="the Claude Code CLI (`claude`) is not installed")
@pytest.mark.mockllm(scenario="py-claude-code")
def test_claude_code_through_env(mockllm: MockLLM, tmp_path: Path) -> None:
    mockllm.upload(CLAUDE_SCENARIO)
    env = {**os.environ, **mockllm.env(), "HOME": str(tmp_path), "DISABLE_TELEMETRY": "1",
           "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "DISABLE_AUTOUPDATER": "1"}
    run = subprocess.run(["claude", "-p", "run echo", "--allowedTools", "Bash(echo:*)"], env=env, cwd=tmp_path,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert "The command printed mock-ok." in run.stdout
    mockllm.verify()
