/** Global setup of project `node`: a folder for this run's bundled Worker (see worker-bundle.ts), removed after. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";

export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), "mockllm-test-worker-"));
  project.provide("workerBundleDir", dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
