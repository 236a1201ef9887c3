import { describe, expect, it } from "vitest";
import { chat, upload, userTurn } from "./helpers";

describe("one session under concurrent load", () => {
  it("200 concurrent requests against a step with 5 scripted failures: exactly 5 failures, then successes", async () => {
    await upload({
      name: "flaky",
      steps: [
        {
          id: "flaky-step",
          consume: false,
          failures: Array.from({ length: 5 }, () => ({ kind: "rate_limit", retryAfterMs: 0 })),
          respond: { text: "ok" },
        },
      ],
    });
    const responses = await Promise.all(Array.from({ length: 200 }, () => chat(userTurn("hi"), "/s/flaky/load")));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
    expect(statuses.filter((s) => s === 200)).toHaveLength(195);
    await Promise.all(responses.map((r) => r.arrayBuffer()));
  });

  it("50 concurrent sessions of one scenario each see their own steps in order", async () => {
    await upload({
      name: "three-steps",
      steps: [{ respond: { text: "one" } }, { respond: { text: "two" } }, { respond: { text: "three" } }],
    });
    const sessions = Array.from({ length: 50 }, (_, i) => `s-${i}`);
    const texts = await Promise.all(
      sessions.map(async (s) => {
        const out: string[] = [];
        for (let i = 0; i < 3; i++) {
          const res = await chat(userTurn("go"), `/s/three-steps/${s}`);
          const body = (await res.json()) as { choices: { message: { content: string } }[] };
          out.push(body.choices[0]!.message.content);
        }
        return out;
      }),
    );
    for (const t of texts) expect(t).toEqual(["one", "two", "three"]);
  });
});
