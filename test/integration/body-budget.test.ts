/**
 * Large request bodies served at once (src/http/body-budget.ts): a Worker isolate serves at most 20 MiB of them
 * together — past it a large body is refused unread with the surface's retryable overloaded answer — and a body alone
 * is always served. Node has no such bound. Two 10 MiB bodies held open fill the budget deterministically.
 */
import { describe, expect, it } from "vitest";
import { call, RUNTIME } from "./helpers";

const OPENAI = { authorization: "Bearer sk-test", "content-type": "application/json" };

const HELD_BYTES = 10 * 1024 * 1024;

/**
 * A 10 MiB chat request, its length declared, whose body is sent in two parts, the second (the rest, padding in the
 * message) when `finish` is called: held open until then.
 */
function heldOpen(path = "/v1/chat/completions", headers: Record<string, string> = OPENAI) {
  let finish!: () => void;
  const encoder = new TextEncoder();
  const head = encoder.encode('{"model":"gpt-4o-mini","max_tokens":5,"messages":[{"role":"user","content":"');
  const tail = encoder.encode('"}]}');
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(head);
      finish = () => {
        controller.enqueue(new Uint8Array(HELD_BYTES - head.length - tail.length).fill(0x61));
        controller.enqueue(tail);
        controller.close();
      };
    },
  });
  const answer = call(path, { method: "POST", headers: { ...headers, "content-length": String(HELD_BYTES) }, body, duplex: "half" } as RequestInit);
  return { answer, finish: () => finish() };
}

/** A chat request of about 2 MiB whose length is not declared: its body a stream, sent in 64 KiB parts. */
function undeclared(): Promise<Response> {
  const text = JSON.stringify({ model: "gpt-4o-mini", max_tokens: 5, messages: [{ role: "user", content: "word ".repeat(420_000) }] });
  const bytes = new TextEncoder().encode(text);
  let at = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at + 65_536));
      at += 65_536;
    },
  });
  return call("/v1/chat/completions", { method: "POST", headers: OPENAI, body, duplex: "half" } as RequestInit);
}

/** A 1.5 MB (1.4 MiB) chat request with a declared length. */
function large(path = "/v1/chat/completions", headers: Record<string, string> = OPENAI): Promise<Response> {
  return call(path, { method: "POST", headers, body: JSON.stringify({ model: "gpt-4o-mini", max_tokens: 5, messages: [{ role: "user", content: "word ".repeat(300_000) }] }) });
}

describe("large bodies at once", () => {
  it(RUNTIME === "workers" ? "past 20 MiB in flight: a large body is refused with a retryable overloaded answer, then served" : "on Node: no bound", async () => {
    const a = heldOpen();
    const b = heldOpen();
    // Until both held bodies have reached the handler a large one is served beside them (10 + 1.4 MiB fit).
    let refused = await large();
    for (let tries = 1; RUNTIME === "workers" && refused.status === 200 && tries < 100; tries++) refused = await large();
    if (RUNTIME === "workers") {
      expect(refused.status).toBe(503);
      expect(refused.headers.get("retry-after")).toBe("1");
      expect(refused.headers.get("retry-after-ms")).toBe("1000");
      expect(refused.headers.get("x-should-retry")).toBe("true");
      const body = (await refused.json()) as { error: { message: string; type: string; code: string } };
      expect([body.error.type, body.error.code]).toEqual(["server_error", "server_is_overloaded"]);
      expect(body.error.message).toBe("mockllm: this server is answering other large request bodies (20.0 MiB of the 20.0 MiB it serves at once); yours (1.4 MiB) was not read. Retry in a second.");
      // Anthropic's shape for the same refusal.
      const anthropic = await large("/v1/messages", { "x-api-key": "k", "anthropic-version": "2023-06-01", "content-type": "application/json" });
      expect(anthropic.status).toBe(529);
      expect(((await anthropic.json()) as { error: { type: string } }).error.type).toBe("overloaded_error");
      // A body of unknown length is counted as it arrives: refused where it passes the budget.
      const partly = await undeclared();
      expect(partly.status).toBe(503);
      expect(partly.headers.get("retry-after")).toBe("1");
      expect(((await partly.json()) as { error: { message: string } }).error.message).toMatch(
        /^mockllm: this server is answering other large request bodies \(20\.0 MiB of the 20\.0 MiB it serves at once\); yours \(its length not declared\) was read to 1\.\d MiB and no further\. Retry in a second\.$/,
      );
      // A small body is never counted.
      const small = await call("/v1/chat/completions", { method: "POST", headers: OPENAI, body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "hi" }] }) });
      expect(small.status).toBe(200);
    } else {
      expect(refused.status).toBe(200);
    }
    a.finish();
    expect((await a.answer).status).toBe(200);
    // One held body (10 MiB) and the large one (1.4 MiB) fit: served.
    const served = await large();
    expect(served.status).toBe(200);
    expect(((await served.json()) as { choices: { finish_reason: string }[] }).choices[0]!.finish_reason).toBe("length");
    b.finish();
    expect((await b.answer).status).toBe(200);
    // Alone, a body of unknown length is served whatever its size.
    const alone = await undeclared();
    expect(alone.status).toBe(200);
    expect(((await alone.json()) as { choices: { finish_reason: string }[] }).choices[0]!.finish_reason).toBe("length");
  });
});
