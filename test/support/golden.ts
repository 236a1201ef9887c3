/**
 * Golden wire text: whole SSE transcripts compared after normalising what legitimately varies (timestamps).
 * `UPDATE_GOLDEN=1` rewrites the files instead of comparing.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";

const GOLDEN_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "golden");

/** One replacement: what legitimately varies in a transcript, and the placeholder the golden file holds instead. */
export type Rule = readonly [pattern: RegExp, placeholder: string];

/** Anthropic's generated ids (messages, tool uses, requests). */
export const ANTHROPIC_IDS: readonly Rule[] = [
  [/msg_01[0-9A-Za-z]{22}/g, "msg_01<id>"],
  [/toolu_01[0-9A-Za-z]{22}/g, "toolu_01<id>"],
  [/req_011C[1-9A-HJ-NP-Za-km-z]{20}/g, "req_011C<id>"],
];

/** The Responses API's ids: deterministic, but normalised so a change in how they are derived does not churn every transcript. */
export const RESPONSES_IDS: readonly Rule[] = [
  [/resp_[0-9a-f]{50}/g, "resp_<id>"],
  [/\b(msg|fc|rs)_[0-9a-f]{50}/g, "$1_<id>"],
  [/call_[0-9A-Za-z]{24}/g, "call_<id>"],
  [/req_[0-9a-f]{32}/g, "req_<id>"],
];

/** Ollama's wall clock (`created_at` as an ISO string). */
export const OLLAMA_CLOCK: readonly Rule[] = [[/"created_at":"[^"]+"/g, '"created_at":"<time>"']];
/** Ollama's tool-call ids, derived from the request's order. */
export const OLLAMA_CALL_IDS: readonly Rule[] = [[/"call_[0-9a-z]{8}"/g, '"call_<id>"']];
/** Ollama's `*_duration` counters (nanoseconds measured). */
export const OLLAMA_DURATIONS: readonly Rule[] = [[/"(\w+_duration)":\d+/g, '"$1":0']];

/** `text` with every rule of `sets` applied in order; everything else stays byte for byte. */
export function normalize(text: string, ...sets: (readonly Rule[])[]): string {
  let out = text;
  for (const [pattern, placeholder] of sets.flat()) out = out.replace(pattern, placeholder);
  return out;
}

/** Replaces unix timestamps (`created`, `created_at`, `completed_at`) with 0, and ISO ones (Gemini interactions' `created`, `updated`) with `<time>`. */
export function normalizeTranscript(text: string): string {
  return text.replace(/"(created|created_at|completed_at)":\d+/g, '"$1":0').replace(/"(created|updated)":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"/g, '"$1":"<time>"');
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
