// The built Node runtime (dist/node: bin/build-node.mjs) and its V8 code cache (src/hosts/node/entry.ts), in fresh
// Node processes: the first start writes the cache, the next compiles from it, a damaged or unsafe one is not used,
// NODE_DISABLE_COMPILE_CACHE turns it off — and in every case the server answers as the sources do, with nothing on
// stderr (the tokenizer's encodings, loaded on the first counted request, included).
import { execFile } from "node:child_process";
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../../src/hosts/node/server";

const run = promisify(execFile);
const repo = fileURLToPath(new URL("../..", import.meta.url));
const SCENARIO = { name: "cnt", usage: "count", steps: [{ consume: false, respond: { text: "Hello there friend." } }] };
const CHAT = { model: "gpt-4o", messages: [{ role: "user", content: "hello world" }] };

let dir: string;
let entry: string;
let cacheRoot: string;

/** One request's status and body through the server at `url`, after uploading the counted scenario. */
const PROBE = (entryUrl: string) => `
  const m = await import(${JSON.stringify(entryUrl)});
  const server = await m.startServer({ adminToken: "t", watch: false, log: () => {} });
  const before = m.nodeCodeCache().state;
  await fetch(server.url + "/admin/scenarios", { method: "POST", headers: { authorization: "Bearer t", "content-type": "application/json" }, body: ${JSON.stringify(JSON.stringify([SCENARIO]))} });
  const res = await fetch(server.url + "/s/cnt/v1/chat/completions", { method: "POST", headers: { authorization: "Bearer k", "content-type": "application/json" }, body: ${JSON.stringify(JSON.stringify(CHAT))} });
  const body = await res.json();
  await new Promise((r) => setImmediate(r));
  await server.close();
  console.log(JSON.stringify({ before, after: m.nodeCodeCache().state, status: res.status, content: body.choices[0].message.content, usage: body.usage }));
`;

async function probe(env: Record<string, string> = {}) {
  const { stdout, stderr } = await run(process.execPath, ["--input-type=module", "-e", PROBE(new URL(`file://${entry}`).href)], {
    env: { ...process.env, NODE_COMPILE_CACHE: cacheRoot, NODE_DISABLE_COMPILE_CACHE: "", ...env },
  });
  return { ...JSON.parse(stdout), stderr };
}

async function cacheFiles(): Promise<string[]> {
  return (await readdir(join(cacheRoot, "mockllm")).catch(() => [])).sort();
}

