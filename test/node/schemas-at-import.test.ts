// The built Node runtime (dist/node: bin/build-node.mjs) constructs at import only the zod schemas a start needs —
// the scenario document's, to validate scenario files before it listens — and a provider's request schemas on that
// provider's first request (src/util/memo.ts `lazily`). zod builds every schema's closures at construction, so each
// one built at import is start-up time and idle memory on Node and in every Worker isolate
// (bench/schemas-at-import.mjs prints the counts).
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error a plain ES module of the bench, without types
import { schemasAtImport, total } from "../../bench/schemas-at-import.mjs";

const run = promisify(execFile);
const repo = fileURLToPath(new URL("../..", import.meta.url));

/** The modules a start builds schemas in: the scenario document's schema and what it is made of. */
const AT_IMPORT =
  /^src\/scenario\/(schema|mcp-schema|server-tools-schema|surface-replies|reply-kinds|budget-schema|frames-schema|chaos-schema|message-schema|string-match|limits-schema|structured)\.ts$/;

let dir: string;
let counts: { atImport: Map<string, number>; after: Map<string, number> };
let answer: { status: number; content: string };

beforeAll(async () => {
  // Inside the repository, so the built runtime finds node_modules (its gpt-tokenizer) as an installed package does.
  await mkdir(join(repo, "node_modules", ".cache"), { recursive: true });
  dir = await mkdtemp(join(repo, "node_modules", ".cache", "mockllm-schemas-"));
  await run(process.execPath, [join(repo, "bin", "build-node.mjs"), "--out-dir", join(dir, "dist")], { cwd: repo });
  counts = await schemasAtImport(join(dir, "dist", "node", "core.js"), async (core: { startServer: (o: object) => Promise<{ url: string; close(): Promise<void> }> }) => {
    const server = await core.startServer({ adminToken: "t", watch: false, log: () => {} });
    try {
      const scenario = { name: "lazy", steps: [{ respond: { text: "Built when asked." } }] };
      await fetch(`${server.url}/admin/scenarios`, { method: "POST", headers: { authorization: "Bearer t", "content-type": "application/json" }, body: JSON.stringify([scenario]) });
      const res = await fetch(`${server.url}/s/lazy/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: "Bearer k", "content-type": "application/json" },
        body: JSON.stringify({ model: "gpt-4o", messages: [{ role: "user", content: "hello" }] }),
      });
      const body = (await res.json()) as { choices: { message: { content: string } }[] };
      answer = { status: res.status, content: body.choices[0]!.message.content };
    } finally {
      await server.close();
    }
  });
}, 60_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("zod schemas the built Node runtime constructs", () => {
  it("at import: only the scenario document's", () => {
    const elsewhere = [...counts.atImport].filter(([module]) => module !== "?" && !AT_IMPORT.test(module));
    expect(elsewhere).toEqual([]);
    expect(counts.atImport.get("src/providers/openai/chat/wire.ts")).toBeUndefined();
    expect(total(counts.atImport)).toBeGreaterThan(500); // the scenario schema itself is counted: the counter works
  });

  it("on the first Chat request: the Chat wire's, and the answer is the script's", () => {
    expect(answer).toEqual({ status: 200, content: "Built when asked." });
    expect(counts.after.get("src/providers/openai/chat/wire.ts")).toBeGreaterThan(10);
    expect(counts.after.get("src/providers/anthropic/wire.ts")).toBeUndefined();
  });
});
