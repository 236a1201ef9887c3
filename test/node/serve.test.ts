// The Node runtime's own behaviour beyond the shared suites: --persist across restarts, --scenarios reloads,
// client disconnects and close() ending open streams.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { Agent, createServer, request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import OpenAI, { toFile } from "openai";
import { afterAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../src/hosts/node/server";
import { until } from "../support/until";

const TOKEN = "node-test-token";
const dirs: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "mockllm-node-"));
  dirs.push(dir);
  return dir;
}
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

function admin(server: RunningServer, path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${server.url}/admin${path}`, { ...init, headers: { authorization: `Bearer ${TOKEN}`, ...init.headers } });
}

async function chatText(server: RunningServer, prefix: string, text = "hi"): Promise<string | null | undefined> {
  const openai = new OpenAI({ apiKey: "k", baseURL: `${server.url}${prefix}/v1`, maxRetries: 0 });
  const res = await openai.chat.completions.create({ model: "gpt-4o", messages: [{ role: "user", content: text }] });
  return res.choices[0]?.message.content;
}

describe("Node runtime: --persist", () => {
  it("keeps uploads, sessions (steps used, attempts, journal) and stored responses across a restart", async () => {
    const dir = await tempDir();
    const doc = {
      name: "persisted",
      steps: [
        { id: "first", failures: [{ kind: "rate_limit" }], respond: { text: "one" } },
        { id: "second", respond: { text: "two" } },
      ],
    };
    const a = await startServer({ adminToken: TOKEN, persist: dir });
    expect((await admin(a, "/scenarios/persisted", { method: "PUT", body: JSON.stringify(doc) })).status).toBe(200);
    const openai = new OpenAI({ apiKey: "k", baseURL: `${a.url}/s/persisted/run-1/v1`, maxRetries: 1 });
    const first = await openai.chat.completions.create({ model: "gpt-4o", messages: [{ role: "user", content: "hi" }] });
    expect(first.choices[0]?.message.content).toBe("one");
    const stored = await new OpenAI({ apiKey: "k", baseURL: `${a.url}/v1` }).responses.create({ model: "gpt-4o", input: "remember me" });
    await a.close();

    const b = await startServer({ adminToken: TOKEN, persist: dir });
    try {
      const list = (await (await admin(b, "/scenarios")).json()) as { name: string; source: string }[];
      expect(list.find((s) => s.name === "persisted")).toMatchObject({ source: "kv" });
      const state = (await (await admin(b, "/sessions/persisted/run-1")).json()) as { steps: { id: string; used: boolean; attempts: number }[]; requests: number };
      expect(state.steps.map((s) => [s.id, s.used, s.attempts])).toStrictEqual([
        ["first", true, 2],
        ["second", false, 0],
      ]);
      expect(state.requests).toBe(2);
      const journal = (await (await admin(b, "/sessions/persisted/run-1/requests")).json()) as { seq: number; outcome: string }[];
      expect(journal.map((e) => [e.seq, e.outcome])).toStrictEqual([
        [1, "failure"],
        [2, "response"],
      ]);
      // The session goes on where it stopped: the next request gets the second step, journaled as seq 3.
      expect(await chatText(b, "/s/persisted/run-1")).toBe("two");
      const again = await new OpenAI({ apiKey: "k", baseURL: `${b.url}/v1` }).responses.retrieve(stored.id);
      expect(again.output_text).toBe(stored.output_text);
    } finally {
      await b.close();
    }
  });

  it("keeps files, batches and vector stores across a restart (DIR/objects), as R2 keeps them on a Worker", async () => {
    const dir = await tempDir();
    const a = await startServer({ adminToken: TOKEN, persist: dir });
    const c = new OpenAI({ apiKey: "k", baseURL: `${a.url}/v1`, maxRetries: 0 });
    const bytes = Buffer.from([0, 1, 2, 250, 255, 10]);
    const data = await c.files.create({ file: await toFile(bytes, "data.bin"), purpose: "user_data" });
    const input = `${JSON.stringify({ custom_id: "a", method: "POST", url: "/v1/chat/completions", body: { model: "gpt-4o", messages: [{ role: "user", content: "hi" }] } })}\n`;
    const inputFile = await c.files.create({ file: await toFile(Buffer.from(input), "in.jsonl"), purpose: "batch" });
    const batch = await c.batches.create({ input_file_id: inputFile.id, endpoint: "/v1/chat/completions", completion_window: "24h" });
    const done = await c.batches.retrieve(batch.id);
    expect(done.status).toBe("completed");
    const output = await (await c.files.content(done.output_file_id!)).text();
    const docs = await c.files.create({ file: await toFile(Buffer.from("Cats sleep sixteen hours a day."), "cats.txt"), purpose: "assistants" });
    const vs = await c.vectorStores.create({ name: "pets", file_ids: [docs.id] });
    await a.close();

    const b = await startServer({ adminToken: TOKEN, persist: dir });
    try {
      const d = new OpenAI({ apiKey: "k", baseURL: `${b.url}/v1`, maxRetries: 0 });
      expect(await d.files.retrieve(data.id)).toStrictEqual(data);
      expect([...Buffer.from(await (await d.files.content(data.id)).arrayBuffer())]).toStrictEqual([...bytes]);
      const listed = (await d.files.list()).data.map((f) => f.id);
      expect(listed.sort()).toStrictEqual([data.id, inputFile.id, docs.id, done.output_file_id!].sort());
      expect(await d.batches.retrieve(batch.id)).toStrictEqual(done);
      expect(await (await d.files.content(done.output_file_id!)).text()).toBe(output);
      expect(JSON.parse(output)).toMatchObject({ custom_id: "a", response: { status_code: 200 } });
      const kept = await d.vectorStores.retrieve(vs.id);
      expect(kept).toMatchObject({ id: vs.id, name: "pets", file_counts: { completed: 1, total: 1 } });
      const found = await d.vectorStores.search(vs.id, { query: "how long do cats sleep" });
      expect(found.data.map((r) => [r.file_id, r.filename])).toStrictEqual([[docs.id, "cats.txt"]]);
      // What is deleted after the restart stays deleted after the next.
      await d.files.delete(data.id);
    } finally {
      await b.close();
    }
    const c2 = await startServer({ adminToken: TOKEN, persist: dir });
    try {
      const e = new OpenAI({ apiKey: "k", baseURL: `${c2.url}/v1`, maxRetries: 0 });
      await expect(e.files.retrieve(data.id)).rejects.toMatchObject({ status: 404 });
      expect((await e.files.retrieve(docs.id)).filename).toBe("cats.txt");
    } finally {
      await c2.close();
    }
  });

  it("keeps webhook endpoints, and a delivery waiting at the stop is sent after the restart, signed as before", async () => {
    const dir = await tempDir();
    const received: { body: string; headers: Headers }[] = [];
    const receiver = createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString("utf8")));
      req.on("end", () => {
        received.push({ body, headers: new Headers(Object.entries(req.headers).map(([k, v]) => [k, String(v)])) });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
    const a = await startServer({ adminToken: TOKEN, persist: dir });
    try {
      const doc = { name: "later", async: { processingMs: 1500 }, steps: [{ consume: false, respond: { text: "Done after the restart." } }] };
      expect((await admin(a, "/scenarios/later", { method: "PUT", body: JSON.stringify(doc) })).status).toBe(200);
      const c = new OpenAI({ apiKey: "k", baseURL: `${a.url}/s/later/run-1/v1`, maxRetries: 0 });
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      const endpoint = await c.webhooks.create({ name: "kept", url, event_types: ["response.completed"] });
      const background = await c.responses.create({ model: "gpt-4o", input: "go", background: true });
      expect(background.status).toBe("queued");
      await a.close(); // before the response is due: its delivery waits in DIR/webhooks
      expect(received).toStrictEqual([]);

      const b = await startServer({ adminToken: TOKEN, persist: dir });
      try {
        const d = new OpenAI({ apiKey: "k", baseURL: `${b.url}/s/later/run-1/v1`, maxRetries: 0 });
        expect(await d.webhooks.retrieve(endpoint.id)).toMatchObject({ id: endpoint.id, name: "kept", url, event_types: ["response.completed"] });
        await until(
          async () => received.length,
          (n) => n > 0,
        );
        const event = await d.webhooks.unwrap(received[0]!.body, received[0]!.headers, endpoint.signing_secret);
        expect(event).toMatchObject({ type: "response.completed", data: { id: background.id } });
        expect((await d.responses.retrieve(background.id)).output_text).toBe("Done after the restart.");
        expect(received).toHaveLength(1);
      } finally {
        await b.close();
      }
    } finally {
      await new Promise((r) => receiver.close(r));
    }
  });
});

describe("Node runtime: --scenarios", () => {
  it("loads files at start, reloads a changed file, and keeps the last good version when a change is invalid", async () => {
    const dir = await tempDir();
    const file = join(dir, "live.json");
    const version = (text: string) => ({ name: "live", steps: [{ consume: false, respond: { text } }] });
    await writeFile(file, JSON.stringify(version("v1")));
    const lines: string[] = [];
    const server = await startServer({ adminToken: TOKEN, scenarios: [dir], log: (l) => lines.push(l) });
    try {
      expect(server.problems).toStrictEqual([]);
      expect(await chatText(server, "/s/live")).toBe("v1");

      await writeFile(file, JSON.stringify({ name: "live", steps: [{ respond: { txt: "typo" } }] }));
      await until(
        async () => lines.length,
        (n) => n > 0,
      );
      expect(lines.join("\n")).toContain(`invalid scenario file, keeping the last good version: ${file}: $.steps[0].respond.txt: unknown key "txt"`);
      expect(await chatText(server, "/s/live")).toBe("v1");

      const listed = async () => ((await (await admin(server, "/scenarios/live")).json()) as { steps: { respond: { text: string } }[] }).steps[0]!.respond.text;
      await writeFile(file, JSON.stringify(version("v2")));
      expect(await until(listed, (t) => t === "v2")).toBe("v2");
      // A running session keeps the version it started with (contract section 2); a new session gets the reload.
      expect(await chatText(server, "/s/live/fresh")).toBe("v2");
      expect(await chatText(server, "/s/live")).toBe("v1");
    } finally {
      await server.close();
    }
  });

  it("reports an invalid file at start with its JSON path, and serves the others", async () => {
    const dir = await tempDir();
    await writeFile(join(dir, "good.json"), JSON.stringify({ name: "good", steps: [{ respond: { text: "fine" } }] }));
    await writeFile(join(dir, "bad.json"), JSON.stringify({ name: "bad", steps: [{ respond: { text: 1 } }] }));
    const server = await startServer({ adminToken: TOKEN, scenarios: [dir], watch: false });
    try {
      expect(server.problems).toStrictEqual([`${join(dir, "bad.json")}: $.steps[0].respond.text: Invalid input: expected string, received number`]);
      expect(await chatText(server, "/s/good")).toBe("fine");
    } finally {
      await server.close();
    }
  });
});

describe("Node runtime: streams", () => {
  const slow = { name: "slow", steps: [{ consume: false, respond: { text: "one two three four five six seven eight", stream: { tokensPerSecond: 2 } } }] };

  async function openSlowStream(server: RunningServer, signal?: AbortSignal): Promise<ReadableStreamDefaultReader<Uint8Array>> {
    await admin(server, "/scenarios/slow", { method: "PUT", body: JSON.stringify(slow) });
    const res = await fetch(`${server.url}/s/slow/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: "Bearer k", "content-type": "application/json" },
      body: JSON.stringify({ model: "gpt-4o", stream: true, messages: [{ role: "user", content: "go" }] }),
      ...(signal ? { signal } : {}),
    });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    await reader.read(); // the role chunk has arrived: the writer is running
    return reader;
  }

  it("a client disconnect stops the writer and its timers", async () => {
    const server = await startServer({ adminToken: TOKEN });
    try {
      const abort = new AbortController();
      await openSlowStream(server, abort.signal);
      expect(server.openStreams).toBe(1);
      abort.abort();
      expect(
        await until(
          async () => server.openStreams,
          (n) => n === 0,
          { ms: 2000 },
        ),
      ).toBe(0);
    } finally {
      await server.close();
    }
  });

  it("close() ends open streams at once and resolves", async () => {
    const server = await startServer({ adminToken: TOKEN });
    const reader = await openSlowStream(server);
    const t0 = performance.now();
    await server.close();
    expect(performance.now() - t0).toBeLessThan(1000);
    await expect(
      (async () => {
        for (;;) if ((await reader.read()).done) return "ended";
      })(),
    ).rejects.toThrow();
    expect(server.openStreams).toBe(0);
  });
});

