/**
 * The instruction block of the default responder (contract section 7):
 * `<|instruction_start|>{json}<|instruction_end|>` in the last user message drives the answer.
 */
import { z } from "zod";
import { parseJsonBounded } from "../http/json-depth";
import { lazily } from "../util/memo";

export const INSTRUCTION_START = "<|instruction_start|>";
export const INSTRUCTION_END = "<|instruction_end|>";

/** Upper bound on any `length`, so one request cannot ask for an unbounded answer. */
export const MAX_LENGTH = 100_000;

/** The block's schemas, built on the first block read (util/memo.ts `lazily`): a start pays for none. */
const schemas = lazily(() => {
  const Length = z.number().int().min(0).max(MAX_LENGTH);

  /** One `tool_call` entry: `args` is sent as JSON, or verbatim when it is a string (even invalid JSON). */
  const InstructionToolCall = z.looseObject({ name: z.string().min(1), args: z.unknown().optional() });

  /** `{ text_message: { length } }` or `{ tool_call: [{ name, args }] }`, tagged on the way in. */
  const InstructionMessageSchema = z.union([
    z.looseObject({ text_message: z.looseObject({ length: Length }) }).transform((m) => ({ kind: "text" as const, length: m.text_message.length })),
    z.looseObject({ tool_call: z.array(InstructionToolCall).min(1) }).transform((m) => ({ kind: "tool_call" as const, calls: m.tool_call })),
  ]);

  /** What clients send inside the block. Loose: unknown fields are ignored. */
  const InstructionsSchema = z.looseObject({
    /** Written before and after every reasoning and text stream; not counted in any length. */
    id_message: z.string().optional(),
    /** Lorem words of reasoning streamed before each text message. */
    reasoning: z.looseObject({ length: Length }).optional(),
    /** One assistant message each, in order: a choice index each on OpenAI Chat. */
    messages: z.array(InstructionMessageSchema).min(1),
  });
  return { InstructionMessageSchema, InstructionsSchema };
});
type Schemas = ReturnType<typeof schemas>;
export type InstructionMessage = z.output<Schemas["InstructionMessageSchema"]>;
export type Instructions = z.output<Schemas["InstructionsSchema"]>;

/**
 * The instructions in `message`, or undefined when there is no block or its JSON is invalid
 * (the caller then falls back to the lorem answer).
 * @example parseInstructions('<|instruction_start|>{"messages":[{"text_message":{"length":3}}]}<|instruction_end|>')
 */
export function parseInstructions(message: string): Instructions | undefined {
  const start = message.indexOf(INSTRUCTION_START);
  if (start < 0) return undefined;
  const end = message.indexOf(INSTRUCTION_END, start + INSTRUCTION_START.length);
  if (end < 0) return undefined;
  let json: unknown;
  try {
    json = parseJsonBounded(message.slice(start + INSTRUCTION_START.length, end));
  } catch {
    return undefined;
  }
  const parsed = schemas().InstructionsSchema.safeParse(json);
  return parsed.success ? parsed.data : undefined;
}
