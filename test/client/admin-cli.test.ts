// Issue 37, tried as the report did: `mockllm serve --scenarios dir/` with one file, then the admin commands against
// it with --url and --token (list, pull, push, journal, verify), all run in-process with captured output.
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureCli, serveCli, type ServingCli } from "../support/cli";
import { startMockLLM } from "../../src/client/index";

const TOKEN = "cli-token";
const DOC = { name: "from-file", description: "one file", steps: [{ id: "hi", respond: { text: "Hello from a file." } }] };

let dir: string;
let base: string;
let serving: ServingCli;

const cli = (argv: string[]) => captureCli(argv, { cwd: dir });

const server = () => ["--url", base, "--token", TOKEN];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "mockllm-admin-cli-"));
  await mkdir(join(dir, "scenarios"));
  await writeFile(join(dir, "scenarios", "from-file.json"), JSON.stringify(DOC, null, 2));
  serving = await serveCli(["serve", "--port", "0", "--admin-token", TOKEN, "--scenarios", `${join(dir, "scenarios")}/`], { cwd: dir });
  base = serving.url;
  expect(serving.out.join("\n")).toContain(`mockllm is ready on ${base} (Node runtime)`);
}, 30_000);

afterAll(async () => {
  await serving?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe("the admin commands against mockllm serve --scenarios dir/", () => {
  it("list shows the file scenario with source file (issue 37: it failed on the response shape)", async () => {
    const r = await cli(["list", ...server()]);
    expect([r.code, r.err]).toEqual([0, ""]);
    const row = r.out.split("\n").find((l) => l.startsWith("from-file "));
    expect(row).toMatch(/^from-file\s+[0-9a-f]{16}\s+file\s+one file$/);
    const json = JSON.parse((await cli(["list", "--json", ...server()])).out) as { name: string; source: string }[];
    expect(json.find((s) => s.name === "from-file")).toEqual({ name: "from-file", version: expect.any(String), description: "one file", source: "file" });
  });

  it("pull writes the file scenario as stored; push uploads over it", async () => {
    const pulled = await cli(["pull", "from-file", "--out", "pulled", ...server()]);
    expect(pulled.code).toBe(0);
    expect(JSON.parse(await readFile(join(dir, "pulled", "from-file.json"), "utf8"))).toEqual(DOC);
    const changed = { ...DOC, steps: [{ id: "hi", respond: { text: "Uploaded." } }] };
    await writeFile(join(dir, "pulled", "from-file.json"), JSON.stringify(changed));
    const pushed = await cli(["push", "pulled", ...server()]);
    expect([pushed.code, pushed.err]).toEqual([0, ""]);
    expect(pushed.out).toContain("from-file");
    const listed = JSON.parse((await cli(["list", "--json", ...server()])).out) as { name: string; source: string }[];
    expect(listed.find((s) => s.name === "from-file")!.source).toBe("kv");
  });

  it("verify of a session that never ran exits 1 and says it never ran; journal fails with the server's 404", async () => {
    const v = await cli(["verify", "from-file", "nobody", ...server()]);
    expect(v).toEqual({
      code: 1,
      out: "",
      err: 'mockllm verify: FAILED: session "nobody" of scenario "from-file" never ran: no request reached /s/from-file/nobody; is the client pointed at this scenario and session?',
    });
    const j = await cli(["journal", "from-file", "nobody", ...server()]);
    expect(j.code).toBe(1);
    expect(j.err).toBe(
      `mockllm journal: GET ${base}/admin/sessions/from-file/nobody/requests → 404: session "nobody" of scenario "from-file" has not run: no request reached /s/from-file/nobody (is the client pointed at this scenario and session?)`,
    );
  });

  it("after one request the same session verifies, and its journal lists it", async () => {
    const res = await fetch(`${base}/s/from-file/ran/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: "Bearer sk", "content-type": "application/json" },
      body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "hi" }] }),
    });
    expect(res.status).toBe(200);
    await res.text();
    const v = await cli(["verify", "from-file", "ran", ...server()]);
    expect(v.code).toBe(0);
    expect(v.out).toMatch(/^mockllm verify: ok: scenario "from-file" session "ran"/);
    const j = await cli(["journal", "from-file", "ran", ...server()]);
    expect(j.code).toBe(0);
    expect(j.out.split("\n")).toHaveLength(2);
  });
});

describe("mockllm webhooks", () => {
  it("shows no endpoints, then the endpoint and each attempt with what it answered", async () => {
    expect((await cli(["webhooks", ...server()])).out).toBe("no webhook endpoints");
    const receiver = createServer((_req, res) => res.writeHead(500).end());
    await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
    try {
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      const made = await fetch(`${base}/v1/webhook_endpoints`, {
        method: "POST",
        headers: { authorization: "Bearer sk", "content-type": "application/json" },
        body: JSON.stringify({ name: "cli", url, event_types: ["batch.completed"] }),
      });
      const endpoint = (await made.json()) as { id: string };
      const tested = await fetch(`${base}/v1/webhook_endpoints/${endpoint.id}/test`, {
        method: "POST",
        headers: { authorization: "Bearer sk", "content-type": "application/json" },
        body: JSON.stringify({ event_type: "batch.failed" }),
      });
      expect(((await tested.json()) as { status_code: number }).status_code).toBe(500);
      const r = await cli(["webhooks", ...server()]);
      expect([r.code, r.err]).toEqual([0, ""]);
      const [endpoints, waiting, deliveries] = r.out.split("\n\n");
      expect(endpoints!.split("\n")[1]).toMatch(new RegExp(`^${endpoint.id}\\s+cli\\s+${url.replace(/[.]/g, "\\.")}\\s+batch\\.completed$`));
      expect(waiting).toBe("0 deliveries wait");
      expect(deliveries!.split("\n")[0]).toMatch(/^AT\s+EVENT\s+ENDPOINT\s+ATTEMPT\s+ANSWER\s+RETRY$/);
      expect(deliveries!.split("\n")[1]).toMatch(new RegExp(`^\\S+\\s+batch\\.failed\\s+${endpoint.id}\\s+1\\s+500\\s+no$`));
      const json = JSON.parse((await cli(["webhooks", "--json", ...server()])).out) as { endpoints: { id: string }[]; deliveries: { status: number }[] };
      expect([json.endpoints.map((e) => e.id), json.deliveries.map((d) => d.status)]).toEqual([[endpoint.id], [500]]);
    } finally {
      await new Promise((r) => receiver.close(r));
    }
  });
});

describe("mockllm call", () => {
  it("rings a call (saying when no endpoint heard it), then shows what the backend did with it", async () => {
    const rung = await cli(["call", "support-line", "desk-1", "--header", "From: sip:+14155550100@trunk.example.com", ...server()]);
    expect([rung.code, rung.err]).toEqual([0, ""]);
    const [first, header, sent] = rung.out.split("\n");
    const id = /^(rtc_[0-9a-f]{32}) {2}ringing {2}plays support-line\/desk-1$/.exec(first!)?.[1];
    expect(id).toBeDefined();
    expect([header, sent]).toEqual(["  From: sip:+14155550100@trunk.example.com", "no webhook endpoint is subscribed to realtime.call.incoming: nothing was sent"]);
    const refused = await fetch(`${base}/v1/realtime/calls/${id}/reject`, { method: "POST", headers: { authorization: "Bearer sk", "content-type": "application/json" }, body: "{}" });
    expect(refused.status).toBe(200);
    expect((await cli(["call", "--show", id!, ...server()])).out).toBe(`${id}  rejected  plays support-line/desk-1\n  From: sip:+14155550100@trunk.example.com\n  rejected with SIP 603`);
    const json = JSON.parse((await cli(["call", "--show", id!, "--json", ...server()])).out) as { status: string; reject_status_code: number };
    expect([json.status, json.reject_status_code]).toEqual(["rejected", 603]);
    const bad = await cli(["call", "--header", "no colon", ...server()]);
    expect([bad.code, bad.err]).toEqual([2, 'mockllm call: --header must be "Name: value", got "no colon"\nRun "mockllm call --help" for usage.']);
  });
});

describe("startMockLLM({ scenarioFiles })", () => {
  it("starts (its start-up listing parses source file) and serves the file's scenario", async () => {
    await using mock = await startMockLLM({ scenarioFiles: [join(dir, "scenarios", "from-file.json")] });
    expect((await mock.admin.list()).find((s) => s.name === "from-file")).toEqual({ name: "from-file", version: expect.any(String), description: "one file", source: "file" });
    const res = await fetch(`${mock.openaiBaseURL("from-file", "sf")}/chat/completions`, {
      method: "POST",
      headers: { authorization: "Bearer sk", "content-type": "application/json" },
      body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "hi" }] }),
    });
    expect(((await res.json()) as { choices: { message: { content: string } }[] }).choices[0]!.message.content).toBe("Hello from a file.");
    expect((await mock.verify("from-file", "sf")).ok).toBe(true);
  });
});
