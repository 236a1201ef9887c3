/**
 * `npm run deploy` and the admin token (issue 51): only a definite answer from `wrangler secret list` makes a first
 * deploy; any other failure stops before uploading; an existing token is replaced only with --rotate-admin-token.
 * Unit cases for scripts/deploy-token.mjs, then the script itself against a fake wrangler ($MOCKLLM_DEPLOY_WRANGLER).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs script without types
import { secretState, tokenPlan } from "../../scripts/deploy-token.mjs";

const NOT_FOUND = `✘ [ERROR] Worker "mockllm" not found.

If this is a new Worker, run \`wrangler deploy\` first to create it.
Otherwise, check that the Worker name is correct and you're logged into the right account.`;

describe("secretState", () => {
  it("reads the list: ADMIN_TOKEN there or not", () => {
    expect(secretState(0, '[{"name":"ADMIN_TOKEN","type":"secret_text"}]', "")).toEqual({ state: "present" });
    expect(secretState(0, '[{"name":"OTHER","type":"secret_text"}]', "")).toEqual({ state: "absent", why: "the Worker has no ADMIN_TOKEN secret" });
    expect(secretState(0, "[]", "")).toEqual({ state: "absent", why: "the Worker has no ADMIN_TOKEN secret" });
  });

  it("takes only 'no such Worker' as a first deploy (wrangler 4's sentence, the API's 10007)", () => {
    const first = { state: "absent", why: "the Worker does not exist yet (a first deploy)" };
    expect(secretState(1, "", NOT_FOUND)).toEqual(first);
    expect(secretState(1, "", NOT_FOUND.replace('"mockllm"', '"mockllm-preview" (env: preview)'))).toEqual(first);
    expect(secretState(1, "", "✘ [ERROR] A request to the Cloudflare API failed.\n\n  This Worker does not exist on your account. [code: 10007]")).toEqual(first);
  });

  it("answers unknown for every other failure, with wrangler's words", () => {
    expect(secretState(1, "", "✘ [ERROR] fetch failed")).toEqual({ state: "unknown", detail: "✘ [ERROR] fetch failed" });
    expect(secretState(1, "", "✘ [ERROR] A request to the Cloudflare API failed.\n\n  Authentication error [code: 10000]").state).toBe("unknown");
    expect(secretState(0, "not json", "").state).toBe("unknown");
    expect(secretState(0, '{"name":"ADMIN_TOKEN"}', "").state).toBe("unknown");
    expect(secretState(null, "", "")).toEqual({ state: "unknown", detail: "wrangler secret list exited on a signal without output" });
  });
});

describe("tokenPlan", () => {
  const random = () => "mockllm-random";
  it("uploads on a first deploy: $MOCKLLM_ADMIN_TOKEN's or a random token", () => {
    const absent = { state: "absent", why: "the Worker has no ADMIN_TOKEN secret" };
    expect(tokenPlan(absent, { rotate: false, random }).upload).toBe("mockllm-random");
    expect(tokenPlan(absent, { given: "mine", rotate: false, random }).upload).toBe("mine");
  });

  it("keeps an existing token, even with $MOCKLLM_ADMIN_TOKEN set, unless --rotate-admin-token", () => {
    const present = { state: "present" };
    expect(tokenPlan(present, { rotate: false, random })).toEqual({
      upload: undefined,
      line: "  admin token   unchanged (--rotate-admin-token replaces it: with $MOCKLLM_ADMIN_TOKEN if set, else a random one)",
    });
    expect(tokenPlan(present, { given: "mine", rotate: false, random }).upload).toBeUndefined();
    expect(tokenPlan(present, { given: "mine", rotate: true, random }).upload).toBe("mine");
    expect(tokenPlan(present, { rotate: true, random }).upload).toBe("mockllm-random");
  });

  it("aborts when the state is unknown, naming the cause and the flag", () => {
    const plan = tokenPlan({ state: "unknown", detail: "✘ [ERROR] fetch failed" }, { rotate: false, random });
    expect(plan.upload).toBeUndefined();
    expect(plan.abort).toContain("stopped before uploading anything");
    expect(plan.abort).toContain("  ✘ [ERROR] fetch failed");
    expect(plan.abort).toContain("--rotate-admin-token");
  });
});

describe("scripts/deploy.mjs against a fake wrangler", () => {
  const dir = mkdtempSync(join(tmpdir(), "mockllm-deploy-test-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const fake = join(dir, "wrangler.mjs");
  // Records each call (args and the secrets file's content); `secret list` answers as $FAKE_LIST says.
  writeFileSync(
    fake,
    `import { appendFileSync, readFileSync } from "node:fs";
const args = process.argv.slice(2);
const i = args.indexOf("--secrets-file");
appendFileSync(process.env.FAKE_LOG, JSON.stringify({ args: args.filter((a, n) => n !== i + 1 || i < 0), secrets: i >= 0 ? JSON.parse(readFileSync(args[i + 1], "utf8")) : null }) + "\\n");
if (args[0] === "secret") {
  const mode = process.env.FAKE_LIST;
  if (mode === "present") { console.log('[{"name":"ADMIN_TOKEN","type":"secret_text"}]'); process.exit(0); }
  if (mode === "none") { console.log("[]"); process.exit(0); }
  if (mode === "new") { console.error(${JSON.stringify(NOT_FOUND)}); process.exit(1); }
  console.error("✘ [ERROR] A request to the Cloudflare API failed.\\n\\n  Authentication error [code: 10000]"); process.exit(1);
}
console.log("Uploaded mockllm\\nDeployed mockllm triggers\\n  https://mockllm.team.workers.dev");
`,
  );

  function deploy(list: string, flags: string[] = [], token?: string) {
    const log = join(dir, `${list}-${flags.length}-${token ?? ""}.log`);
    writeFileSync(log, "");
    const env: NodeJS.ProcessEnv = { ...process.env, MOCKLLM_DEPLOY_WRANGLER: fake, FAKE_LIST: list, FAKE_LOG: log };
    if (token === undefined) delete env.MOCKLLM_ADMIN_TOKEN;
    else env.MOCKLLM_ADMIN_TOKEN = token;
    const r = spawnSync(process.execPath, ["scripts/deploy.mjs", ...flags], { env, encoding: "utf8" });
    const calls = readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { args: string[]; secrets: { ADMIN_TOKEN: string } | null });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr, calls };
  }

  it("a failure of `wrangler secret list` other than 'no such Worker' stops the deploy: exit 1, nothing uploaded", () => {
    const r = deploy("denied");
    expect(r.status).toBe(1);
    expect(r.calls.map((c) => c.args[0])).toEqual(["secret"]);
    expect(r.stderr).toContain("deploy: stopped before uploading anything");
    expect(r.stderr).toContain("Authentication error [code: 10000]");
  });

  it("a new Worker gets a random token, printed once", () => {
    const r = deploy("new");
    expect(r.status).toBe(0);
    expect(r.calls.map((c) => c.args[0])).toEqual(["secret", "deploy"]);
    const token = r.calls[1]!.secrets!.ADMIN_TOKEN;
    expect(token).toMatch(/^mockllm-[\w-]{24}$/);
    expect(r.stdout).toContain(`admin token   ${token}   (keep it`);
  });

  it("an existing token is kept (no secrets file), even with $MOCKLLM_ADMIN_TOKEN set; --rotate-admin-token replaces it", () => {
    const kept = deploy("present", [], "team-token");
    expect(kept.status).toBe(0);
    expect(kept.calls.map((c) => [c.args[0], c.secrets])).toEqual([
      ["secret", null],
      ["deploy", null],
    ]);
    expect(kept.stdout).toContain("admin token   unchanged — $MOCKLLM_ADMIN_TOKEN not uploaded");
    const rotated = deploy("denied", ["--rotate-admin-token"], "team-token");
    expect(rotated.status).toBe(0);
    expect(rotated.calls).toEqual([{ args: ["deploy", "--minify", "--env=", "--secrets-file"], secrets: { ADMIN_TOKEN: "team-token" } }]);
  });
});