beforeAll(async () => {
  // Inside the repository, so the built runtime finds node_modules (its gpt-tokenizer) as an installed package does.
  await mkdir(join(repo, "node_modules", ".cache"), { recursive: true });
  dir = await mkdtemp(join(repo, "node_modules", ".cache", "mockllm-code-cache-"));
  cacheRoot = join(dir, "cache");
  await run(process.execPath, [join(repo, "bin", "build-node.mjs"), "--out-dir", join(dir, "dist")], { cwd: repo });
  entry = join(dir, "dist", "node", "index.js");
}, 60_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("the built Node runtime's code cache", () => {
  it("is written by the first start, compiled from by the next, and the answers are the sources' own", async () => {
    const source = await startServer({ adminToken: "t", watch: false, log: () => {} });
    let expected: unknown;
    try {
      await fetch(`${source.url}/admin/scenarios`, { method: "POST", headers: { authorization: "Bearer t", "content-type": "application/json" }, body: JSON.stringify([SCENARIO]) });
      const res = await fetch(`${source.url}/s/cnt/v1/chat/completions`, { method: "POST", headers: { authorization: "Bearer k", "content-type": "application/json" }, body: JSON.stringify(CHAT) });
      expected = ((await res.json()) as { usage: unknown }).usage;
    } finally {
      await source.close();
    }
    expect(expected).toMatchObject({ prompt_tokens: 9, completion_tokens: 4 });

    const first = await probe();
    expect(first).toStrictEqual({ before: "absent", after: "written", status: 200, content: "Hello there friend.", usage: expected, stderr: "" });
    const files = await cacheFiles();
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(new RegExp(`^[0-9a-f]{16}-${process.version.replaceAll(".", "\\.")}-${process.arch}-\\d+\\.bin$`));
    expect((await stat(join(cacheRoot, "mockllm"))).mode & 0o777).toBe(0o700);
    expect((await stat(join(cacheRoot, "mockllm", files[0]!))).mode & 0o777).toBe(0o600);

    const second = await probe();
    expect(second).toStrictEqual({ before: "accepted", after: "accepted", status: 200, content: "Hello there friend.", usage: expected, stderr: "" });
  }, 60_000);

  it("a damaged cache is refused and written again; one others could have written is not read", async () => {
    const [file] = await cacheFiles();
    const path = join(cacheRoot, "mockllm", file!);
    const size = (await readFile(path)).length;
    await writeFile(path, Buffer.alloc(size, 7));
    expect(await probe()).toMatchObject({ before: "rejected", after: "written", status: 200, content: "Hello there friend.", stderr: "" });
    expect(await probe()).toMatchObject({ before: "accepted", status: 200 });

    await chmod(path, 0o666);
    expect(await probe()).toMatchObject({ before: "absent", after: "written", status: 200, stderr: "" });
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await cacheFiles()).toStrictEqual([file]);
  }, 60_000);

  it("a start that writes the cache keeps the newest 8 of the directory's and drops writes left half-done over an hour ago", async () => {
    const [current] = await cacheFiles();
    const folder = join(cacheRoot, "mockllm");
    await rm(join(folder, current!));
    // Ten other builds' caches, an hour apart (the newest first), a half-done write of 2 hours ago and one of now.
    const others = Array.from({ length: 10 }, (_, i) => `${(i + 1).toString(16).padStart(16, "0")}-v0.0.0-x64-1.bin`);
    const now = Date.now() / 1000;
    for (const [i, name] of others.entries()) {
      await writeFile(join(folder, name), "x", { mode: 0o600 });
      await utimes(join(folder, name), now - 3600 * (i + 1), now - 3600 * (i + 1));
    }
    await writeFile(join(folder, "old.123.tmp"), "x", { mode: 0o600 });
    await utimes(join(folder, "old.123.tmp"), now - 7200, now - 7200);
    await writeFile(join(folder, "new.456.tmp"), "x", { mode: 0o600 });
    expect(await probe()).toMatchObject({ before: "absent", after: "written", status: 200, stderr: "" });
    expect(await cacheFiles()).toStrictEqual([...others.slice(0, 7), current!, "new.456.tmp"].sort());
    await rm(join(folder, "new.456.tmp"));
  }, 60_000);

  it("with source maps on, the core goes through Node's loader: stack traces name src/, and the answers are the same", async () => {
    const script = `
      const m = await import(${JSON.stringify(new URL(`file://${entry}`).href)});
      const error = await m.startServer({ persist: "a", keepOnExit: "b", log: () => {} }).catch((e) => e);
      console.log(JSON.stringify({ state: m.nodeCodeCache().state, at: error.stack.split("\\n")[1].trim() }));
    `;
    const { stdout, stderr } = await run(process.execPath, ["--enable-source-maps", "--input-type=module", "-e", script], { env: { ...process.env, NODE_COMPILE_CACHE: cacheRoot } });
    expect(stderr).toBe("");
    expect(JSON.parse(stdout)).toStrictEqual({ state: "off", at: expect.stringMatching(/^at nodeRuntime \(.*\/src\/hosts\/node\/runtime\.ts:\d+:\d+\)$/) });
    expect(await probe({ NODE_OPTIONS: "--enable-source-maps" })).toMatchObject({ before: "off", after: "off", status: 200, content: "Hello there friend.", stderr: "" });
  }, 60_000);

  it("NODE_DISABLE_COMPILE_CACHE turns it off", async () => {
    await rm(cacheRoot, { recursive: true, force: true });
    expect(await probe({ NODE_DISABLE_COMPILE_CACHE: "1" })).toMatchObject({ before: "off", after: "off", status: 200, content: "Hello there friend.", stderr: "" });
    expect(await cacheFiles()).toStrictEqual([]);
  }, 60_000);
});
