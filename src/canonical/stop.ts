/**
 * The request's stop sequences (OpenAI `stop`, Anthropic `stop_sequences`, Gemini `stopSequences`, Bedrock
 * `inferenceConfig.stopSequences`, Ollama `options.stop`) applied to a reply, in one place for every surface: the
 * text ends before the first stop sequence the model would have written, which is not sent.
 */
import { replyChoices, type Reply } from "./outcome";
import { toolCallTokens } from "./limit";
import { wordCount } from "../util/text";
import { firstCompleted } from "../util/first-occurrence";

/**
 * Where `text` stops: the occurrence that is complete first as the text is written (ties: the earlier start). Linear in
 * the text and the sequences however many there are (util/first-occurrence.ts).
 */
export function firstStop(text: string, stops: readonly string[]): { at: number; sequence: string } | undefined {
  const found = firstCompleted(text, stops);
  return found === undefined ? undefined : { at: found.at, sequence: found.text };
}

/**
 * The stop sequences a wire field carries: a string or an array of strings (OpenAI's `stop` takes both), empty
 * strings dropped; undefined when none is left.
 * @example stopSequencesOf(["\n\n", ""]) // ["\n\n"]
 */
export function stopSequencesOf(value: unknown): string[] | undefined {
  const list = typeof value === "string" ? [value] : Array.isArray(value) ? value.filter((s): s is string => typeof s === "string") : [];
  const kept = list.filter((s) => s !== "");
  return kept.length > 0 ? kept : undefined;
}

/**
 * `reply` as a model asked to stop at `stops` would send it: its text (then the next message's, for the further
 * messages of `extraChoices`) ends before the first stop sequence, and nothing after the cut is sent — no tool call,
 * no further message. A cut reply ends with `finishReason: "stop"` and `stopSequence` naming the sequence; its output
 * tokens lose the words and tool calls not sent. Reasoning is never cut (the providers apply stop sequences to the
 * answer's text). A reply none of whose text holds a stop sequence, a recorded one (`frames`) or a compaction is
 * returned as it is.
 * @example stopReply({ ...reply, text: "lorem ipsum dolor sit" }, ["dolor"]).text // "lorem ipsum "
 */
export function stopReply(reply: Reply, stops: readonly string[] | undefined): Reply {
  if (stops === undefined || stops.length === 0 || reply.frames !== undefined || reply.compaction !== undefined) return reply;
  const choices = replyChoices(reply);
  for (let i = 0; i < choices.length; i++) {
    const choice = choices[i]!;
    if (choice.text === undefined) continue;
    const hit = firstStop(choice.text, stops);
    if (hit === undefined) continue;
    const text = choice.text.slice(0, hit.at);
    let removed = wordCount(choice.text) - wordCount(text);
    for (const call of choice.toolCalls) removed += toolCallTokens(call);
    for (const later of choices.slice(i + 1)) {
      removed += wordCount(later.text ?? "");
      for (const call of later.toolCalls) removed += toolCallTokens(call);
    }
    const { extraChoices: _extra, ...rest } = choice;
    const cut: Reply = { ...rest, text, toolCalls: [], finishReason: "stop", stopSequence: hit.sequence };
    const [first, ...more] = [...choices.slice(0, i), cut];
    const { extraChoices: _first, ...head } = first!;
    return {
      ...head,
      stopSequence: hit.sequence,
      usage: { ...reply.usage, outputTokens: Math.max(1, wordCount(text), reply.usage.outputTokens - removed) },
      ...(more.length > 0 ? { extraChoices: more } : {}),
    };
  }
  return reply;
}

/**
 * The canonical request's `stopSequences` field from a wire value, to spread into the request (nothing when none).
 * @example { ...stopField(body.stop) } // { stopSequences: ["\n"] }
 */
export function stopField(value: unknown): { stopSequences?: string[] } {
  const stopSequences = stopSequencesOf(value);
  return stopSequences !== undefined ? { stopSequences } : {};
}
