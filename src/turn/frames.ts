/**
 * Replays a recorded answer (`respond.frames`): the recorded status and headers, then every frame's bytes in one
 * write each, at no delay, at the recorded offsets, or at the offsets divided by `speed`. A recording marked
 * `truncated` breaks the connection after its last frame, as the upstream did.
 */
import type { Reply } from "../canonical/outcome";
import { breakAfterFlush, writtenBody } from "../http/sse";
import type { RecordedFrames, Timing } from "../scenario/schema";
import type { Exec } from "../runtime/types";
import { Response } from "../http/web";

const encoder = new TextEncoder();

/** When each frame is due, in ms after the request. */
export function frameSchedule(frames: RecordedFrames["frames"], timing: Timing | undefined): number[] {
  if (timing === undefined || timing === "none") return frames.map(() => 0);
  const speed = timing === "recorded" ? 1 : timing.speed;
  return frames.map((f) => f.at / speed);
}

/**
 * The body of a recorded answer: one chunk per frame, on its schedule.
 * @example new Response(framesBody(recorded, "recorded", exec), { status: recorded.status })
 */
export function framesBody(recorded: RecordedFrames, timing: Timing | undefined, exec: Exec): ReadableStream<Uint8Array> {
  const due = frameSchedule(recorded.frames, timing);
  const start = Date.now();
  // Each write waits until the runtime has taken the previous frame.
  return writtenBody(exec.waitUntil, exec.bodyPipe, exec.signal, async (writer, pauses) => {
    for (let i = 0; i < recorded.frames.length; i++) {
      await pauses.sleep((due[i] ?? 0) - (Date.now() - start));
      if (pauses.aborted) throw new Error("client disconnected");
      await writer.write(encoder.encode(recorded.frames[i]!.data));
    }
    if (recorded.truncated === true) return breakAfterFlush(writer, exec.breakConnection);
    await writer.close();
  });
}

/**
 * A step's recorded answer as the client gets it: status, recorded headers (plus mockllm's own), frames.
 * @example if (reply.frames) return framesResponse(reply, exec, extra)
 */
export function framesResponse(reply: Reply & { frames: RecordedFrames }, exec: Exec, extra: Record<string, string>): Response {
  const recorded = reply.frames;
  const body = recorded.frames.length === 0 && recorded.truncated !== true ? null : framesBody(recorded, reply.timing, exec);
  return new Response(body, { status: recorded.status, headers: { ...recorded.headers, ...extra } });
}
