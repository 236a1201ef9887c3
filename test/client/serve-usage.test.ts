/** `mockllm serve --usage fixed|count` (issue 58 part 4; docs/reference/usage.md): the default responder's usage. */
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { captureCli, serveCli } from "../support/cli";

describe("mockllm serve --usage", () => {
  it("count: OpenAI usage is the tokenizer's count", async () => {
    const serving = await serveCli(["serve", "--port", "0", "--admin-token", "usage-token", "--usage", "count"]);
    try {
      const res = await new OpenAI({ apiKey: "sk", baseURL: `${serving.url}/v1`, maxRetries: 0 }).chat.completions.create({ model: "gpt-4o", messages: [{ role: "user", content: "hi there" }] });
      expect(res.usage!.prompt_tokens).toBe(3 + 3 + encode("user").length + encode("hi there").length);
      expect(res.usage!.completion_tokens).toBe(encode(res.choices[0]!.message.content!).length);
    } finally {
      await serving.stop();
    }
  });

  it("refuses another value", async () => {
    const run = await captureCli(["serve", "--usage", "tokens"]);
    expect(run.code).toBe(2);
    expect(run.err.split("\n")[0]).toContain('--usage must be fixed or count, got "tokens"');
  });
});
