// Issue 19: concurrent requests of every kind at a cold isolate (no scenario listing or document cached) must each
// answer, none with a 5xx — including when the request that started a KV read ends (or is cancelled) first.
import { describe, expect, it } from "vitest";
import { admin, call, upload } from "./helpers";

const OPENAI = { authorization: "Bearer sk", "content-type": "application/json" };
const ANTHROPIC = { "x-api-key": "k", "anthropic-version": "2023-06-01", "content-type": "application/json" };
const user = [{ role: "user", content: "hi" }];

/** One of each kind the fuzz runs saw fail, with and without auth. */
function burst(tag: string): { path: string; init: RequestInit }[] {
  const out: { path: string; init: RequestInit }[] = [];
  for (const auth of [true, false]) {
    const o: Record<string, string> = auth ? OPENAI : { "content-type": "application/json" };
    const a: Record<string, string> = auth ? ANTHROPIC : { "content-type": "application/json" };
    out.push(
      { path: "/v1/models", init: { headers: o } },
      { path: "/s/cold-known/v1/models", init: { headers: o } },
      { path: `/s/cold-known/${tag}/v1/models`, init: { headers: o } },
      { path: "/s/cold-known/api/tags", init: {} },
      { path: "/api/tags", init: {} },
      { path: "/v1beta/models?key=k", init: {} },
      { path: `/s/rb-nope-${tag}/fz-8/v1/responses`, init: { method: "POST", headers: o, body: JSON.stringify({ model: "m", input: "hi" }) } },
      { path: `/s/nope-${tag}/fz/v1/messages`, init: { method: "POST", headers: a, body: JSON.stringify({ model: "m", max_tokens: 5, messages: user }) } },
      { path: `/s/nope-${tag}/v1/embeddings`, init: { method: "POST", headers: o, body: JSON.stringify({ model: "m", input: "hi" }) } },
      { path: `/s/nope-${tag}/fz/v1/chat/completions`, init: { method: "POST", headers: o, body: JSON.stringify({ model: "m", messages: user }) } },
      { path: "/v1/chat/completions", init: { method: "POST", headers: o, body: JSON.stringify({ model: "m", messages: user }) } },
      { path: "/api/chat", init: { method: "POST", body: JSON.stringify({ model: "m", messages: user, stream: false }) } },
    );
  }
  return out;
}

/** The status, or what went wrong, within `ms`. */
async function answer(path: string, init: RequestInit, ms = 15_000): Promise<string> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<string>((resolve) => (timer = setTimeout(() => resolve("no answer within 15 s"), ms)));
  const res = (async () => {
    try {
      const r = await call(path, init);
      const text = await r.text();
      return r.status >= 500 ? `${r.status} ${text.slice(0, 160)}` : "ok";
    } catch (e) {
      return `threw ${(e as Error).message}`;
    }
  })();
  try {
    return await Promise.race([res, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

describe("a cold isolate under concurrent requests of every kind (issue 19)", () => {
  it("answers every request, none with a 5xx, while some requests are cancelled as soon as they start", async () => {
    await upload({ name: "cold-known", match: { model: "cold-model" }, steps: [{ consume: false, respond: { text: "hi" } }] });
    const failures: string[] = [];
    for (let round = 0; round < 5; round++) {
      // An admin write empties the per-isolate caches: the next requests are the first to read KV.
      expect((await admin(`/scenarios/cold-scratch-${round}`, { method: "PUT", body: JSON.stringify({ name: `cold-scratch-${round}`, steps: [{ respond: { text: "x" } }] }) })).status).toBe(200);
      const requests = burst(`r${round}`);
      // Cancelled first: each of these starts the KV reads the others would wait on, then goes away.
      const cancelled = requests.map(({ path, init }, i) => {
        const ctl = new AbortController();
        const p = call(path, { ...init, signal: ctl.signal }).then(
          (r) => r.arrayBuffer(),
          () => undefined,
        );
        setTimeout(() => ctl.abort(), i % 4);
        return p.catch(() => undefined);
      });
      const results = await Promise.all(requests.map(({ path, init }) => answer(path, init).then((r) => `${init.method ?? "GET"} ${path} ${JSON.stringify(init.headers ?? {})}: ${r}`)));
      await Promise.all(cancelled);
      failures.push(...results.filter((r) => !r.endsWith(": ok")).map((r) => `round ${round}: ${r}`));
    }
    expect(failures).toEqual([]);
  });
});
