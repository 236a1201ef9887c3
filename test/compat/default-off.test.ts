// DEFAULT_RESPONDER=off (`mockllm serve --no-default-responder`): a request no rule selects is a provider-shaped 404
// that lists what could have matched, through the official SDKs.
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ DEFAULT_RESPONDER: "off" });
  await h.upload(
    { name: "tl-main", steps: [{ consume: false, respond: { text: "selected" } }] },
    { name: "auto-weather", match: { lastUserMessage: { contains: "weather" } }, steps: [{ consume: false, respond: { text: "auto" } }] },
  );
});
afterAll(() => h?.stop());

describe("DEFAULT_RESPONDER=off", () => {
  it("openai: a 404 NotFoundError naming the scenarios, the auto-selecting ones, and the typo it saw", async () => {
    const openai = new OpenAI({ apiKey: "k", baseURL: `${h.url}/v1`, maxRetries: 0 });
    const err = await openai.chat.completions.create({ model: "gpt-4o", messages: [{ role: "user", content: "tl-mian" }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.NotFoundError);
    const message = (err as InstanceType<typeof OpenAI.NotFoundError>).message;
    expect(message).toContain("mockllm: no scenario selected this request and the default responder is off (DEFAULT_RESPONDER=off).");
    expect(message).toContain('Did you mean scenario "tl-main"? The first user message "tl-mian" names no scenario.');
    expect(message).toMatch(/Scenarios: [a-z0-9, .-]*\bauto-weather\b[a-z0-9, .-]*\btl-main\b/);
    expect(message).toContain("Scenarios whose top-level match was tried and did not hold: auto-weather");
    expect((err as InstanceType<typeof OpenAI.NotFoundError>).headers?.get("x-mockllm-outcome")).toBe("error");
  });

  it("anthropic: the same 404 in Anthropic's shape; selected requests still answer", async () => {
    const anthropic = new Anthropic({ apiKey: "k", baseURL: h.url, maxRetries: 0 });
    const err = await anthropic.messages.create({ model: "claude-sonnet-4-5", max_tokens: 50, messages: [{ role: "user", content: "hello" }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.NotFoundError);
    expect((err as InstanceType<typeof Anthropic.NotFoundError>).error).toMatchObject({ type: "error", error: { type: "not_found_error" } });
    const selected = await anthropic.messages.create({ model: "claude-sonnet-4-5", max_tokens: 50, messages: [{ role: "user", content: "tl-main" }] });
    expect(selected.content).toStrictEqual([{ type: "text", text: "selected" }]);
    const auto = await anthropic.messages.create({ model: "claude-sonnet-4-5", max_tokens: 50, messages: [{ role: "user", content: "weather?" }] });
    expect(auto.content).toStrictEqual([{ type: "text", text: "auto" }]);
  });
});
