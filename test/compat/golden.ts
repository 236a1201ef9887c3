/**
 * Golden wire text: whole SSE transcripts compared after normalising what legitimately varies (timestamps).
 * `UPDATE_GOLDEN=1` rewrites the files instead of comparing.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";

const GOLDEN_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "golden");

/** Replaces unix timestamps (`created`, `created_at`, `completed_at`) with 0. */
export function normalizeTranscript(text: string): string {
  return text.replace(/"(created|created_at|completed_at)":\d+/g, '"$1":0');
}

export function expectGolden(relativePath: string, actual: string): void {
  const file = join(GOLDEN_ROOT, relativePath);
  const text = normalizeTranscript(actual);
  if (process.env.UPDATE_GOLDEN === "1" || !existsSync(file)) {
    if (process.env.CI && !existsSync(file)) throw new Error(`golden file ${relativePath} is missing`);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    return;
  }
  expect(text).toBe(readFileSync(file, "utf8"));
}
