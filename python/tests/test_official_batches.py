"""Files and batches through the official Python clients (contract section 11), against the mock the pytest-mockllm
fixture starts (the Node runtime): ``openai`` files create/list/retrieve/content/delete and a chat batch scripted per
``custom_id`` (one line a scripted 429) polled to ``completed``, its output and error files read line by line;
``anthropic`` ``messages.batches`` create → poll → ``results()`` (succeeded and errored), cancel, delete; ``openai``'s
``uploads.upload_file_chunked``; a file ``anthropic``'s code execution wrote, downloaded.
scripts/test-python.sh installs the clients when pip can reach them; each test skips otherwise."""

import json
from typing import Any, Dict, List

import pytest
from pytest_mockllm_server import MockLLM

OPENAI_BATCH: Dict[str, Any] = {
    "name": "py-batch",
    "steps": [
        {"id": "a", "match": {"customId": "a"}, "respond": {"text": "Answer A", "usage": {"inputTokens": 5, "outputTokens": 2}}},
        {"id": "b", "match": {"customId": "b"}, "failures": [{"kind": "rate_limit"}], "respond": {"text": "never"}},
    ],
}

ANTHROPIC_BATCH: Dict[str, Any] = {
    "name": "py-msgbatch",
    "steps": [
        {"id": "ok", "match": {"customId": "ok"}, "respond": {"text": "Batched hello"}},
        {"id": "busy", "match": {"customId": "busy"}, "failures": [{"kind": "overloaded"}], "respond": {"text": "never"}},
    ],
}


def _lines(text: str) -> List[Dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines() if line]


def test_openai_upload_file_chunked(mockllm: MockLLM, tmp_path: Any) -> None:
    """``uploads.upload_file_chunked`` (create, a part per ``part_size`` bytes, complete with the parts' order and the
    caller's ``md5``) makes a file whose content is the bytes sent; a wrong ``md5`` is refused."""
    openai = pytest.importorskip("openai", reason="the official `openai` package is not installed")
    import hashlib

    mockllm.upload(OPENAI_BATCH)
    client = openai.OpenAI(base_url=mockllm.base_url("openai", "py-batch"), api_key="sk-test", max_retries=0)
    data = bytes(range(256)) * 40  # 10,240 bytes: three parts of 4,096
    path = tmp_path / "chunks.bin"
    path.write_bytes(data)
    upload = client.uploads.upload_file_chunked(
        file=path, mime_type="application/octet-stream", purpose="user_data", part_size=4096, md5=hashlib.md5(data).hexdigest()
    )
    assert (upload.object, upload.status, upload.bytes, upload.filename) == ("upload", "completed", 10240, "chunks.bin")
    assert upload.file is not None and upload.file.bytes == 10240
    assert client.files.content(upload.file.id).content == data

    with pytest.raises(openai.BadRequestError) as refused:
        client.uploads.upload_file_chunked(file=b"abc", filename="a.txt", bytes=3, mime_type="text/plain", purpose="user_data", md5="0" * 32)
    assert refused.value.body["param"] == "md5"


def test_openai_files_and_batches(mockllm: MockLLM) -> None:
    openai = pytest.importorskip("openai", reason="the official `openai` package is not installed")
    mockllm.upload(OPENAI_BATCH)
    client = openai.OpenAI(base_url=mockllm.base_url("openai", "py-batch"), api_key="sk-test", max_retries=0)

    note = client.files.create(file=("note.txt", b"exact \x00 bytes"), purpose="user_data")
    assert (note.object, note.purpose, note.filename, note.bytes) == ("file", "user_data", "note.txt", 13)
    assert client.files.retrieve(note.id).id == note.id
    assert client.files.content(note.id).content == b"exact \x00 bytes"
    assert note.id in [f.id for f in client.files.list(purpose="user_data")]
    assert client.files.delete(note.id).deleted is True
    with pytest.raises(openai.NotFoundError):
        client.files.retrieve(note.id)

    lines = [
        {"custom_id": cid, "method": "POST", "url": "/v1/chat/completions",
         "body": {"model": "gpt-4o-mini", "messages": [{"role": "user", "content": cid}]}}
        for cid in ("a", "b")
    ]
    source = client.files.create(file=("in.jsonl", "\n".join(json.dumps(line) for line in lines).encode()), purpose="batch")
    batch = client.batches.create(input_file_id=source.id, endpoint="/v1/chat/completions", completion_window="24h", metadata={"job": "py"})
    assert batch.status == "validating"
    for _ in range(5):
        batch = client.batches.retrieve(batch.id)
        if batch.status == "completed":
            break
    assert batch.status == "completed"
    assert (batch.request_counts.total, batch.request_counts.completed, batch.request_counts.failed) == (2, 1, 1)
    [out] = _lines(client.files.content(batch.output_file_id).text)
    assert out["custom_id"] == "a" and out["response"]["status_code"] == 200
    assert out["response"]["body"]["choices"][0]["message"]["content"] == "Answer A"
    [err] = _lines(client.files.content(batch.error_file_id).text)
    assert err["custom_id"] == "b" and err["response"]["status_code"] == 429
    assert [(e["step"], e["batch"]["customId"]) for e in mockllm.journal("py-batch")] == [("a", "a"), ("b", "b")]


