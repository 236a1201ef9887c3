/**
 * What clients send to Ollama's `POST /api/chat` and `POST /api/generate`. Loose: unknown fields pass, and a
 * little more is accepted than Ollama's Go decoder takes (tool-call `arguments` as a JSON string as well as an
 * object). Type errors are worded the way Go's `encoding/json` words them, since that is what Ollama returns.
 */
import { z } from "zod";
import { lazily } from "../../util/memo";

/** Go's name for the JSON type of a value: what `json: cannot unmarshal X into …` reports. */
function jsonKind(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "boolean") return "bool";
  return typeof v;
}

/** Error param that makes zod's message Go's: `json: cannot unmarshal number into Go struct field … of type string`. */
function goType(type: string) {
  return { error: (issue: { input?: unknown }) => `cannot unmarshal ${jsonKind(issue.input)} into Go value of type ${type}` };
}

const str = () => z.string(goType("string"));
const optStr = () => str().optional();
const optNumber = () => z.number(goType("float64")).optional();

/** Built on the first /api/chat or /api/generate request (util/memo.ts `lazily`): a start pays for no provider's schemas. */
export const ollamaWire = lazily(() => {
  /** `function.arguments`: an object (Ollama), or a JSON text (accepted, as OpenAI-style clients send it). */
  const ArgumentsSchema = z.union([z.record(z.string(), z.unknown()), z.string()], goType("api.ToolCallFunctionArguments"));

  const ToolCallSchema = z.looseObject(
    {
      id: optStr(),
      function: z.looseObject({ name: str(), arguments: ArgumentsSchema.optional(), index: z.unknown().optional() }, goType("api.ToolCallFunction")),
    },
    goType("api.ToolCall"),
  );

  const MessageSchema = z.looseObject(
    {
      /** Ollama passes any role to the model's template; mockllm reads system, user, assistant and tool. */
      role: str(),
      content: optStr(),
      images: z.array(z.unknown(), goType("[]api.ImageData")).nullish(),
      tool_calls: z.array(ToolCallSchema, goType("[]api.ToolCall")).nullish(),
      thinking: optStr(),
      tool_name: optStr(),
      tool_call_id: optStr(),
    },
    goType("api.Message"),
  );

  const ToolSchema = z.looseObject({ type: z.unknown().optional(), function: z.looseObject({ name: z.unknown().optional() }).optional() }, goType("api.Tool"));

  /** `options`: the sampling fields mockllm reads; the rest (num_ctx, seed, stop, …) pass unread. */
  const OptionsSchema = z.looseObject({ temperature: optNumber(), top_p: optNumber(), num_predict: optNumber() }, goType("map[string]interface {}"));

  /** `think`: a boolean, or a level for models that take one. */
  const ThinkSchema = z.union([z.boolean(), z.enum(["high", "medium", "low"])], {
    error: (issue) => `invalid think value: ${JSON.stringify(issue.input)} (must be "high", "medium", "low", true, or false)`,
  });

  const common = {
    /** Required, but checked in parse: Ollama answers a missing or empty one with "model is required". */
    model: optStr(),
    stream: z.boolean(goType("bool")).nullish(),
    format: z.unknown().optional(),
    options: OptionsSchema.nullish(),
    think: ThinkSchema.nullish(),
    keep_alive: z.unknown().optional(),
  };

  /** `POST /api/chat`. */
  const ChatRequestSchema = z.looseObject({
    ...common,
    messages: z.array(MessageSchema, goType("[]api.Message")).nullish(),
    tools: z.array(ToolSchema, goType("api.Tools")).nullish(),
  });

  /** `POST /api/generate`. */
  const GenerateRequestSchema = z.looseObject({
    ...common,
    prompt: optStr(),
    suffix: optStr(),
    system: optStr(),
    template: optStr(),
    context: z.array(z.number(goType("int")), goType("[]int")).nullish(),
    raw: z.boolean(goType("bool")).nullish(),
    images: z.array(z.unknown(), goType("[]api.ImageData")).nullish(),
  });
  return { MessageSchema, ChatRequestSchema, GenerateRequestSchema };
});
type OllamaWire = ReturnType<typeof ollamaWire>;
export type WireMessage = z.output<OllamaWire["MessageSchema"]>;
export type ChatRequest = z.output<OllamaWire["ChatRequestSchema"]>;
export type GenerateRequest = z.output<OllamaWire["GenerateRequestSchema"]>;

/**
 * The first issue of a failed parse as Ollama words it: `json: cannot unmarshal number into Go struct field
 * .messages.content of type string` (the Go struct name is left out), or the think-value sentence as is.
 */
export function describeIssue(issues: readonly z.core.$ZodIssue[]): string {
  const issue = issues[0];
  if (!issue) return "invalid request body";
  const path = issue.path
    .filter((k) => typeof k === "string")
    .map(String)
    .join(".");
  const m = /^cannot unmarshal (\S+) into Go value of type (.+)$/.exec(issue.message);
  if (m) return path === "" ? `json: ${issue.message}` : `json: cannot unmarshal ${m[1]} into Go struct field .${path} of type ${m[2]}`;
  return issue.message;
}
