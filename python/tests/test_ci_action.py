"""scripts/ci-action.sh, the GitHub Action's logic, run as the action runs it: GITHUB_OUTPUT, GITHUB_ENV and
GITHUB_STEP_SUMMARY pointed at files, the verify summaries read from its output."""

import json
import os
import re
import subprocess
import urllib.request
from pathlib import Path
from typing import Dict

import pytest

from wire import openai_headers, post

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "ci-action.sh"
DOC = {"name": "py-ci", "steps": [{"id": "hello", "respond": {"text": "Hello!"}}, {"id": "bye", "respond": {"text": "Bye!"}}]}


def run(step: str, env: Dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", str(SCRIPT), step], env={**os.environ, **env}, capture_output=True, text=True, timeout=120)


def read_pairs(path: Path) -> Dict[str, str]:
    return dict(line.split("=", 1) for line in path.read_text().splitlines())


def github_env(tmp_path: Path, **inputs: str) -> Dict[str, str]:
    for name in ("output", "env", "summary"):
        (tmp_path / name).write_text("")
    return {"RUNNER_TEMP": str(tmp_path), "GITHUB_ACTIONS": "true", "GITHUB_OUTPUT": str(tmp_path / "output"),
            "GITHUB_ENV": str(tmp_path / "env"), "GITHUB_STEP_SUMMARY": str(tmp_path / "summary"), "INPUT_PORT": "0", **inputs}


def chat(base: str) -> int:
    return post(f"{base}/chat/completions", {"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "hi"}]}, openai_headers("sk")).status


def test_start_then_stop_reports_every_session(tmp_path: Path) -> None:
    scenario = tmp_path / "py-ci.json"
    scenario.write_text(json.dumps(DOC))
    env = github_env(tmp_path, INPUT_SCENARIOS=str(scenario), INPUT_ADMIN_TOKEN="ci-token")
    started = run("start", env)
    assert started.returncode == 0, started.stderr
    assert "::add-mask::ci-token" in started.stdout
    outputs = read_pairs(tmp_path / "output")
    url = outputs["url"]
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+", url) and outputs["admin-token"] == "ci-token"
    assert read_pairs(tmp_path / "env") == {
        "MOCKLLM_URL": url, "MOCKLLM_ADMIN_TOKEN": "ci-token", "OPENAI_BASE_URL": f"{url}/v1", "ANTHROPIC_BASE_URL": url,
        "GOOGLE_GEMINI_BASE_URL": url, "OLLAMA_HOST": url, "OPENAI_API_KEY": os.environ.get("OPENAI_API_KEY", "sk-mockllm-test"),
        "ANTHROPIC_API_KEY": os.environ.get("ANTHROPIC_API_KEY", "sk-mockllm-test"), "GEMINI_API_KEY": os.environ.get("GEMINI_API_KEY", "mockllm-test"),
    }

    assert [chat(f"{url}/s/py-ci/good/v1"), chat(f"{url}/s/py-ci/good/v1"), chat(f"{url}/s/py-ci/short/v1")] == [200, 200, 200]

    stopped = run("stop", env)
    assert stopped.returncode == 1
    out = stopped.stdout
    assert 'mockllm verify: ok: scenario "py-ci" session "good" (version ' in out
    assert '::error title=mockllm verify::mockllm verify: FAILED: scenario "py-ci" session "short" (version ' in out
    assert '  - "bye" (step 2) matches any request\n    it would have answered: text "Bye!"' in out
    assert out.endswith("mockllm: 2 sessions, 1 failed verification\n")
    assert "1 session(s) failed verification" in stopped.stderr

    outputs = read_pairs(tmp_path / "output")
    report = Path(outputs["report-dir"])
    assert outputs["failed"] == "1" and report == tmp_path / "mockllm-report"
    good = json.loads((report / "journals" / "py-ci" / "good.json").read_text())
    assert [(e["step"], e["outcome"]) for e in good] == [("hello", "response"), ("bye", "response")]
    assert json.loads((report / "verify" / "py-ci" / "short.json").read_text())["unusedSteps"][0]["id"] == "bye"
    verify_xml = (report / "verify.xml").read_text()
    assert '<testsuite name="mockllm verify" tests="2" failures="1">' in verify_xml
    assert '<testcase classname="mockllm.py-ci" name="good"/>' in verify_xml
    assert '<failure type="unverified" message="mockllm verify: FAILED: scenario &quot;py-ci&quot; session &quot;short&quot;' in verify_xml
    coverage = (report / "coverage" / "py-ci.xml").read_text()
    assert '<testsuite name="py-ci" tests="2" failures="0" errors="0">' in coverage
    assert "| ✅ | `bye` | any request | 1 | 1 | 0 | 0 |" in (tmp_path / "summary").read_text()
    assert '"path":"/s/py-ci/short/v1/chat/completions"' in (report / "server.log").read_text()
    with pytest.raises(OSError):
        urllib.request.urlopen(f"{url}/healthz", timeout=5)


def test_random_token_and_report_only(tmp_path: Path) -> None:
    env = github_env(tmp_path, INPUT_FAIL_ON_UNVERIFIED="false")
    assert run("start", env).returncode == 0
    outputs = read_pairs(tmp_path / "output")
    assert re.fullmatch(r"mockllm-[0-9a-f]{24}", outputs["admin-token"])
    req = urllib.request.Request(f"{outputs['url']}/admin/scenarios/py-ci", data=json.dumps(DOC).encode(), method="PUT",
                                 headers={"authorization": f"Bearer {outputs['admin-token']}", "content-type": "application/json"})
    urllib.request.urlopen(req).close()
    assert chat(f"{outputs['url']}/s/py-ci/one/v1") == 200
    stopped = run("stop", env)
    assert stopped.returncode == 0, stopped.stderr
    assert stopped.stdout.endswith("mockllm: 1 session, 1 failed verification\n")
    assert read_pairs(tmp_path / "output")["failed"] == "1"
    again = run("stop", env)
    assert again.returncode == 1 and "no mockllm started by this job" in again.stderr
