/**
 * Realtime conversation items (GA shapes) and the session object: what the client may create, as loose zod
 * schemas, and how the conversation maps onto a Responses request for the engine.
 */
import { z } from "zod";
import { lazily } from "../../../util/memo";

/** Built on the first Realtime socket (util/memo.ts `lazily`): a start pays for no provider's schemas. */
export const realtimeWire = lazily(() => {
  const TextPart = z.looseObject({ type: z.string(), text: z.string().optional(), transcript: z.string().optional() });

  const ClientItemSchema = z.discriminatedUnion("type", [
    z.looseObject({
      type: z.literal("message"),
      id: z.string().optional(),
      role: z.enum(["user", "assistant", "system"]),
      content: z.array(TextPart),
    }),
    z.looseObject({
      type: z.literal("function_call"),
      id: z.string().optional(),
      call_id: z.string().min(1),
      name: z.string().min(1),
      arguments: z.string(),
    }),
    z.looseObject({
      type: z.literal("function_call_output"),
      id: z.string().optional(),
      call_id: z.string().min(1),
      output: z.string(),
    }),
  ]);

  /** Fields of the session a client may set with `session.update` (everything else is kept as sent). */
  const SessionUpdateSchema = z.looseObject({
    type: z.enum(["realtime", "transcription"]).optional(),
    instructions: z.string().optional(),
    output_modalities: z.array(z.enum(["text", "audio"])).optional(),
    tools: z.array(z.looseObject({ type: z.string().optional(), name: z.string().optional() })).optional(),
    tool_choice: z.unknown().optional(),
    max_output_tokens: z.union([z.number(), z.literal("inf")]).optional(),
  });

  /** `response.create`'s optional per-response overrides. */
  const ResponseParamsSchema = z.looseObject({
    instructions: z.string().optional(),
    tools: z.array(z.looseObject({ type: z.string().optional(), name: z.string().optional() })).optional(),
    conversation: z.string().optional(),
    input: z.array(z.unknown()).optional(),
    output_modalities: z.array(z.enum(["text", "audio"])).optional(),
    metadata: z.record(z.string(), z.string()).nullish(),
  });
  return { ClientItemSchema, SessionUpdateSchema, ResponseParamsSchema };
});

/** A conversation item as the server keeps and echoes it. */
export type Item =
  | { id: string; type: "message"; object: "realtime.item"; status: "completed" | "in_progress" | "incomplete"; role: "user" | "assistant" | "system"; content: { type: string; text: string }[] }
  | { id: string; type: "function_call"; object: "realtime.item"; status: "completed" | "in_progress"; call_id: string; name: string; arguments: string }
  | { id: string; type: "function_call_output"; object: "realtime.item"; call_id: string; output: string };

/** A client item, with the id the server gives it when the client named none. */
export function toItem(raw: z.output<ReturnType<typeof realtimeWire>["ClientItemSchema"]>, id: string): Item | { audio: true } {
  const itemId = raw.id ?? id;
  switch (raw.type) {
    case "message": {
      if (raw.content.some((p) => p.type === "input_audio" || p.type === "output_audio" || p.type === "audio")) return { audio: true };
      const defaultType = raw.role === "assistant" ? "output_text" : "input_text";
      const content = raw.content.map((p) => ({ type: p.type === "text" ? defaultType : p.type, text: p.text ?? p.transcript ?? "" }));
      return { id: itemId, type: "message", object: "realtime.item", status: "completed", role: raw.role, content };
    }
    case "function_call":
      return { id: itemId, type: "function_call", object: "realtime.item", status: "completed", call_id: raw.call_id, name: raw.name, arguments: raw.arguments };
    case "function_call_output":
      return { id: itemId, type: "function_call_output", object: "realtime.item", call_id: raw.call_id, output: raw.output };
  }
}

/** The conversation as Responses input items (the engine reads them through the Responses parser). */
export function responsesInput(items: Item[]): unknown[] {
  return items.map((item) => {
    switch (item.type) {
      case "message":
        return {
          type: "message",
          role: item.role,
          content: item.content.map((p) => ({ type: item.role === "assistant" ? "output_text" : "input_text", text: p.text })),
        };
      case "function_call":
        return { type: "function_call", call_id: item.call_id, name: item.name, arguments: item.arguments };
      case "function_call_output":
        return { type: "function_call_output", call_id: item.call_id, output: item.output };
    }
  });
}

/** The session object `session.created` / `session.updated` carry (GA shape, text defaults). */
export function initialSession(id: string, model: string): Record<string, unknown> {
  return {
    type: "realtime",
    object: "realtime.session",
    id,
    model,
    // The real default is ["audio"]; mockllm answers in text (audio gets a documented error), so text is its default.
    output_modalities: ["text"],
    instructions: "",
    tools: [],
    tool_choice: "auto",
    max_output_tokens: "inf",
    tracing: null,
    prompt: null,
    expires_at: 0,
    audio: {
      input: {
        format: { type: "audio/pcm", rate: 24000 },
        transcription: null,
        noise_reduction: null,
        turn_detection: { type: "server_vad", threshold: 0.5, prefix_padding_ms: 300, silence_duration_ms: 200, idle_timeout_ms: null, create_response: true, interrupt_response: true },
      },
      output: { format: { type: "audio/pcm", rate: 24000 }, voice: "alloy", speed: 1 },
    },
    include: null,
  };
}
