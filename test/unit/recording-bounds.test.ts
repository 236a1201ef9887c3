/**
 * The recording's bounds: past RECORDING_MAX_STEPS steps or RECORDING_MAX_BYTES of frames a proxied request is
 * journaled but not recorded, and the journal says why. Reset forgets the recording.
 */
import { describe, expect, it } from "vitest";
import type { CanonicalRequest } from "../../src/canonical/request";
import { MemoryRecordingStorage } from "../../src/hosts/node/memory-recording";
import { RECORDING_MAX_BYTES, RECORDING_MAX_STEPS, recordRequest, type RecordInput } from "../../src/session/recording";

const request: CanonicalRequest = {
  provider: "openai",
  endpoint: "chat.completions",
  model: "m",
  stream: true,
  system: "",
  messages: [{ role: "user", text: "hi" }],
  tools: [],
  reasoning: "disabled",
  headers: {},
};

function input(data: string): RecordInput {
  return {
    request,
    wire: { method: "POST", path: "/v1/chat/completions", headers: {}, body: {} },
    at: 0,
    status: 200,
    reasons: [],
    step: { match: { turn: 1 }, frames: { status: 200, headers: {}, frames: [{ at: 1, data }] } },
  };
}

function journal() {
  const entries: { step: string | null; reasons: string[] }[] = [];
  return { entries, append: (e: { step: string | null; reasons: string[] }) => entries.push(e) };
}

describe("recording bounds", () => {
  it(`keeps at most ${RECORDING_MAX_STEPS} steps`, () => {
    const storage = new MemoryRecordingStorage({});
    const j = journal();
    for (let i = 0; i < RECORDING_MAX_STEPS + 1; i++) recordRequest(storage, j.append, input(`data: ${i}\n\n`));
    expect(storage.count()).toBe(RECORDING_MAX_STEPS);
    expect(storage.steps().at(-1)!.id).toBe(`rec-${RECORDING_MAX_STEPS}`);
    expect(j.entries.at(-1)).toMatchObject({ step: null, reasons: [`not recorded: the recording is full (${RECORDING_MAX_STEPS} steps)`] });
  });

  it(`keeps at most ${RECORDING_MAX_BYTES} bytes of frames`, () => {
    const storage = new MemoryRecordingStorage({});
    const j = journal();
    const big = "x".repeat(RECORDING_MAX_BYTES / 2);
    expect(recordRequest(storage, j.append, input(big)).step).toBe("rec-1");
    expect(recordRequest(storage, j.append, input(big)).step).toBe("rec-2");
    expect(recordRequest(storage, j.append, input("y")).step).toBeNull();
    expect(storage.bytes()).toBe(RECORDING_MAX_BYTES);
    expect(j.entries[2]!.reasons).toEqual([`not recorded: the recording is full (${RECORDING_MAX_BYTES} bytes of frames)`]);
    storage.clear();
    expect([storage.count(), storage.bytes()]).toEqual([0, 0]);
  });
});
