/**
 * Usage from the real tokenizer inside workerd (issue 58 part 4): the encoding's dynamic `import()` loads in the
 * Worker and counts a scenario's `"usage": "count"` turn. On both runtimes (`workers`, `node-runtime`).
 */
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { beforeAll, describe, expect, it } from "vitest";
import { chat, upload } from "./helpers";

beforeAll(async () => {
  await upload({ name: "usage-count-int", usage: "count", steps: [{ id: "one", consume: false, respond: { text: "Paris, naturally." } }] });
});

describe('"usage": "count" in the Worker', () => {
  it("prompt and completion tokens are the o200k_base count by the cookbook formula", async () => {
    const res = await chat(
      {
        model: "gpt-4o",
        messages: [
          { role: "system", content: "Be brief." },
          { role: "user", content: "Capital of France?", name: "eve" },
        ],
      },
      "/s/usage-count-int/one",
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as { usage: { prompt_tokens: number; completion_tokens: number } };
    const t = (s: string) => encode(s).length;
    const prompt = 3 + (3 + t("system") + t("Be brief.")) + (3 + t("user") + t("Capital of France?") + t("eve") + 1);
    expect(body.usage).toMatchObject({ prompt_tokens: prompt, completion_tokens: t("Paris, naturally.") });
  });
});
