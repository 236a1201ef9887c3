"""The pytest plugin (entry point `pytest11: mockllm_server`): options, the marker, the fixtures and the failure report."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Generator, Iterator, Optional

import pytest

from .admin import AdminClient, MockLLMError, MockLLMVerifyError
from .fixture import MockLLM, session_name
from .server import ServerProcess, resolve_command


@dataclass
class MockLLMServer:
    """The mock the run uses: started here (``process`` set) or given by ``--mockllm-url``."""

    url: str
    admin_token: str
    admin: AdminClient
    process: Optional[ServerProcess] = None


_SERVER = pytest.StashKey[MockLLMServer]()
_TEST = pytest.StashKey["tuple[MockLLM, int]"]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("mockllm", "mockllm (a scripted fake LLM server)")
    group.addoption("--mockllm-url", default=None, help="use the mockllm server at this URL instead of starting one (default: $MOCKLLM_URL)")
    group.addoption("--mockllm-key", default=None, help="its admin token or namespace admin key (default: $MOCKLLM_ADMIN_TOKEN)")
    group.addoption(
        "--mockllm-keep", default=None, metavar="DIR",
        help="write the started server's scenarios, sessions and journals to DIR (as serve --persist writes them) "
        "for `mockllm serve --persist DIR` to show in the inspector after the run (default: $MOCKLLM_KEEP)",
    )
    group.addoption(
        "--mockllm-bin", default=None,
        help="command that runs mockllm, split as a shell would (default: $MOCKLLM_BIN, the mockllm_bin ini option, "
        "node_modules/.bin/mockllm here or in a parent directory, mockllm on PATH, a sibling directory's node_modules)",
    )
    parser.addini("mockllm_bin", "command that runs mockllm when $MOCKLLM_BIN is not set (e.g. `node ../bin/mockllm.js`)", default="")
    parser.addini("mockllm_scenarios", "scenario files or directories the started server loads (serve --scenarios)", type="paths", default=[])
    parser.addini("mockllm_start_timeout", "seconds to wait for the started server's ready banner", default="60")


def pytest_report_header(config: pytest.Config) -> str:
    """The run's header line: which mockllm the plugin runs (its command, resolved path and version) or which server
    it uses, so a run that picked up another project's `mockllm` says so at the top (issue 51)."""
    url = config.getoption("mockllm_url") or os.environ.get("MOCKLLM_URL")
    if url:
        return f"mockllm: the running server at {url.rstrip('/')} (--mockllm-url / $MOCKLLM_URL)"
    try:
        command = resolve_command(str(config.getini("mockllm_bin")), config.getoption("mockllm_bin"))
    except MockLLMError:
        return "mockllm: no mockllm command found (the fixture says where it looked)"
    return f"mockllm: {command_version(command)} — {describe_command(command)}"


def command_version(command: "list[str]") -> str:
    """`mockllm --version` of the command, as `mockllm 0.1.0`; what went wrong otherwise."""
    try:
        run = subprocess.run([*command, "--version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as e:
        return f"mockllm of unknown version ({type(e).__name__}: {e})"
    version = run.stdout.strip()
    if run.returncode != 0 or not re.fullmatch(r"\d+\.\d+\.\d+\S*", version):
        return f"not mockllm? `--version` answered {run.returncode}: {(version or run.stderr.strip())[:80]!r}"
    return f"mockllm {version}"


def describe_command(command: "list[str]") -> str:
    """The command as a shell would read it, with the real path of the script it runs when that is a link (npm's
    node_modules/.bin/mockllm) or a bare name on PATH."""
    text = shlex.join(command)
    script = command[-1] if len(command) > 1 and command[-1].endswith(".js") else command[0]
    found = shutil.which(script) if os.sep not in script else script
    if found:
        real = os.path.realpath(found)
        if real != script:
            return f"{text} (→ {real})"
    return text


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", 'mockllm(scenario="name"): the scenario the mockllm fixture uses when a call names none')


@pytest.fixture(scope="session")
def mockllm_server(pytestconfig: pytest.Config) -> Iterator[MockLLMServer]:
    """The run's mockllm: one `mockllm serve --port 0` for the whole session (stopped at the end), or the one
    ``--mockllm-url`` / ``$MOCKLLM_URL`` names."""
    url = pytestconfig.getoption("mockllm_url") or os.environ.get("MOCKLLM_URL")
    keep = pytestconfig.getoption("mockllm_keep") or os.environ.get("MOCKLLM_KEEP")
    if url:
        if keep:
            raise MockLLMError("mockllm: --mockllm-keep is for the server the run starts: a running one (--mockllm-url) keeps its own state")
        key = pytestconfig.getoption("mockllm_key") or os.environ.get("MOCKLLM_ADMIN_TOKEN")
        if not key:
            raise MockLLMError("mockllm: --mockllm-url needs --mockllm-key (or $MOCKLLM_ADMIN_TOKEN): the admin token or an admin key")
        server = MockLLMServer(url.rstrip("/"), key, AdminClient(url, key))
        pytestconfig.stash[_SERVER] = server
        yield server
        return
    files = [str(Path(p)) for p in pytestconfig.getini("mockllm_scenarios")]
    command = resolve_command(str(pytestconfig.getini("mockllm_bin")), pytestconfig.getoption("mockllm_bin"))
    extra = ["--keep-on-exit", str(Path(keep).resolve())] if keep else []
    process = ServerProcess(command, files, timeout=float(pytestconfig.getini("mockllm_start_timeout")), extra_args=extra)
    server = MockLLMServer(process.url, process.token, AdminClient(process.url, process.token), process)
    pytestconfig.stash[_SERVER] = server
    try:
        yield server
    finally:
        process.stop()


@pytest.fixture
def mockllm(request: pytest.FixtureRequest, mockllm_server: MockLLMServer) -> MockLLM:
    """This test's mockllm: a fresh session name, the marker's scenario, base URLs, env(), upload(), journal(),
    verify(), reset()."""
    marker = request.node.get_closest_marker("mockllm")
    scenario = None
    if marker is not None:
        scenario = marker.kwargs.get("scenario", marker.args[0] if marker.args else None)
    mock = MockLLM(mockllm_server.url, mockllm_server.admin, session_name(request.node.name), scenario, mockllm_server.admin_token,
                   mockllm_server.process.command if mockllm_server.process else None)
    offset = mockllm_server.process.log_size() if mockllm_server.process else 0
    request.node.stash[_TEST] = (mock, offset)
    return mock


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, pytest.TestReport, None]:
    """A failing test that used the fixture gets the server's log for its duration and its sessions' verify summaries."""
    outcome = yield
    report = outcome.get_result()
    entry = item.stash.get(_TEST, None)
    if entry is None or not report.failed:
        return
    mock, offset = entry
    server = item.config.stash.get(_SERVER, None)
    if server is not None and server.process is not None:
        report.sections.append(("mockllm server log", server.process.log_since(offset) or "(nothing logged)"))
    if call.excinfo is not None and call.excinfo.errisinstance(MockLLMVerifyError):
        return  # the failure's message is the verify summary already
    for scenario in mock.scenarios_used:
        try:
            summary = str(mock.admin.verify(scenario, mock.session).get("summary", ""))
            summary += f"\n\ninspector: {mock.admin.failure_url(scenario, mock.session)}"
        except MockLLMError as err:
            summary = str(err)
        report.sections.append((f"mockllm verify {scenario}/{mock.session}", summary))
