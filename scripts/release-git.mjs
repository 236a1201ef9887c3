#!/usr/bin/env node
/**
 * `npm run release:git`: makes the git ref a project installs mockllm from by git URL with no build on its machine.
 * A branch (main) has no dist/ (it is built, not tracked), and npm, given a git URL whose package.json has a `build`,
 * `prepack` or `prepare` script, installs every dev dependency in its clone (wrangler, workerd, the SDKs) before packing
 * it. So each release is a commit of the packed package itself (`npm pack`: dist/ built, `files` only) whose package.json
 * has no scripts and no devDependencies, on its own branch (default `release`, each release's parent the one before) and
 * tagged `v<version>`:
 *
 *   npm run release:git && git push origin release v0.1.0
 *   npm install --save-dev "git+https://github.com/<owner>/mockllm.git#v0.1.0"     # in the user's project
 *
 * Usage: node scripts/release-git.mjs [--tarball <file>] [--repo <dir>] [--branch <name>] [--tag <name>] [--force]
 *   --tarball  a packed tarball to commit (default: `npm pack` here, which builds dist/ first)
 *   --repo     the git repository to write the commit, branch and tag into (default: this one)
 *   --force    move the tag when it already names another commit
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const { values } = parseArgs({
  options: {
    tarball: { type: "string" },
    repo: { type: "string" },
    branch: { type: "string", default: "release" },
    tag: { type: "string" },
    force: { type: "boolean", default: false },
  },
});
const repo = resolve(values.repo ?? root);
const work = mkdtempSync(join(tmpdir(), "mockllm-release-"));

/** git in `repo`, its output trimmed; `env` adds to the environment. */
const git = (args, env = {}) => execFileSync("git", args, { cwd: repo, env: { ...process.env, ...env }, encoding: "utf8" }).trim();

try {
  let tarball = values.tarball && resolve(values.tarball);
  if (!tarball) {
    const packed = JSON.parse(execFileSync("npm", ["pack", "--json", "--pack-destination", work], { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }));
    tarball = join(work, packed[0].filename);
  }
  execFileSync("tar", ["xzf", tarball, "-C", work]);
  const tree = join(work, "package");
  const pkg = JSON.parse(readFileSync(join(tree, "package.json"), "utf8"));
  // What only this repo's own development needs: with no scripts npm packs the clone as it is, and a git dependency's
  // devDependencies are what npm would install to prepare it.
  delete pkg.scripts;
  delete pkg.devDependencies;
  delete pkg.allowScripts;
  writeFileSync(join(tree, "package.json"), `${JSON.stringify(pkg, null, 2)}\n`);

  const env = { GIT_INDEX_FILE: join(work, "index"), GIT_WORK_TREE: tree };
  git(["add", "--all", "--force", "."], env);
  const treeId = git(["write-tree"], env);
  const parent = (() => {
    try {
      return git(["rev-parse", "--verify", "--quiet", `refs/heads/${values.branch}`]);
    } catch {
      return undefined;
    }
  })();
  let from = "";
  try {
    from = ` from ${execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: root, encoding: "utf8" }).trim()}`;
  } catch {}
  const message = `mockllm ${pkg.version}: the packed package${from} (dist/ built, no scripts, no devDependencies)`;
  const commit = git(["commit-tree", treeId, ...(parent ? ["-p", parent] : []), "-m", message]);
  git(["update-ref", `refs/heads/${values.branch}`, commit]);
  const tag = values.tag ?? `v${pkg.version}`;
  git(["tag", ...(values.force ? ["--force"] : []), tag, commit]);
  console.log(`release-git: ${tag} (${commit.slice(0, 12)}) on branch ${values.branch}: ${message}`);
  console.log(`  publish:  git push origin ${values.branch} ${tag}`);
  console.log(`  install:  npm install --save-dev "git+https://<host>/<owner>/mockllm.git#${tag}"`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
