// Issue 19: Chat Completions `n` — the real API's bounds (1…128) and errors, carried to the canonical request.
import { describe, expect, it } from "vitest";
import { parseChatRequest } from "../../src/providers/openai/chat/parse";
import { renderOpenAIError } from "../../src/providers/openai/errors";

const body = (n: unknown) => ({ model: "gpt-4o", messages: [{ role: "user", content: "hi" }], n });

describe("Chat Completions n", () => {
  it("n 2…128 reaches the canonical request as choices; n = 1 and no n leave it out", () => {
    for (const n of [2, 8, 128]) {
      const parsed = parseChatRequest(body(n), new Headers());
      expect(parsed.ok && parsed.request.choices).toBe(n);
    }
    for (const n of [1, null, undefined]) {
      const parsed = parseChatRequest(body(n), new Headers());
      expect(parsed.ok && "choices" in parsed.request).toBe(false);
    }
  });

  it("n above 128 or below 1 is the real API's 400, param n and its code", () => {
    const cases = [
      [129, "Invalid 'n': integer above maximum value. Expected a value <= 128, but got 129 instead.", "integer_above_max_value"],
      [0, "Invalid 'n': integer below minimum value. Expected a value >= 1, but got 0 instead.", "integer_below_min_value"],
      [-3, "Invalid 'n': integer below minimum value. Expected a value >= 1, but got -3 instead.", "integer_below_min_value"],
    ] as const;
    for (const [n, message, code] of cases) {
      const parsed = parseChatRequest(body(n), new Headers());
      expect(parsed.ok).toBe(false);
      if (parsed.ok) continue;
      expect(renderOpenAIError(parsed.error, "req_1")).toMatchObject({
        status: 400,
        body: { error: { message, type: "invalid_request_error", param: "n", code } },
      });
    }
  });
});
