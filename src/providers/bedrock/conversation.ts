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
import { echoed, isBlank } from "../../util/text";
import type { ContentBlock, ConverseRequest } from "./wire";

const invalid = (message: string) => apiError("invalid_request", message);

/**
 * The request-validation sentence for the members at `paths` (list members counted from 1, `member` between, as the
 * service writes them: `messages.3.member.content.2.member.toolUse.name`), the values not quoted (they are sensitive).
 * @example coralError([["toolConfig.tools.1.member.toolSpec.name", "Member must satisfy regular expression pattern: [a-zA-Z0-9_-]+"]]).message // "1 validation error detected: Value at 'toolConfig.tools.1.member.toolSpec.name' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_-]+"
 */
export function coralError(violations: readonly (readonly [path: string, constraint: string])[]): ApiError {
  const n = violations.length;
  // The count is of all; at most 100 are listed (a body of thousands of faults is not answered with all of them).
  const listed = violations
    .slice(0, 100)
    .map(([path, constraint]) => `Value at '${path}' failed to satisfy constraint: ${constraint}`)
    .join("; ");
  return invalid(`${n} validation error${n === 1 ? "" : "s"} detected: ${listed}`);
}

const PATTERN = "Member must satisfy regular expression pattern: [a-zA-Z0-9_-]+";

/**
 * Whether a tool name is within `ToolName`'s pattern, `[a-zA-Z0-9_-]+`, which the service names in its refusal (a dot
 * or a colon, as MCP names often have, is outside it). A loop: cheaper than a regular expression on every call.
 */
function toolName(name: string): boolean {
  if (name.length === 0) return false;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    const ok = (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 45;
    if (!ok) return false;
  }
  return true;
}

/** Whether a tool's `inputSchema.json` is a JSON object (a string of JSON, as one .NET client sent it, is not). */
function schemaError(body: ConverseRequest): ApiError | undefined {
  const tools = body.toolConfig?.tools ?? [];
  for (let i = 0; i < tools.length; i++) {
    const input = (tools[i]!.toolSpec as { inputSchema?: unknown } | undefined)?.inputSchema;
    if (typeof input !== "object" || input === null || !("json" in input)) continue;
    const json = (input as { json: unknown }).json;
    if (typeof json !== "object" || json === null || Array.isArray(json)) {
      return invalid(`The format of the value at toolConfig.tools.${i}.toolSpec.inputSchema.json is invalid. Provide a json object for the field and try again.`);
    }
  }
  return undefined;
}

/** The number of `toolUse` blocks of a message (0 for none). */
function toolUses(blocks: readonly ContentBlock[] | undefined): number {
  let n = 0;
  if (blocks !== undefined) for (const b of blocks) if (b.toolUse !== undefined) n++;
  return n;
}

/** The first fault of block `j` of message `i` (its blocks `blocks`), else undefined. */
function blockError(blocks: readonly ContentBlock[], i: number, j: number, user: boolean): ApiError | undefined {
  const b = blocks[j]!;
  if (typeof b.text === "string" && isBlank(b.text)) {
    return invalid(`The text field in the ContentBlock object at messages.${i}.content.${j} is blank. Add text to the text field, and try again.`);
  }
  if (user && b.reasoningContent !== undefined) return invalid("User messages cannot contain reasoning content. Please remove the reasoning content and try again.");
  const id = b.toolUse?.toolUseId;
  if (!user && id !== undefined) {
    for (let k = 0; k < j; k++) if (blocks[k]!.toolUse?.toolUseId === id) return invalid(`The toolUse blocks at messages.${i}.content contain duplicate Ids: ${echoed(id)}`);
  }
  return undefined;
}

/**
 * The service's refusal of a Converse body that parsed, or undefined: tool names outside the pattern first (every
 * one), then a tool schema that is not an object, then the roles over the whole conversation, then the first fault of
 * a message's blocks — found in one pass over the messages.
 * @example conversationError({ messages: [{ role: "user", content: [{ text: "a" }] }, { role: "user", content: [{ text: "b" }] }] })?.message // "A conversation must alternate between user and assistant roles. Make sure the conversation alternates between user and assistant roles and try again."
 */
export function conversationError(body: ConverseRequest): ApiError | undefined {
  let names: [string, string][] | undefined;
  const tools = body.toolConfig?.tools ?? [];
  for (let i = 0; i < tools.length; i++) {
    const name = tools[i]!.toolSpec?.name;
    if (name !== undefined && !toolName(name)) (names ??= []).push([`toolConfig.tools.${i + 1}.member.toolSpec.name`, PATTERN]);
  }
  const messages = body.messages ?? [];
  let roles: ApiError | undefined;
  let blocks: ApiError | undefined;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    const user = m.role === "user";
    if (roles === undefined && i === 0 && !user) {
      roles = invalid("A conversation must start with a user message. Try again with a conversation that starts with a user message.");
    } else if (roles === undefined && i > 0 && m.role === messages[i - 1]!.role) {
      roles = invalid("A conversation must alternate between user and assistant roles. Make sure the conversation alternates between user and assistant roles and try again.");
    }
    const content = m.content;
    if (blocks === undefined && content.length === 0) {
      blocks = invalid(`The content field in the Message object at messages.${i} is empty. Add a ContentBlock object to the content field and try again.`);
    }
    let results = 0;
    for (let j = 0; j < content.length; j++) {
      const b = content[j]!;
      if (b.toolUse !== undefined && !toolName(b.toolUse.name)) (names ??= []).push([`messages.${i + 1}.member.content.${j + 1}.member.toolUse.name`, PATTERN]);
      if (b.toolResult !== undefined) results++;
      if (blocks === undefined) blocks = blockError(content, i, j, user);
    }
    if (blocks === undefined && user && results > 0 && results > toolUses(messages[i - 1]?.content)) {
      blocks = invalid(`The number of toolResult blocks at messages.${i}.content exceeds the number of toolUse blocks of previous turn.`);
    }
  }
  if (names !== undefined) return coralError(names);
  return schemaError(body) ?? roles ?? blocks;
}
