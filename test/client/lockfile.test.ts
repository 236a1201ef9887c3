// A fresh clone's install leaves package-lock.json as committed (issue 37, point 8): npm, resolving package.json
// against the lockfile the way `npm install` does, writes it back byte for byte, and `npm ci` accepts it. Run on a copy
// (package.json, package-lock.json, .npmrc) so neither this checkout's lockfile nor its node_modules is touched.
import { copyFile, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { exec } from "./package-install";

const repo = fileURLToPath(new URL("../..", import.meta.url));
const dirs: string[] = [];

/** A directory holding a copy of the project's package.json, package-lock.json and .npmrc. */
async function copyProject(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "mockllm-lock-"));
  dirs.push(dir);
  for (const f of ["package.json", "package-lock.json", ".npmrc"]) await copyFile(join(repo, f), join(dir, f));
  return dir;
}
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe("package-lock.json", () => {
  it("npm install (lockfile only) writes it back unchanged, for this platform and another", async () => {
    const committed = await readFile(join(repo, "package-lock.json"), "utf8");
    const dir = await copyProject();
    for (const platform of [[], ["--os=darwin", "--cpu=arm64"]]) {
      const r = await exec("npm", ["install", "--package-lock-only", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error", ...platform], dir);
      expect(r.code, r.stderr).toBe(0);
      expect(await readFile(join(dir, "package-lock.json"), "utf8")).toBe(committed);
    }
  }, 120_000);

  it("npm ci accepts it as in step with package.json", async () => {
    const dir = await copyProject();
    const r = await exec("npm", ["ci", "--dry-run", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"], dir);
    expect(r.stderr).not.toContain("in sync");
    expect(r.code, r.stderr).toBe(0);
  }, 120_000);
});
