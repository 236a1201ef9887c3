"""How the plugin finds the command that runs mockllm: --mockllm-bin, $MOCKLLM_BIN, the ini option, then the current
environment's mockllm (node_modules/.bin here or above, PATH, a sibling's node_modules), else an error naming each."""

import json
import os
import shlex
from pathlib import Path

import pytest

INNER = '''
def test_x(mockllm, mockllm_server):
    print("COMMAND", mockllm_server.process.command)
    mockllm.upload({"name": "py-bin", "steps": [{"respond": {"text": "found"}}]})
'''


def fake_bin(directory: Path) -> Path:
    """A node_modules/.bin/mockllm in `directory` that runs this repo's mockllm (as npm's bin link would)."""
    path = directory / "node_modules" / ".bin" / "mockllm"
    path.parent.mkdir(parents=True)
    path.write_text(f"#!/bin/sh\nexec {os.environ['MOCKLLM_BIN']} \"$@\"\n")
    path.chmod(0o755)
    return path


def without_mockllm_on_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MOCKLLM_BIN")
    dirs = [d for d in os.environ.get("PATH", "").split(os.pathsep) if d and not (Path(d) / "mockllm").exists()]
    monkeypatch.setenv("PATH", os.pathsep.join(dirs))


def test_the_option_names_the_command_and_wins_over_the_environment(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    good = os.environ["MOCKLLM_BIN"]
    monkeypatch.setenv("MOCKLLM_BIN", "/nonexistent/mockllm")
    pytester.makepyfile(test_inner=INNER)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-s", f"--mockllm-bin={good}")
    result.assert_outcomes(passed=1)
    assert f"COMMAND {shlex.split(good)!r}" in result.stdout.str()


def test_mockllm_bin_still_names_the_command(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_inner=INNER)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-s")
    result.assert_outcomes(passed=1)
    assert f"COMMAND {shlex.split(os.environ['MOCKLLM_BIN'])!r}" in result.stdout.str()


def test_node_modules_bin_in_a_parent_directory(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    link = fake_bin(pytester.path)
    without_mockllm_on_path(monkeypatch)
    sub = pytester.mkdir("tests")
    sub.joinpath("test_inner.py").write_text(INNER)
    monkeypatch.chdir(sub)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-s", str(sub))
    result.assert_outcomes(passed=1)
    assert f"COMMAND {[str(link)]!r}" in result.stdout.str()


def test_node_modules_bin_in_a_sibling_directory(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    link = fake_bin(pytester.mkdir("web"))
    without_mockllm_on_path(monkeypatch)
    app = pytester.mkdir("app")
    app.joinpath("test_inner.py").write_text(INNER)
    monkeypatch.chdir(app)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-s", str(app))
    result.assert_outcomes(passed=1)
    assert f"COMMAND {[str(link)]!r}" in result.stdout.str()


def test_nothing_found_says_what_to_set(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    without_mockllm_on_path(monkeypatch)
    here = pytester.mkdir("alone").joinpath("cwd")  # no siblings (the parent holds other tests' directories)
    here.mkdir()
    here.joinpath("test_inner.py").write_text(INNER)
    monkeypatch.chdir(here)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", str(here))
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        [
            f"*MockLLMError: mockllm: cannot find the mockllm command: no node_modules/.bin/mockllm in {here} or its"
            " parents, none in a subdirectory or a sibling directory, and no mockllm on PATH.*set MOCKLLM_BIN*pass"
            " --mockllm-bin '<command>'*mockllm_bin*--mockllm-url*"
        ]
    )


def test_the_header_names_the_command_and_the_version_it_runs(pytester: pytest.Pytester) -> None:
    # A run that picked another project's mockllm says so at the top (issue 51).
    version = json.loads((Path(__file__).resolve().parents[2] / "package.json").read_text())["version"]
    pytester.makepyfile(test_inner="def test_nothing():\n    pass\n")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)
    command = shlex.join(shlex.split(os.environ["MOCKLLM_BIN"]))
    result.stdout.fnmatch_lines([f"mockllm: mockllm {version} — {command}*"])


def test_the_header_names_a_running_server_and_says_when_none_is_found(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    pytester.makepyfile(test_inner="def test_nothing():\n    pass\n")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--mockllm-url=http://127.0.0.1:9/")
    result.stdout.fnmatch_lines(["mockllm: the running server at http://127.0.0.1:9 (--mockllm-url / $MOCKLLM_URL)"])
    without_mockllm_on_path(monkeypatch)
    here = pytester.mkdir("alone-header").joinpath("cwd")
    here.mkdir()
    here.joinpath("test_inner.py").write_text("def test_nothing():\n    pass\n")
    monkeypatch.chdir(here)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", str(here))
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["mockllm: no mockllm command found (the fixture says where it looked)"])
