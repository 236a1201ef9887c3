"""What a suite sees when a script is not followed: verify() fails the test with the summary, and a failing test's
report carries the server's log for its duration. Runs an inner pytest in a subprocess."""

import os
import re
import urllib.request

import pytest
from pytest_mockllm_server import MockLLMServer

INNER = '''
import json, urllib.request
import pytest

DOC = {"name": "py-two-steps", "steps": [
    {"id": "greet", "match": {"lastUserMessage": {"contains": "hello"}}, "respond": {"text": "Hi!"}},
    {"id": "answer", "match": {"toolResult": {"name": "get_weather"}}, "respond": {"text": "Sunny."}},
]}

@pytest.mark.mockllm(scenario="py-two-steps")
def test_agent_stops_early(mockllm):
    mockllm.upload(DOC)
    req = urllib.request.Request(
        mockllm.base_url("openai") + "/chat/completions",
        data=json.dumps({"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "hello"}]}).encode(),
        headers={"authorization": "Bearer sk-test", "content-type": "application/json"},
    )
    assert json.load(urllib.request.urlopen(req))["choices"][0]["message"]["content"] == "Hi!"
    mockllm.verify()

def test_passes(mockllm):
    mockllm.upload(DOC)
    mockllm.reset()
'''


def test_verify_fails_with_the_summary_and_the_server_log(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_inner=INNER)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, failed=1)
    out = result.stdout.str()
    result.stdout.fnmatch_lines(
        [
            "*pytest_mockllm_server.MockLLMVerifyError: mockllm verify: FAILED: scenario \"py-two-steps\" session \"test_agent_stops_early-*\" (version *): 1 request; 1 step never used",
            "*Steps never used (1 of 2):",
            '*- "answer" (step 2) matches toolResult { name "get_weather" }',
            '*it would have answered: text "Sunny."',
            "*- mockllm server log -*",
            '*{"mockllm":"request","method":"POST","path":"/s/py-two-steps/test_agent_stops_early-*/v1/chat/completions","status":200,"outcome":"response"*',
        ]
    )
    # The log section is the failing test's own slice, and the server was stopped at the end of the run.
    log = out.split("- mockllm server log -")[1].split("short test summary")[0]
    assert log.count('"outcome":"response"') == 1 and "/reset" not in log
    url = re.search(r"MockLLM\(url='(http://[^']+)'", out)
    assert url is not None
    with pytest.raises(OSError):
        urllib.request.urlopen(f"{url.group(1)}/healthz", timeout=5)


def test_running_mock_by_url(pytester: pytest.Pytester, mockllm_server: MockLLMServer) -> None:
    """--mockllm-url and --mockllm-key: the inner run uses this run's server instead of starting its own."""
    pytester.makepyfile(
        test_inner='''
import pytest
from pytest_mockllm_server import MockLLMError

def test_url(mockllm):
    assert mockllm.url == "%s"
    mockllm.upload({"name": "py-by-url", "steps": [{"respond": {"text": "ok"}}]})
    assert mockllm.scenario == "py-by-url"
    with pytest.raises(MockLLMError) as err:  # a session that never ran is not an empty journal (contract section 10)
        mockllm.journal()
    assert err.value.code == "session_not_run"
'''
        % mockllm_server.url
    )
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", f"--mockllm-url={mockllm_server.url}", f"--mockllm-key={mockllm_server.admin_token}")
    result.assert_outcomes(passed=1)
    sessions = [s["session"] for s in mockllm_server.admin.sessions("py-by-url")]
    assert sessions == []  # uploading and reading a journal start no session


def test_wrong_key_is_a_clear_error(pytester: pytest.Pytester, mockllm_server: MockLLMServer) -> None:
    pytester.makepyfile(test_inner="def test_x(mockllm):\n    mockllm.upload({'name': 'py-x', 'steps': []})\n")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", f"--mockllm-url={mockllm_server.url}", "--mockllm-key=wrong")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([f"*pytest_mockllm_server.MockLLMError: mockllm: PUT {mockllm_server.url}/admin/scenarios/py-x: 401 *"])


def test_ini_options_start_a_server_with_scenario_files(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    """mockllm_bin names the command when $MOCKLLM_BIN is unset; mockllm_scenarios are loaded by the started server."""
    pytester.makeini(f"[pytest]\nmockllm_bin = {os.environ['MOCKLLM_BIN']}\nmockllm_scenarios =\n    scenarios\n")
    pytester.mkdir("scenarios").joinpath("py-file.json").write_text('{"name": "py-file", "steps": [{"respond": {"text": "From a file."}}]}')
    pytester.makepyfile(
        test_inner='''
import json, urllib.request
import pytest

@pytest.mark.mockllm(scenario="py-file")
def test_file_scenario(mockllm, mockllm_server):
    assert mockllm_server.process is not None
    listed = {s["name"]: s["source"] for s in mockllm.admin.request("GET", "/admin/scenarios")}
    assert listed["py-file"] == "file"
    req = urllib.request.Request(mockllm.base_url("ollama") + "/api/chat", data=json.dumps(
        {"model": "llama3.2", "stream": False, "messages": [{"role": "user", "content": "hi"}]}).encode())
    assert json.load(urllib.request.urlopen(req))["message"]["content"] == "From a file."
    mockllm.verify()
'''
    )
    monkeypatch.delenv("MOCKLLM_BIN")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)


def test_a_command_that_fails_is_a_clear_error(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    pytester.makepyfile(test_inner="def test_x(mockllm):\n    pass\n")
    monkeypatch.setenv("MOCKLLM_BIN", f"{os.environ['MOCKLLM_BIN']} --no-such-flag")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*MockLLMError: mockllm: `* --no-such-flag serve` exited (*):*"])


NEVER_RAN = '''
import pytest
from pytest_mockllm_server import MockLLMError

@pytest.mark.mockllm(scenario="py-never")
def test_never_called(mockllm):
    mockllm.upload({"name": "py-never", "steps": [{"id": "hi", "respond": {"text": "Hi!"}}]})
    mockllm.reset()  # a fresh session: answered, and nothing is created
    with pytest.raises(MockLLMError) as err:
        mockllm.journal()
    assert err.value.status == 404 and err.value.code == "session_not_run"
    assert "has not run: no request reached /s/py-never/" in str(err.value)
    mockllm.verify()
'''


def test_verify_of_a_session_that_never_ran_fails_saying_so(pytester: pytest.Pytester) -> None:
    """Issue 37: a session no request reached fails verify() with "never ran", not an empty result."""
    pytester.makepyfile(test_inner=NEVER_RAN)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            '*pytest_mockllm_server.MockLLMVerifyError: mockllm verify: FAILED: session "test_never_called-*" of scenario "py-never" never ran: '
            "no request reached /s/py-never/test_never_called-*; is the client pointed at this scenario and session?",
        ]
    )
