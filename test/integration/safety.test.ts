/**
 * The `content_filter` failure kind (contract section 10, "Safety outcomes") on both runtimes: upload validation of
 * its fields, attempt counting (attempt k answers failures[k-1]), the journal (outcome `failure`, the kind in its
 * reasons, the answered refusal or text so far), verify and coverage, and the WebSocket turns (Responses WebSocket
 * mode, Realtime, Gemini Live).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { admin, chat, upload, userTurn } from "./helpers";
import { openSocket, until, type TestSocket } from "./socket-helpers";

const TEXT = "Step one is to gather the tools.";

beforeAll(async () => {
  await upload(
    {
      name: "cf-attempts",
      steps: [
        {
          id: "guarded",
          failures: [
            { kind: "content_filter", on: "prompt", message: "No." },
            { kind: "content_filter", on: "completion", afterChunks: 2, categories: ["self_harm"] },
          ],
          respond: { text: TEXT },
        },
      ],
    },
    { name: "cf-prompt", steps: [{ consume: false, failures: [{ kind: "content_filter", on: "prompt", message: "I won't." }], respond: { text: TEXT } }] },
    { name: "cf-completion", steps: [{ consume: false, failures: [{ kind: "content_filter", on: "completion", afterChunks: 3 }], respond: { text: TEXT } }] },
  );
}, 60_000);

async function json<T>(res: Promise<Response>): Promise<T> {
  return (await (await res).json()) as T;
}

describe("content_filter in a scenario document", () => {
  it("an unknown category, a missing `on` and a negative afterChunks are upload errors with their JSON paths", async () => {
    const bad = {
      name: "cf-bad",
      steps: [{ failures: [{ kind: "content_filter", on: "prompt", categories: ["violence", "gore"] }, { kind: "content_filter" }, { kind: "content_filter", on: "completion", afterChunks: -1 }] }],
    };
    const res = await admin("/scenarios/cf-bad", { method: "PUT", body: JSON.stringify(bad) });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { issues: { path: string; message: string }[] } };
    expect(body.error.issues.map((i) => i.path).sort()).toEqual(["$.steps[0].failures[0].categories[1]", "$.steps[0].failures[1].on", "$.steps[0].failures[2].afterChunks"].sort());
    expect(body.error.issues.find((i) => i.path.endsWith("categories[1]"))?.message).toContain('"hate"');
  });

  it("attempt k answers failures[k-1]: a refusal, then the text so far, then the answer; journaled as failures with their kind", async () => {
    const answers = [];
    for (let i = 0; i < 3; i++) {
      const res = await chat(userTurn("How do I?"), "/s/cf-attempts/a");
      const body = (await res.json()) as { choices: { message: { content: string | null; refusal: string | null }; finish_reason: string }[] };
      answers.push([res.status, res.headers.get("x-mockllm-outcome"), body.choices[0]!.message.content, body.choices[0]!.message.refusal, body.choices[0]!.finish_reason]);
    }
    expect(answers).toEqual([
      [200, "failure", null, "No.", "stop"],
      [200, "failure", "Step one", null, "content_filter"],
      [200, "response", TEXT, null, "stop"],
    ]);
    const journal = await json<any[]>(admin("/sessions/cf-attempts/a/requests"));
    expect(journal.map((e) => [e.step, e.outcome, e.status, e.reasons, e.canonical.answered?.text])).toEqual([
      ["guarded", "failure", 200, ["attempt 1: scripted content_filter"], "No."],
      ["guarded", "failure", 200, ["attempt 2: scripted content_filter"], "Step one"],
      ["guarded", "response", 200, [], TEXT],
    ]);
    const v = await json<{ ok: boolean; pendingFailures: unknown[] }>(admin("/sessions/cf-attempts/a/verify"));
    expect([v.ok, v.pendingFailures]).toEqual([true, []]);
  });

  it("a refusal the client never retried past is a pending failure in verify, and coverage counts it", async () => {
    await chat(userTurn("How do I?"), "/s/cf-attempts/gave-up");
    const v = await json<{ ok: boolean; pendingFailures: unknown[] }>(admin("/sessions/cf-attempts/gave-up/verify"));
    expect([v.ok, v.pendingFailures]).toEqual([false, [{ id: "guarded", index: 1, served: 1, scripted: 2, last: "attempt 1: scripted content_filter", status: 200 }]]);
    const cov = await json<{ steps: { id: string; attempts: number; failures: number }[] }>(admin("/scenarios/cf-attempts/coverage"));
    expect(cov.steps.map((s) => [s.id, s.attempts, s.failures])).toEqual([["guarded", 4, 3]]);
  });
});

async function socket(path: string, headers: Record<string, string> = { authorization: "Bearer sk-test" }): Promise<TestSocket> {
  const s = await openSocket(path, headers);
  if (s instanceof Response) throw new Error(`refused: ${s.status} ${await s.text()}`);
  return s;
}

describe("content_filter on WebSocket turns", () => {
  it("Responses WebSocket mode: a refusal part for a blocked prompt, response.incomplete for a stopped answer", async () => {
    const s = await socket("/s/cf-prompt/ws1/v1/responses");
    s.send({ type: "response.create", model: "gpt-4.1", input: "How do I?" });
    const refused = await until(s, (m) => m.type === "response.completed" || m.type === "error");
    expect(refused.filter((m) => m.type.startsWith("response.refusal")).map((m) => [m.type, m.delta ?? m.refusal])).toEqual([
      ["response.refusal.delta", "I"],
      ["response.refusal.delta", " won't."],
      ["response.refusal.done", "I won't."],
    ]);
    expect(refused.at(-1).response.output[0].content).toEqual([{ type: "refusal", refusal: "I won't." }]);
    s.close();
    const t = await socket("/s/cf-completion/ws2/v1/responses");
    t.send({ type: "response.create", model: "gpt-4.1", input: "How do I?" });
    const stopped = await until(t, (m) => ["response.completed", "response.incomplete", "error"].includes(m.type));
    expect([stopped.at(-1).type, stopped.at(-1).response.incomplete_details, stopped.at(-1).response.output[0].content[0].text]).toEqual([
      "response.incomplete",
      { reason: "content_filter" },
      "Step one is",
    ]);
    t.close();
  });

  it("Realtime: the response ends incomplete with reason content_filter, after the text so far", async () => {
    const s = await socket("/s/cf-completion/rt/v1/realtime?model=gpt-realtime");
    await s.next();
    s.send({ type: "conversation.item.create", item: { type: "message", role: "user", content: [{ type: "input_text", text: "How do I?" }] } });
    s.send({ type: "response.create" });
    const events = await until(s, (m) => m.type === "response.done");
    const done = events.at(-1).response;
    expect([done.status, done.status_details, done.output[0].status, done.output[0].content[0].text]).toEqual([
      "incomplete",
      { type: "incomplete", reason: "content_filter" },
      "incomplete",
      "Step one is",
    ]);
    s.close();
  });

  it("Gemini Live: turnComplete carries turnCompleteReason (PROHIBITED_INPUT_CONTENT for a blocked prompt)", async () => {
    const s = await socket("/s/cf-prompt/live/ws/google.ai.generativelanguage.v1beta.GenerativeService.BidiGenerateContent?key=k", {});
    s.send({ setup: { model: "models/gemini-2.5-flash", generationConfig: { responseModalities: ["TEXT"] } } });
    expect(await s.next()).toEqual({ setupComplete: {} });
    s.send({ realtimeInput: { text: "How do I?" } });
    const messages = await until(s, (m) => m.serverContent?.turnComplete === true);
    expect(messages.flatMap((m) => m.serverContent?.modelTurn?.parts ?? [])).toEqual([]);
    expect(messages.at(-1).serverContent).toEqual({ turnComplete: true, turnCompleteReason: "PROHIBITED_INPUT_CONTENT" });
    s.close();
  });
});
