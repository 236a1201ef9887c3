/**
 * The Messages API's rules for text in `messages`: no text block may be empty or whitespace only, and a final
 * assistant message (a prefill) may not end with whitespace — in the API's words (docs/providers/fidelity.md,
 * "Anthropic: empty and whitespace text"). Agents meet them when a tool's empty result, a trimmed answer or a
 * model's own `"\n\n"` reply goes back into the history.
 */
import { apiError, type ApiError } from "../../http/errors";
import { isBlank } from "../../util/text";
import type { MessagesRequest } from "./wire";

type Message = MessagesRequest["messages"][number];

/** The refusal of one text, else undefined. */
function textError(text: string): ApiError | undefined {
  if (!isBlank(text)) return undefined;
  if (text === "") return apiError("invalid_request", "messages: text content blocks must be non-empty");
  return apiError("invalid_request", "messages: text content blocks must contain non-whitespace text");
}

/** The last text of a message: its string content, or its last block when that is text. */
function lastText(m: Message): string | undefined {
  if (typeof m.content === "string") return m.content;
  const last = m.content.at(-1);
  return last?.type === "text" ? last.text : undefined;
}

/**
 * The first empty or whitespace-only text of the request's messages (a string content, a `text` block), then a final
 * assistant message ending in whitespace, else undefined.
 * @example textBlocksError({ model: "m", max_tokens: 9, messages: [{ role: "user", content: " " }] })?.message // "messages: text content blocks must contain non-whitespace text"
 */
export function textBlocksError(w: MessagesRequest): ApiError | undefined {
  for (const m of w.messages) {
    if (typeof m.content === "string") {
      const error = textError(m.content);
      if (error) return error;
      continue;
    }
    for (const b of m.content) {
      if (b.type !== "text") continue;
      const error = textError(b.text);
      if (error) return error;
    }
  }
  const final = w.messages.at(-1);
  const text = final?.role === "assistant" ? lastText(final) : undefined;
  if (text !== undefined && /\s$/.test(text)) return apiError("invalid_request", "messages: final assistant content cannot end with trailing whitespace");
  return undefined;
}
