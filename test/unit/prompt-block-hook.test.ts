/**
 * The `renderPromptBlock` surface hook a provider that refuses a blocked prompt with an HTTP error (Azure OpenAI's 400
 * `content_filter`) will implement: the route answers the prompt block with that error, JSON and stream alike, and the
 * journal records its status; a completion filter stays a rendered 200; surfaces without the hook keep the 200 refusal.
 */
import { describe, expect, it } from "vitest";
import { openaiChat } from "../../src/providers/openai/chat";
import { wireToolCallIds } from "../../src/providers/registry";
import type { ProviderSurface, RenderContext } from "../../src/providers/types";
import type { ChatRequest } from "../../src/providers/openai/chat/wire";
import { renderOutcome } from "../../src/turn/render";
import { statusTable } from "../../src/turn/turn";
import { emptySessionData, MemorySessionStorage } from "../../src/hosts/node/memory";
import { resolveReply } from "../../src/scenario/engine";
import { ScenarioSchema, type Failure } from "../../src/scenario/schema";
import { SessionCore } from "../../src/session/core";
import { req } from "./fixtures";

const blocking: ProviderSurface<ChatRequest> = {
  ...openaiChat,
  renderPromptBlock: (safety, requestId) => ({
    status: 400,
    body: { error: { code: "content_filter", message: safety.message ?? "filtered", innererror: { code: "ResponsibleAIPolicyViolation", categories: safety.categories } } },
    headers: { "x-request-id": requestId },
  }),
};

function answer(surface: ProviderSurface<ChatRequest>, failure: Extract<Failure, { kind: "content_filter" }>, stream: boolean): Promise<Response> {
  const parsed = surface.parse({ model: "gpt-4o", stream, messages: [{ role: "user", content: "x" }] }, new Headers(), { path: "/v1/chat/completions", query: new URLSearchParams() });
  if (!parsed.ok) throw new Error(parsed.error.message);
  const reply = resolveReply(undefined, { respond: { text: "one two three" } }, parsed.request, "seed");
  const ctx: RenderContext<ChatRequest> = { wire: parsed.wire, request: parsed.request, requestId: "req_1", created: 1 };
  return Promise.resolve(renderOutcome(surface, { kind: "failure", failure, reply, attempt: 1 }, ctx, { waitUntil: () => {} }));
}

describe("renderPromptBlock (a provider that refuses a blocked prompt with an error)", () => {
  it("answers on: prompt with the surface's error, JSON and stream; on: completion stays the filtered 200", async () => {
    for (const stream of [false, true]) {
      const res = await answer(blocking, { kind: "content_filter", on: "prompt", categories: ["hate"], message: "No." }, stream);
      expect([res.status, await res.json()]).toEqual([400, { error: { code: "content_filter", message: "No.", innererror: { code: "ResponsibleAIPolicyViolation", categories: ["hate"] } } }]);
    }
    const cut = await answer(blocking, { kind: "content_filter", on: "completion", afterChunks: 1 }, false);
    expect([cut.status, ((await cut.json()) as { choices: { finish_reason: string }[] }).choices[0]!.finish_reason]).toEqual([200, "content_filter"]);
    const plain = await answer(openaiChat, { kind: "content_filter", on: "prompt" }, false);
    expect(plain.status).toBe(200);
  });

  it("the journal records the surface's status for a prompt block, 200 otherwise", () => {
    expect([statusTable(blocking).content_filter_prompt, statusTable(openaiChat).content_filter_prompt]).toEqual([400, undefined]);
    const document = ScenarioSchema.parse({
      name: "cf",
      steps: [
        {
          failures: [
            { kind: "content_filter", on: "prompt" },
            { kind: "content_filter", on: "completion" },
          ],
          respond: { text: "ok" },
        },
      ],
    });
    for (const [statuses, expected] of [
      [statusTable(blocking), [400, 200, 200]],
      [statusTable(openaiChat), [200, 200, 200]],
    ] as const) {
      const core = new SessionCore(new MemorySessionStorage(emptySessionData()), wireToolCallIds);
      for (let i = 0; i < 3; i++) {
        core.next({ scenario: "cf", session: "s", version: "v1", document, request: req(), wire: { method: "POST", path: "/v1/chat/completions", headers: {}, body: {} }, statuses });
      }
      expect(core.requests().map((e) => e.status)).toEqual(expected);
    }
  });
});
