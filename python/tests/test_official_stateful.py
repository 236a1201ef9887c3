"""Conversations, background responses and stored Chat Completions through the official Python `openai` client
(issue 55) and Code Interpreter's containers, as test/compat/openai-conversations.test.ts, openai-background.test.ts,
openai-stored-chat.test.ts and openai-containers.test.ts do with the Node SDK. Skipped when `openai` is missing or too
old to have these resources."""

from typing import Any, Dict, Optional

import pytest
from pytest_mockllm_server import MockLLM

CHAT: Dict[str, Any] = {
    "name": "py-conv-chat",
    "steps": [
        {"id": "one", "match": {"turn": 1, "lastUserMessage": "My name is Ada."}, "respond": {"text": "Hello Ada."}},
        {"id": "two", "match": {"turn": 2, "assistantMessage": "Hello Ada.", "lastUserMessage": "What is my name?"}, "respond": {"text": "Your name is Ada."}},
    ],
}
ANY: Dict[str, Any] = {"name": "py-stateful-any", "steps": [{"consume": False, "respond": {"text": "Kept."}}]}


def client(mockllm: MockLLM, scenario: Optional[str]) -> Any:
    openai = pytest.importorskip("openai", reason="the official `openai` package is not installed")
    base_url = mockllm.base_url("openai", scenario) if scenario else f"{mockllm.url}/v1"
    c = openai.OpenAI(base_url=base_url, api_key="sk-test", max_retries=0)
    if not hasattr(c, "conversations"):
        pytest.skip(f"openai {openai.__version__} has no conversations")
    return c


def test_conversation_crud_and_two_turns(mockllm: MockLLM) -> None:
    mockllm.upload(CHAT)
    c = client(mockllm, "py-conv-chat")
    conv = c.conversations.create(metadata={"topic": "names"})
    assert conv.id.startswith("conv_") and conv.metadata == {"topic": "names"}
    assert c.conversations.update(conv.id, metadata={"topic": "ada"}).metadata == {"topic": "ada"}
    first = c.responses.create(model="gpt-4.1", conversation=conv.id, input="My name is Ada.")
    assert first.output_text == "Hello Ada."
    second = c.responses.create(model="gpt-4.1", conversation=conv.id, input="What is my name?")
    assert second.output_text == "Your name is Ada."
    items = c.conversations.items.list(conv.id, order="asc")
    assert [(i.role, i.content[0].text) for i in items.data] == [
        ("user", "My name is Ada."),
        ("assistant", "Hello Ada."),
        ("user", "What is my name?"),
        ("assistant", "Your name is Ada."),
    ]
    deleted = c.conversations.delete(conv.id)
    assert deleted.deleted is True


def test_background_poll_and_stored_completions(mockllm: MockLLM) -> None:
    mockllm.upload(ANY)
    c = client(mockllm, "py-stateful-any")
    created = c.responses.create(model="gpt-4.1", input="Go.", background=True)
    assert created.status == "queued"
    done = c.responses.retrieve(created.id)
    assert done.status == "completed" and done.output_text == "Kept."
    assert [i.content[0].text for i in c.responses.input_items.list(created.id).data] == ["Go."]

    kept = c.chat.completions.create(model="gpt-4o-mini", store=True, metadata={"run": "py"}, messages=[{"role": "user", "content": "Hi"}])
    c.chat.completions.create(model="gpt-4o-mini", messages=[{"role": "user", "content": "not kept"}])
    listed = c.chat.completions.list(metadata={"run": "py"})
    assert [x.id for x in listed.data] == [kept.id]
    assert [m.content for m in c.chat.completions.messages.list(kept.id).data] == ["Hi"]
    assert c.chat.completions.update(kept.id, metadata={"run": "py2"}).metadata == {"run": "py2"}
    assert c.chat.completions.delete(kept.id).deleted is True


CODE: Dict[str, Any] = {
    "name": "py-code-files",
    "steps": [
        {
            "consume": False,
            "match": {"serverTool": "code_execution"},
            "respond": {
                "serverTools": [{"type": "code_execution", "code": "df.to_csv('out.csv')", "files": [{"name": "out.csv", "content": "a,b\n1,2\n"}]}],
                "text": "Saved [out.csv](sandbox:/mnt/data/out.csv).",
            },
        }
    ],
}


def test_code_interpreter_container_file_download(mockllm: MockLLM) -> None:
    """A container made with ``containers.create``, Code Interpreter run in it, the file its code wrote followed from
    the ``container_file_citation`` to ``containers.files.content.retrieve``."""
    mockllm.upload(CODE)
    c = client(mockllm, "py-code-files")
    if not hasattr(c, "containers"):
        pytest.skip("this openai has no containers")
    box = c.containers.create(name="py-box")
    assert (box.object, box.status, box.name) == ("container", "running", "py-box")
    r = c.responses.create(model="gpt-5", input="save it", tools=[{"type": "code_interpreter", "container": box.id}])
    assert r.output[0].type == "code_interpreter_call" and r.output[0].container_id == box.id
    (cite,) = r.output[1].content[0].annotations
    assert (cite.type, cite.container_id, cite.filename) == ("container_file_citation", box.id, "out.csv")
    assert r.output_text[cite.start_index : cite.end_index] == "sandbox:/mnt/data/out.csv"
    assert c.containers.files.content.retrieve(cite.file_id, container_id=box.id).read() == b"a,b\n1,2\n"
    assert [f.source for f in c.containers.files.list(box.id)] == ["assistant"]
    c.containers.delete(box.id)