describe("Node runtime: HTTP/1.1 connections", () => {
  /** One raw HTTP/1.1 exchange on `agent`: status, the raw header names and values, and the local port used. */
  function post(server: RunningServer, agent: Agent, headers: Record<string, string> = {}) {
    return new Promise<{ status: number; raw: string[]; port: number; body: string }>((resolve, reject) => {
      const req = httpRequest(`${server.url}/v1/chat/completions`, { method: "POST", agent, headers: { "content-type": "application/json", authorization: "Bearer k", ...headers } }, (res) => {
        const port = res.socket.localPort!; // read now: a keep-alive agent takes the socket back at the end
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (d: string) => (body += d));
        res.on("end", () => resolve({ status: res.statusCode!, raw: res.rawHeaders, port, body }));
      });
      req.on("error", reject);
      req.end(JSON.stringify({ model: "gpt-4o", messages: [{ role: "user", content: "hi" }] }));
    });
  }
  const names = (raw: string[]) => raw.filter((_, i) => i % 2 === 0).map((n) => n.toLowerCase());
  const headerValue = (raw: string[], name: string) => raw[raw.findIndex((v, i) => i % 2 === 0 && v.toLowerCase() === name) + 1];

  it("answers `connection: keep-alive` without a `keep-alive` hint (as the providers do) and keeps the connection", async () => {
    const server = await startServer({ adminToken: TOKEN });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const first = await post(server, agent);
      const second = await post(server, agent);
      expect([first.status, second.status]).toEqual([200, 200]);
      expect(names(first.raw)).toContain("connection");
      expect(headerValue(first.raw, "connection")).toBe("keep-alive");
      expect(names(first.raw)).not.toContain("keep-alive");
      expect(second.port).toBe(first.port); // the same socket answered both
    } finally {
      agent.destroy();
      await server.close();
    }
  });

  it("a client that asks to close gets `connection: close` and the connection ends", async () => {
    const server = await startServer({ adminToken: TOKEN });
    const agent = new Agent({ keepAlive: false });
    try {
      const res = await post(server, agent, { connection: "close" });
      expect(res.status).toBe(200);
      expect(JSON.parse(res.body).object).toBe("chat.completion");
      expect(headerValue(res.raw, "connection")).toBe("close");
      expect(names(res.raw)).not.toContain("keep-alive");
    } finally {
      agent.destroy();
      await server.close();
    }
  });
});

describe("Node runtime: REQUEST_LOG=json (serve --log-requests)", () => {
  it("logs one JSON line per request: scenario, session, step, outcome, status, ms", async () => {
    const lines: string[] = [];
    const server = await startServer({ adminToken: TOKEN, vars: { REQUEST_LOG: "json" }, log: (l) => lines.push(l) });
    try {
      await admin(server, "/scenarios/logged", { method: "PUT", body: JSON.stringify({ name: "logged", steps: [{ id: "only", respond: { text: "x" } }] }) });
      expect(await chatText(server, "/s/logged/run-9")).toBe("x");
      const entries = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
      const chatEntry = entries.find((e) => e.path === "/s/logged/run-9/v1/chat/completions");
      expect(chatEntry).toMatchObject({ mockllm: "request", method: "POST", status: 200, outcome: "response", scenario: "logged", session: "run-9", step: "only" });
      expect(typeof chatEntry!.ms).toBe("number");
      expect(entries.find((e) => e.path === "/admin/scenarios/logged")).toMatchObject({ method: "PUT", status: 200 });
    } finally {
      await server.close();
    }
  });
});
