/**
 * A session's recording (contract section 8, recording proxy): the upstream answers to requests no step answered,
 * each kept as a step (matcher + frames), in the order they finished. Runtime-free; each runtime implements
 * `RecordingStorage` (SQLite in the Durable Object, memory on Node). Bounded: at most RECORDING_MAX_STEPS steps and
 * RECORDING_MAX_BYTES of frame data per session; past either bound requests are still proxied but not recorded, and
 * the journal says so.
 */
import { turnOf, type CanonicalRequest } from "../canonical/request";
import type { Matcher, RecordedFrames } from "../scenario/schema";
import { journaledWire, type JournaledInput } from "./caller";
import type { JournalDraft } from "./core";

/** Most recorded steps one session keeps. */
export const RECORDING_MAX_STEPS = 200;
/** Most frame data (UTF-8 bytes of every frame's `data`) one session keeps: 16 MiB. */
export const RECORDING_MAX_BYTES = 16 * 1024 * 1024;

export interface RecordedStep {
  /** `rec-{n}`, 1-based, in recording order. */
  id: string;
  /** Journal seq of the request. */
  seq: number;
  match: Matcher;
  frames: RecordedFrames;
}

export interface RecordingStorage {
  /** Recorded steps, oldest first. */
  steps(): RecordedStep[];
  count(): number;
  /** Frame data kept, in UTF-8 bytes. */
  bytes(): number;
  add(step: RecordedStep, bytes: number): void;
  clear(): void;
}

/** One proxied request, reported once the upstream's answer has ended (or could not be had). */
export interface RecordInput extends JournaledInput {
  request: CanonicalRequest;
  /** When the request arrived (ms since the epoch). */
  at: number;
  /** Status the client got: the upstream's, or 502 when it could not be reached. */
  status: number;
  /** Why (e.g. "upstream unreachable: …"); empty for a recorded answer. */
  reasons: string[];
  /** The answer to keep; absent when there is nothing to record. */
  step?: { match: Matcher; frames: RecordedFrames };
}

export interface RecordResult {
  seq: number;
  /** The recorded step's id; null when nothing was recorded. */
  step: string | null;
}

const encoder = new TextEncoder();

export function frameBytes(frames: RecordedFrames): number {
  let n = 0;
  for (const f of frames.frames) n += encoder.encode(f.data).byteLength;
  return n;
}

/**
 * Records one proxied request: journals it through `journal` and keeps its answer as a step, within the bounds.
 * @example recordRequest(storage, (e) => core.journalEntry(e), input)
 */
export function recordRequest(storage: RecordingStorage, journal: (entry: JournalDraft) => number, input: RecordInput): RecordResult {
  const reasons = [...input.reasons];
  let keep: { id: string; bytes: number } | undefined;
  if (input.step) {
    const bytes = frameBytes(input.step.frames);
    if (storage.count() >= RECORDING_MAX_STEPS) reasons.push(`not recorded: the recording is full (${RECORDING_MAX_STEPS} steps)`);
    else if (storage.bytes() + bytes > RECORDING_MAX_BYTES) reasons.push(`not recorded: the recording is full (${RECORDING_MAX_BYTES} bytes of frames)`);
    else keep = { id: `rec-${storage.count() + 1}`, bytes };
  }
  const seq = journal({
    at: new Date(input.at).toISOString(),
    provider: input.request.provider,
    endpoint: input.request.endpoint,
    stream: input.request.stream,
    turn: turnOf(input.request),
    step: keep?.id ?? null,
    outcome: input.step ? "response" : "failure",
    reasons: keep ? ["recorded from upstream", ...reasons] : reasons,
    request: journaledWire(input),
    status: input.status,
  });
  if (keep && input.step) storage.add({ id: keep.id, seq, match: input.step.match, frames: input.step.frames }, keep.bytes);
  return { seq, step: keep?.id ?? null };
}
