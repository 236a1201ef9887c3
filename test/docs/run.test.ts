/**
 * Runs every `sh runnable`, `ts runnable` and `py runnable` block of the docs against a mock started for its page
 * (the Node runtime, admin token `dev`, pacing off), in page order: a page's blocks share one server, as a reader
 * running them one after another would. A block passes when it exits 0 and no request it made was answered with a
 * status that means the example is wrong rather than the behaviour it shows: 401/403 (a missing key or header),
 * 404 (a wrong route, scenario or session: `docs-test: allow 404` in the block allows it), 400 from the admin API (an
 * invalid scenario upload) or 500. Scripted failures (429, 503, 529, broken streams) are what examples show, and pass;
 * a block that shows a refusal on purpose says so with `docs-test: allow 401 403` (the codes it expects).
 * `ts` blocks that import vitest are test modules of their own and run as such (test/docs/vitest.config.ts); other
 * `ts` blocks run as a module here; in every block `http://127.0.0.1:8787` and `localhost:8787` are replaced by the page's
 * server. `py` blocks run with the Python suite's interpreter when it has the `openai` package, else are skipped with a
 * message.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadNodeRuntime, type NodeServer } from "../../src/client/node-runtime";
import { blocksOf, docPages, ROOT } from "./blocks";

const TOKEN = "dev";
const SCRATCH = join(ROOT, "test", ".docs");

interface Logged {
  method: string;
  path: string;
  status: number;
}

function run(file: string, args: string[], env: Record<string, string>, cwd?: string): Promise<{ code: number; out: string; stdout: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd, env: { ...process.env, ...env }, timeout: 60_000, maxBuffer: 16 << 20 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
      resolve({ code, out: `${stdout}${stderr}`, stdout });
    });
  });
}

/** The statuses a block allows on purpose: `docs-test: allow 401 403` anywhere in it. */
function allowedIn(code: string): Set<number> {
  const m = /docs-test: allow ((?:\d{3}\s*)+)/.exec(code);
  return new Set(m ? m[1]!.trim().split(/\s+/).map(Number) : []);
}

function badAnswers(log: Logged[], allowed: Set<number>): Logged[] {
  const wrong = (r: Logged) => r.status === 401 || r.status === 403 || r.status === 404 || r.status === 500 || (r.status === 400 && r.path.startsWith("/admin/"));
  return log.filter((r) => wrong(r) && !allowed.has(r.status));
}

function withOrigin(code: string, origin: string): string {
  const host = origin.replace(/^https?:\/\//, "");
  return code
    .replaceAll("http://127.0.0.1:8787", origin)
    .replaceAll("http://localhost:8787", origin)
    .replace(/\b(?:localhost|127\.0\.0\.1):8787\b/g, host);
}

let python: Promise<string | undefined> | undefined;
/** The Python suite's venv (scripts/python-venv.sh makes or finds it) when it has the openai package. */
function pythonWithOpenAI(): Promise<string | undefined> {
  python ??= (async () => {
    const venv = await run("bash", [join(ROOT, "scripts", "python-venv.sh")], {});
    const path = venv.stdout.trim().split("\n").pop() ?? "";
    if (venv.code !== 0 || !existsSync(path)) return undefined;
    return (await run(path, ["-c", "import openai"], {})).code === 0 ? path : undefined;
  })();
  return python;
}

const pages = docPages()
  .map((page) => ({ page, blocks: blocksOf(page).filter((b) => b.runnable && (b.lang === "sh" || b.lang === "py" || (b.lang === "ts" && !b.code.includes('from "vitest"')))) }))
  .filter((p) => p.blocks.length > 0);

it("the docs have runnable examples (the README's among them)", () => {
  expect(pages.map((p) => p.page)).toContain("README.md");
});

for (const { page, blocks } of pages) {
  describe(page, () => {
    let server: NodeServer;
    const log: Logged[] = [];
    beforeAll(async () => {
      const runtime = await loadNodeRuntime();
      server = await runtime.startServer({
        adminToken: TOKEN,
        vars: { REQUEST_LOG: "json", DEFAULT_WORDS_PER_SECOND: "0" },
        log: (line) => {
          if (!line.startsWith("{")) return;
          const entry = JSON.parse(line) as { mockllm?: string } & Logged;
          if (entry.mockllm === "request") log.push({ method: entry.method, path: entry.path, status: entry.status });
        },
      });
      mkdirSync(SCRATCH, { recursive: true });
    });
    afterAll(() => server?.close());

    for (const block of blocks) {
      it(`${block.lang} block at line ${block.line}`, async (ctx) => {
        const from = log.length;
        const env = { MOCK: server.url, URL: server.url, TOKEN, ADMIN_TOKEN: TOKEN, MOCKLLM_ADMIN_TOKEN: TOKEN, MOCKLLM_URL: server.url };
        const code = withOrigin(block.code, server.url);
        let result: { code: number; out: string; stdout?: string };
        // Files a block writes (`curl -o hello.wav`) land in the page's scratch folder (ignored by git), not the repo.
        const cwd = join(SCRATCH, page.replaceAll("/", "_"));
        mkdirSync(cwd, { recursive: true });
        if (block.lang === "sh") result = await run("bash", ["-eo", "pipefail", "-c", code], env, cwd);
        else if (block.lang === "py") {
          const interpreter = await pythonWithOpenAI();
          if (interpreter === undefined) return ctx.skip("no Python with the openai package (npm run test:python makes one)");
          result = await run(interpreter, ["-c", code], env, cwd);
        } else {
          const file = join(SCRATCH, `${page.replaceAll("/", "_")}-${block.line}.ts`);
          writeFileSync(file, code);
          result = { code: 0, out: "" };
          await import(/* @vite-ignore */ file);
        }
        expect(result.code, `${page}:${block.line} exited ${result.code}:\n${result.out}`).toBe(0);
        const bad = badAnswers(log.slice(from), allowedIn(`${block.info}\n${block.code}`));
        expect(bad, `${page}:${block.line} got answers that mean the example is wrong:\n${result.out}`).toEqual([]);
      });
    }
  });
}
