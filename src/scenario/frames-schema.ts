/**
 * The recorded-answer reply kind's schemas (`respond.frames` and its `timing`, contract section 8; the table:
 * src/scenario/reply-kinds.ts). Re-exported by src/scenario/schema.ts.
 */
import { z } from "zod";

/** The recorded response headers (the same shape as a step's extra `headers`). */
const HeadersSchema = z.record(z.string(), z.string());

/** One recorded frame: `at` ms after the request, `data` one SSE event (blank line included), NDJSON line or JSON body. */
export const FrameSchema = z.strictObject({
  at: z.number().min(0).describe("Milliseconds after the request."),
  data: z.string().describe("One SSE event (blank line included), NDJSON line or JSON body."),
});

/** A recorded answer, replayed byte for byte (contract section 8, `respond.frames`). */
export const FramesSchema = z.strictObject({
  status: z.number().int().min(200).max(599).describe("The recorded status."),
  headers: HeadersSchema.describe("The recorded response headers."),
  frames: z.array(FrameSchema).describe("The recorded body, frame by frame."),
  truncated: z.boolean().optional().describe("The upstream broke off after these frames: the replay breaks the connection the same way."),
});
export type RecordedFrames = z.output<typeof FramesSchema>;

/** How a `frames` answer is paced: no delays (default), as recorded, or the recorded offsets divided by `speed`. */
export const TimingSchema = z.union([
  z.enum(["none", "recorded"]),
  z.strictObject({
    speed: z.number().positive().describe("The recorded offsets are divided by this (2 = twice as fast)."),
  }),
]);
export type Timing = z.output<typeof TimingSchema>;
