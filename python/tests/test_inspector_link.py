"""A pytest run in the inspector: a failed verify() names the signed-in inspector link to its session, and
--mockllm-keep DIR leaves the run's sessions and journals for `mockllm serve --persist DIR`. Runs an inner pytest."""

import re

import pytest
from pytest_mockllm_server import AdminClient
from pytest_mockllm_server.server import ServerProcess, resolve_command

INNER = '''
import json, urllib.request
import pytest

DOC = {"name": "py-keep", "steps": [
    {"id": "greet", "match": {"lastUserMessage": {"contains": "hello"}}, "respond": {"text": "Hi!"}},
    {"id": "bye", "match": {"lastUserMessage": {"contains": "bye"}}, "respond": {"text": "Bye!"}},
]}

def say(mockllm, text):
    req = urllib.request.Request(
        mockllm.base_url("openai") + "/chat/completions",
        data=json.dumps({"model": "gpt-4o-mini", "messages": [{"role": "user", "content": text}]}).encode(),
        headers={"authorization": "Bearer sk-test", "content-type": "application/json"},
    )
    return json.load(urllib.request.urlopen(req))["choices"][0]["message"]["content"]

@pytest.mark.mockllm(scenario="py-keep")
def test_stops_early(mockllm):
    mockllm.upload(DOC)
    assert say(mockllm, "hello") == "Hi!"
    mockllm.verify()

@pytest.mark.mockllm(scenario="py-keep")
def test_full_run(mockllm):
    mockllm.upload(DOC)
    assert say(mockllm, "hello") == "Hi!"
    assert say(mockllm, "bye") == "Bye!"
    assert mockllm.inspector_url() == f"{mockllm.url}/#scenario=py-keep&session={mockllm.session}&key={mockllm.admin.token}"
    mockllm.verify()
'''


def test_failed_verify_links_the_session_and_keep_leaves_the_run_for_serve_persist(pytester: pytest.Pytester, tmp_path) -> None:
    keep = tmp_path / "kept"
    pytester.makepyfile(test_inner=INNER)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", f"--mockllm-keep={keep}")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(
        [
            '*pytest_mockllm_server.MockLLMVerifyError: mockllm verify: FAILED: scenario "py-keep" session "test_stops_early-*" (version *): 1 request; 1 step never used',
            "*inspector: http://127.0.0.1:*/#scenario=py-keep&session=test_stops_early-*&key=mockllm-*",
        ]
    )
    failed = re.search(r"inspector: http://127\.0\.0\.1:\d+/#scenario=py-keep&session=(test_stops_early-[0-9a-f]{6})&key=mockllm-", result.stdout.str())
    assert failed is not None

    later = ServerProcess(resolve_command(None), extra_args=["--persist", str(keep)])
    try:
        admin = AdminClient(later.url, later.token)
        sessions = {s["session"]: s["requests"] for s in admin.sessions("py-keep")}
        assert sorted(sessions.values()) == [1, 2] and failed.group(1) in sessions
        journal = admin.journal("py-keep", failed.group(1))
        assert [(e["seq"], e["step"], e["outcome"]) for e in journal] == [(1, "greet", "response")]
        verdicts = {name: admin.verify("py-keep", name)["ok"] for name in sessions}
        assert sorted(verdicts.values()) == [False, True]
    finally:
        later.stop()


def test_keep_is_refused_with_a_running_server(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_inner="def test_x(mockllm):\n    pass\n")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--mockllm-url=http://127.0.0.1:9", "--mockllm-key=k", "--mockllm-keep=kept")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*MockLLMError: mockllm: --mockllm-keep is for the server the run starts*"])


def test_a_shared_servers_link_leaves_the_key_out() -> None:
    assert AdminClient("https://mock.example.com/", "secret").failure_url("s", "x") == "https://mock.example.com/#scenario=s&session=x"
    assert AdminClient("http://localhost:8787", "t").failure_url("s", "x") == "http://localhost:8787/#scenario=s&session=x&key=t"
    assert AdminClient("http://127.0.0.1:8787", "t").inspector_url() == "http://127.0.0.1:8787/#key=t"
