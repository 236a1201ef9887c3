/**
 * OpenAI's `tool_choice` (Chat Completions and Responses) → the canonical tool choice. Read leniently: auto, and a
 * shape mockllm does not know, are left out, as before tool choice was read at all.
 */
import { z } from "zod";
import type { CanonicalToolChoice } from "../../canonical/request";
import { lazily } from "../../util/memo";

/** Built on the first request that names a tool choice (util/memo.ts `lazily`): a start pays for none of it. */
const toolChoiceWire = lazily(() => {
  /** Chat nests the name (`{ function: { name } }`), Responses puts it flat (`{ name }`). */
  const Named = z.looseObject({ name: z.string().optional(), function: z.looseObject({ name: z.string() }).optional() });

  const ToolChoiceSchema = z.union([
    z.enum(["none", "auto", "required"]),
    Named.extend({ type: z.literal("function") }),
    z.looseObject({
      type: z.literal("allowed_tools"),
      /** Responses: `mode` and `tools` flat; Chat: inside `allowed_tools`. */
      mode: z.enum(["auto", "required"]).optional(),
      tools: z.array(Named).optional(),
      allowed_tools: z.looseObject({ mode: z.enum(["auto", "required"]), tools: z.array(Named) }).optional(),
    }),
  ]);
  return { Named, ToolChoiceSchema };
});
type Named = z.output<ReturnType<typeof toolChoiceWire>["Named"]>;

const nameOf = (t: Named) => t.function?.name ?? t.name;

/**
 * @example openaiToolChoice({ type: "function", function: { name: "get_weather" } }) // { kind: "tool", name: "get_weather" }
 * @example openaiToolChoice("required") // { kind: "required" }
 */
export function openaiToolChoice(raw: unknown): CanonicalToolChoice | undefined {
  // Most requests name no tool choice: answered before the schema, whose failed union would build issues to discard.
  if (raw === undefined || raw === null) return undefined;
  const parsed = toolChoiceWire().ToolChoiceSchema.safeParse(raw);
  if (!parsed.success) return undefined;
  const c = parsed.data;
  if (typeof c === "string") return c === "auto" ? undefined : { kind: c };
  if (c.type === "function") {
    const name = nameOf(c);
    return name === undefined ? undefined : { kind: "tool", name };
  }
  const mode = c.allowed_tools?.mode ?? c.mode;
  const tools = c.allowed_tools?.tools ?? c.tools;
  if (mode === undefined || tools === undefined) return undefined;
  const allowed = tools.flatMap((t) => {
    const name = nameOf(t);
    return name === undefined ? [] : [name];
  });
  return mode === "required" ? { kind: "required", allowed } : undefined;
}