def test_anthropic_message_batches(mockllm: MockLLM) -> None:
    anthropic = pytest.importorskip("anthropic", reason="the official `anthropic` package is not installed")
    mockllm.upload(ANTHROPIC_BATCH)
    client = anthropic.Anthropic(base_url=mockllm.base_url("anthropic", "py-msgbatch"), api_key="sk-ant-test", max_retries=0)
    params = {"model": "claude-sonnet-4-6", "max_tokens": 50, "messages": [{"role": "user", "content": "hi"}]}

    batch = client.messages.batches.create(requests=[{"custom_id": "ok", "params": params}, {"custom_id": "busy", "params": params}])
    assert batch.processing_status == "in_progress"
    for _ in range(5):
        batch = client.messages.batches.retrieve(batch.id)
        if batch.processing_status == "ended":
            break
    assert batch.processing_status == "ended"
    assert (batch.request_counts.succeeded, batch.request_counts.errored) == (1, 1)
    results = {r.custom_id: r.result for r in client.messages.batches.results(batch.id)}
    assert results["ok"].type == "succeeded" and results["ok"].message.content[0].text == "Batched hello"
    assert results["busy"].type == "errored" and results["busy"].error.error.type == "overloaded_error"
    assert client.messages.batches.delete(batch.id).type == "message_batch_deleted"

    other = client.messages.batches.create(requests=[{"custom_id": "later", "params": params}])
    assert client.messages.batches.cancel(other.id).processing_status in ("canceling", "ended")
    with pytest.raises(anthropic.NotFoundError):
        client.messages.batches.retrieve("msgbatch_01nope")


CODE_FILES: Dict[str, Any] = {
    "name": "py-code-files-anthropic",
    "steps": [
        {
            "consume": False,
            "match": {"serverTool": "code_execution"},
            "respond": {
                "serverTools": [{"type": "code_execution", "code": "python plot.py", "files": [{"name": "out.csv", "content": "a,b\n1,2\n"}]}],
                "text": "Saved out.csv.",
            },
        }
    ],
}


def test_anthropic_code_execution_file_download(mockllm: MockLLM) -> None:
    """Code execution's bash form under ``code_execution_20250825``: the output block names a Files API file that
    ``beta.files.download`` returns byte for byte; the message carries its ``container``."""
    anthropic = pytest.importorskip("anthropic", reason="the official `anthropic` package is not installed")
    mockllm.upload(CODE_FILES)
    client = anthropic.Anthropic(base_url=mockllm.base_url("anthropic", "py-code-files-anthropic"), api_key="sk-ant-test", max_retries=0)
    m = client.beta.messages.create(
        model="claude-opus-4-8",
        max_tokens=1024,
        messages=[{"role": "user", "content": "plot"}],
        tools=[{"type": "code_execution_20250825", "name": "code_execution"}],
        betas=["code-execution-2025-08-25", "files-api-2025-04-14"],
    )
    assert [b.type for b in m.content] == ["server_tool_use", "bash_code_execution_tool_result", "text"]
    assert m.content[0].name == "bash_code_execution" and m.content[0].input == {"command": "python plot.py"}
    (output,) = m.content[1].content.content
    assert output.type == "bash_code_execution_output"
    assert m.container is not None and m.container.id.startswith("container_011C")
    meta = client.beta.files.retrieve_metadata(output.file_id)
    assert (meta.filename, meta.mime_type, meta.size_bytes, meta.downloadable) == ("out.csv", "text/csv", 8, True)
    assert client.beta.files.download(output.file_id).read() == b"a,b\n1,2\n"
