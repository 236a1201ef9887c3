/**
 * `GET /v1/responses/{id}?stream=true[&starting_after=N]`: a stored response replayed as the SSE transcript it was
 * streamed as (one word per text delta, no pacing), events numbered as before and filtered by `starting_after`.
 */
import { z } from "zod";
import type { SseEvent } from "../../types";
import type { ResponseObject } from "./render-json";
import { responseDrafts, toSse } from "./render-stream";
import { lazily } from "../../../util/memo";

/** Built on the first replayed response (util/memo.ts `lazily`): a start pays for none of it. */
/** The `billing` member as a JSON body carries it. */
const BILLING_JSON = `,"billing":{"payer":"developer"}`;

const storedResponseSchema = lazily(() => {
  const OutputItemSchema = z.discriminatedUnion("type", [
    z.object({
      id: z.string(),
      type: z.literal("reasoning"),
      content: z.array(z.never()).default([]),
      encrypted_content: z.string().optional(),
      summary: z.array(z.object({ type: z.literal("summary_text"), text: z.string() })),
    }),
    z.object({
      id: z.string(),
      type: z.literal("message"),
      status: z.enum(["completed", "incomplete"]),
      content: z.array(
        z.discriminatedUnion("type", [
          z.object({ type: z.literal("output_text"), text: z.string(), annotations: z.array(z.never()), logprobs: z.array(z.never()) }),
          z.object({ type: z.literal("refusal"), refusal: z.string() }),
        ]),
      ),
      role: z.literal("assistant"),
    }),
    z.object({
      id: z.string(),
      type: z.literal("function_call"),
      status: z.literal("completed"),
      arguments: z.string(),
      call_id: z.string(),
      name: z.string(),
    }),
    z.object({ id: z.string(), type: z.literal("compaction"), encrypted_content: z.string() }),
  ]);

  const UsageSchema = z.object({
    input_tokens: z.number(),
    // A response an older mockllm stored has no `cache_write_tokens`: replayed with 0, as the API sends it now.
    input_tokens_details: z.object({ cached_tokens: z.number(), cache_write_tokens: z.number().default(0) }),
    output_tokens: z.number(),
    output_tokens_details: z.object({ reasoning_tokens: z.number() }),
    total_tokens: z.number(),
  });

  /** A stored response object, as `buildResponse` wrote it. */
  const StoredResponseSchema = z.looseObject({
    id: z.string(),
    object: z.literal("response"),
    created_at: z.number(),
    status: z.enum(["completed", "incomplete", "failed", "in_progress"]),
    error: z.object({ code: z.string(), message: z.string() }).nullable(),
    incomplete_details: z.object({ reason: z.string() }).nullable(),
    output: z.array(OutputItemSchema),
    usage: UsageSchema.nullable(),
  });
  return StoredResponseSchema;
});

/** `parsed`'s members in the order of `stored`'s keys (members only `parsed` has, defaults, after them). */
function inStoredOrder(stored: Record<string, unknown>, parsed: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(stored)) if (k in parsed) out[k] = parsed[k];
  for (const k of Object.keys(parsed)) if (!(k in out)) out[k] = parsed[k];
  return out;
}

/**
 * The replayed transcript of a stored response (JSON text), or undefined when it no longer validates.
 * @example replayEvents(stored, 3)[0].data // '{"type":…,"sequence_number":4,…}'
 */
export function replayEvents(stored: string, startingAfter: number | undefined): SseEvent[] | undefined {
  let value: unknown;
  try {
    // A response stored as its JSON body carries `billing` (after `background`, before any client text); events do not.
    value = JSON.parse(stored.replace(BILLING_JSON, ""));
  } catch {
    return undefined;
  }
  const parsed = storedResponseSchema().safeParse(value);
  if (!parsed.success) return undefined;
  // zod's object puts the schema's keys first; the events carry them in the order stored (the live stream's).
  const response = inStoredOrder(value as Record<string, unknown>, parsed.data) as ResponseObject;
  const events = toSse(responseDrafts(response, 1));
  return startingAfter === undefined ? events : events.slice(startingAfter + 1);
}
