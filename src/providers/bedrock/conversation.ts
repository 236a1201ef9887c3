/**
 * What the Converse API refuses in a body that parses: a tool name outside its pattern (the service's request
 * validation, `Member must satisfy regular expression pattern`), then the shape of the conversation, each in the
 * service's own sentence (docs/providers/fidelity.md, "Bedrock Converse: the conversation's shape") — a conversation
 * that starts with the assistant or does not alternate (the most common Converse 400 of agent frameworks: parallel
 * tool results sent as separate user messages), an empty message, a blank text block, reasoning in a user message,
 * duplicate tool-use ids, more tool results than the previous turn's tool uses, a tool schema that is not an object.
 * Not for a scenario with `strict: false`, nor while recording: the surface's whole `validate` is skipped (src/providers/surface.ts).
 */
import { apiError, type ApiError } from "../../http/errors";
import { echoed } from "../../util/text";
import type { ContentBlock, ConverseRequest } from "./wire";

/** `ToolName`: the pattern the service names in its refusal (a dot or a colon, as MCP names often have, is outside it). */
const TOOL_NAME = /^[a-zA-Z0-9_-]+$/;

const invalid = (message: string) => apiError("invalid_request", message);

/**
 * The request-validation sentence for the members at `paths` (list members counted from 1, `member` between, as the
 * service writes them: `messages.3.member.content.2.member.toolUse.name`), the values not quoted (they are sensitive).
 * @example coralError([["toolConfig.tools.1.member.toolSpec.name", "Member must satisfy regular expression pattern: [a-zA-Z0-9_-]+"]]).message // "1 validation error detected: Value at 'toolConfig.tools.1.member.toolSpec.name' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_-]+"
 */
export function coralError(violations: readonly (readonly [path: string, constraint: string])[]): ApiError {
  const n = violations.length;
  const listed = violations.map(([path, constraint]) => `Value at '${path}' failed to satisfy constraint: ${constraint}`).join("; ");
  return invalid(`${n} validation error${n === 1 ? "" : "s"} detected: ${listed}`);
}

const PATTERN = "Member must satisfy regular expression pattern: [a-zA-Z0-9_-]+";

/** Tool names outside the pattern: the offered tools' and the conversation's tool uses, in body order. */
function toolNameError(body: ConverseRequest): ApiError | undefined {
  const bad: [string, string][] = [];
  for (const [i, tool] of (body.toolConfig?.tools ?? []).entries()) {
    const name = tool.toolSpec?.name;
    if (name !== undefined && !TOOL_NAME.test(name)) bad.push([`toolConfig.tools.${i + 1}.member.toolSpec.name`, PATTERN]);
  }
  for (const [i, message] of (body.messages ?? []).entries()) {
    for (const [j, block] of message.content.entries()) {
      if (block.toolUse && !TOOL_NAME.test(block.toolUse.name)) bad.push([`messages.${i + 1}.member.content.${j + 1}.member.toolUse.name`, PATTERN]);
    }
  }
  return bad.length > 0 ? coralError(bad) : undefined;
}

/** Whether a tool's `inputSchema.json` is a JSON object (a string of JSON, as one .NET client sent it, is not). */
function schemaError(body: ConverseRequest): ApiError | undefined {
  for (const [i, tool] of (body.toolConfig?.tools ?? []).entries()) {
    const input = (tool.toolSpec as { inputSchema?: unknown } | undefined)?.inputSchema;
    if (typeof input !== "object" || input === null || !("json" in input)) continue;
    const json = (input as { json: unknown }).json;
    if (typeof json !== "object" || json === null || Array.isArray(json)) {
      return invalid(`The format of the value at toolConfig.tools.${i}.toolSpec.inputSchema.json is invalid. Provide a json object for the field and try again.`);
    }
  }
  return undefined;
}

/** The first fault of one message's blocks, at `messages.{i}`; `previous` is the message before it. */
function blocksError(blocks: readonly ContentBlock[], i: number, role: string, previous: readonly ContentBlock[] | undefined): ApiError | undefined {
  if (blocks.length === 0) return invalid(`The content field in the Message object at messages.${i} is empty. Add a ContentBlock object to the content field and try again.`);
  for (const [j, block] of blocks.entries()) {
    if (typeof block.text === "string" && block.text.trim() === "") {
      return invalid(`The text field in the ContentBlock object at messages.${i}.content.${j} is blank. Add text to the text field, and try again.`);
    }
  }
  if (role === "user") {
    if (blocks.some((b) => b.reasoningContent !== undefined)) return invalid("User messages cannot contain reasoning content. Please remove the reasoning content and try again.");
    const results = blocks.filter((b) => b.toolResult !== undefined).length;
    const uses = (previous ?? []).filter((b) => b.toolUse !== undefined).length;
    if (results > uses) return invalid(`The number of toolResult blocks at messages.${i}.content exceeds the number of toolUse blocks of previous turn.`);
    return undefined;
  }
  const seen = new Set<string>();
  for (const block of blocks) {
    const id = block.toolUse?.toolUseId;
    if (id === undefined) continue;
    if (seen.has(id)) return invalid(`The toolUse blocks at messages.${i}.content contain duplicate Ids: ${echoed(id)}`);
    seen.add(id);
  }
  return undefined;
}

/**
 * The service's refusal of a Converse body that parsed, or undefined. Roles first (the whole conversation), then each
 * message's blocks in order.
 * @example conversationError({ messages: [{ role: "user", content: [{ text: "a" }] }, { role: "user", content: [{ text: "b" }] }] })?.message // "A conversation must alternate between user and assistant roles. Make sure the conversation alternates between user and assistant roles and try again."
 */
export function conversationError(body: ConverseRequest): ApiError | undefined {
  const named = toolNameError(body) ?? schemaError(body);
  if (named) return named;
  const messages = body.messages ?? [];
  if (messages.length === 0) return undefined;
  if (messages[0]!.role !== "user") return invalid("A conversation must start with a user message. Try again with a conversation that starts with a user message.");
  for (let i = 1; i < messages.length; i++) {
    if (messages[i]!.role === messages[i - 1]!.role) {
      return invalid("A conversation must alternate between user and assistant roles. Make sure the conversation alternates between user and assistant roles and try again.");
    }
  }
  for (let i = 0; i < messages.length; i++) {
    const error = blocksError(messages[i]!.content, i, messages[i]!.role, messages[i - 1]?.content);
    if (error) return error;
  }
  return undefined;
}
