// A preview deployment's Worker calling the mock Worker through a service binding, two Workers in Miniflare (issue
// 57): the official `openai` SDK in the preview Worker with `fetch` through the binding, a namespace's run key
// selecting the namespace, the mock's journal showing the turn there. Both Workers are bundled by the test with
// esbuild (the mock from src/index.ts as wrangler bundles it; the preview from test/client/preview-worker).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { Miniflare, convertV4MiniflareOptions } from "miniflare";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const TOKEN = "binding-root-token";
let dir: string;
let mf: Miniflare;

async function bundle(entry: string, outfile: string): Promise<void> {
  await build({
    entryPoints: [entry],
    bundle: true,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    conditions: ["workerd", "worker", "browser"],
    mainFields: ["module", "main"],
    external: ["node:*", "cloudflare:*"],
    outfile,
    logLevel: "silent",
  });
}

/** The mock Worker's admin API, called on it directly. */
async function mockAdmin(path: string, init: RequestInit = {}): Promise<Response> {
  const mock = await mf.getWorker("mockllm");
  return mock.fetch(`http://mock.local/admin${path}`, { ...init, headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json", ...init.headers } } as never) as unknown as Response;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "mockllm-binding-"));
  await bundle(`${ROOT}src/index.ts`, join(dir, "mock.js"));
  await bundle(`${ROOT}test/client/preview-worker/index.ts`, join(dir, "preview.js"));
  mf = new Miniflare(
    convertV4MiniflareOptions({
      workers: [
        {
          name: "preview",
          modules: true,
          scriptPath: join(dir, "preview.js"),
          modulesRoot: dir,
          compatibilityDate: "2026-11-01",
          compatibilityFlags: ["nodejs_compat"],
          serviceBindings: { MOCKLLM: "mockllm" },
          bindings: { MOCKLLM_RUN_KEY: "set per request by the test" },
        },
        {
          name: "mockllm",
          modules: true,
          scriptPath: join(dir, "mock.js"),
          modulesRoot: dir,
          compatibilityDate: "2026-11-01",
          compatibilityFlags: ["nodejs_compat", "enable_request_signal"],
          durableObjects: { SESSIONS: { className: "SessionObject", useSQLite: true }, REGISTRY: { className: "RegistryObject", useSQLite: true } },
          kvNamespaces: ["SCENARIOS"],
          bindings: { ADMIN_TOKEN: TOKEN, DEFAULT_WORDS_PER_SECOND: "0", REQUEST_LOG: "off" },
        },
      ],
    } as never),
  );
  await mf.ready;
}, 120_000);

afterAll(async () => {
  await mf?.dispose();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("a preview Worker bound to the mock Worker", () => {
  it("the openai SDK in the preview reaches the mock through the binding, in the namespace its run key selects", async () => {
    expect((await mockAdmin("/namespaces", { method: "POST", body: JSON.stringify({ name: "pr-57", ttlSeconds: 86400 }) })).status).toBe(201);
    const adminKey = ((await (await mockAdmin("/namespaces/pr-57/keys", { method: "POST", body: JSON.stringify({ scope: "admin" }) })).json()) as { key: string }).key;
    const runKey = ((await (await mockAdmin("/namespaces/pr-57/keys", { method: "POST", body: JSON.stringify({ scope: "run" }) })).json()) as { key: string }).key;
    const scenario = { name: "preview-app", steps: [{ respond: { text: "Served through the service binding." } }] };
    const put = await mockAdmin("/scenarios/preview-app", { method: "PUT", body: JSON.stringify(scenario), headers: { authorization: `Bearer ${adminKey}` } });
    expect(put.status).toBe(200);
    const res = await mf.dispatchFetch("http://preview.local/?session=pr-57-home", { headers: { "x-test-run-key": runKey } });
    expect(await res.json()).toEqual({ text: "Served through the service binding.", id: expect.stringMatching(/^chatcmpl-/) });
    const journal = (await (await mockAdmin("/sessions/preview-app/pr-57-home/requests", { headers: { authorization: `Bearer ${adminKey}` } })).json()) as {
      outcome: string;
      request: { headers: Record<string, string> };
    }[];
    expect(journal.map((e) => e.outcome)).toEqual(["response"]);
    expect(journal[0]!.request.headers["x-mockllm-key-id"]).toBe(runKey.slice(3, 15));
    // The root's default namespace has no such session: the run key chose the namespace.
    expect((await mockAdmin("/sessions/preview-app/pr-57-home/requests")).status).toBe(404);
    // Without a valid key the binding still reaches the mock, whose namespace gate refuses it.
    const refused = await mf.dispatchFetch("http://preview.local/?session=x", { headers: { "x-test-run-key": "mk_000000000000_000000000000000000000000000000000000000000000000" } });
    expect(await refused.json()).toMatchObject({ status: 401 });
  });
});
