/**
 * Bedrock Converse's refusals of a body that parses, each row the service's sentence as captured (the source beside
 * it; docs/providers/fidelity.md lists them), and its request validation's for a body that does not.
 */
import { describe, expect, it } from "vitest";
import { conversationError } from "../../src/providers/bedrock/conversation";
import { parseConverse } from "../../src/providers/bedrock/parse";
import type { ConverseRequest } from "../../src/providers/bedrock/wire";

const user = (text: string) => ({ role: "user" as const, content: [{ text }] });
const assistant = (...content: Record<string, unknown>[]) => ({ role: "assistant" as const, content });
const use = (id: string, name = "get_weather") => ({ toolUse: { toolUseId: id, name, input: {} } });
const result = (id: string) => ({ toolResult: { toolUseId: id, content: [{ text: "18C" }] } });
const refusal = (body: unknown) => conversationError(body as ConverseRequest)?.message;

describe("conversationError: the conversation's shape", () => {
  it.each([
    [
      "starts with the assistant (langgenius/dify#12340, strands-agents#2085)",
      [assistant({ text: "hi" }), user("x")],
      "A conversation must start with a user message. Try again with a conversation that starts with a user message.",
    ],
    [
      "two user messages in a row (langchain-ai/langchain-aws#130; each parallel tool result as its own message)",
      [user("x"), assistant(use("a"), use("b")), { role: "user", content: [result("a")] }, { role: "user", content: [result("b")] }],
      "A conversation must alternate between user and assistant roles. Make sure the conversation alternates between user and assistant roles and try again.",
    ],
    [
      "an empty message (vercel/ai's recorded fixture, 2026-08)",
      [user("x"), assistant(), user("y")],
      "The content field in the Message object at messages.1 is empty. Add a ContentBlock object to the content field and try again.",
    ],
    [
      "a blank text, whitespace only (langchain-ai/langchain-aws#403, the AWS CLI)",
      [user("x"), assistant({ text: "\n\n" }), user("what?")],
      "The text field in the ContentBlock object at messages.1.content.0 is blank. Add text to the text field, and try again.",
    ],
    [
      "reasoning in a user message (vercel/ai issue-7034 fixture)",
      [{ role: "user", content: [{ text: "x" }, { reasoningContent: { reasoningText: { text: "t" } } }] }],
      "User messages cannot contain reasoning content. Please remove the reasoning content and try again.",
    ],
    ["duplicate tool-use ids (vercel/ai's Mistral fixture)", [user("x"), assistant(use("tooluseAc"), use("tooluseAc"))], "The toolUse blocks at messages.1.content contain duplicate Ids: tooluseAc"],
    [
      "more tool results than the turn before had uses (pydantic/pydantic-ai#2327, Just-Curieous/Curie#16)",
      [user("x"), assistant(use("a")), { role: "user", content: [result("a"), result("b")] }],
      "The number of toolResult blocks at messages.2.content exceeds the number of toolUse blocks of previous turn.",
    ],
  ])("%s", (_, messages, message) => {
    expect(refusal({ messages })).toBe(message);
  });

  it("a tool schema that is not a JSON object (aws/aws-sdk-net#3377), and tool names outside the pattern (vercel/ai's fixture), every one", () => {
    const tools = (json: unknown, name = "f") => ({ tools: [{ toolSpec: { name, inputSchema: { json } } }] });
    expect(refusal({ messages: [user("x")], toolConfig: tools('{"type":"object"}') })).toBe(
      "The format of the value at toolConfig.tools.0.toolSpec.inputSchema.json is invalid. Provide a json object for the field and try again.",
    );
    expect(refusal({ messages: [user("x"), assistant(use("a", "get_weather"), use("b", "fs:read"))], toolConfig: tools({}, "mcp.fs.read") })).toBe(
      "2 validation errors detected: Value at 'toolConfig.tools.1.member.toolSpec.name' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_-]+; Value at 'messages.2.member.content.2.member.toolUse.name' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_-]+",
    );
  });

  it("a well-formed tool loop, parallel calls answered in one message, text beside results: taken", () => {
    const messages = [
      user("x"),
      assistant({ text: "Let me look." }, use("a"), use("b")),
      { role: "user", content: [result("a"), result("b"), { text: "and?" }] },
      assistant({ text: "18C both" }),
      user("thanks"),
    ];
    expect(refusal({ messages, toolConfig: { tools: [{ toolSpec: { name: "get_weather", inputSchema: { json: { type: "object" } } } }] } })).toBeUndefined();
    expect(refusal({ messages: [] })).toBeUndefined();
  });
});

describe("parseConverse: the request validation's sentence", () => {
  const parse = (body: unknown) => {
    const r = parseConverse(body, new Headers(), { path: "/model/m/converse", query: new URLSearchParams() });
    return r.ok ? undefined : r.error.message;
  };

  it("every member at fault, at the service's path (list members from 1, `member` after them)", () => {
    expect(parse({ messages: [{ role: "bot", content: [{ text: "x" }] }], inferenceConfig: { maxTokens: 0, temperature: "hot" } })).toBe(
      "3 validation errors detected: Value at 'messages.1.member.role' failed to satisfy constraint: Member must satisfy enum value set: [user, assistant]; " +
        "Value at 'inferenceConfig.maxTokens' failed to satisfy constraint: Member must have value greater than or equal to 1; " +
        "Value at 'inferenceConfig.temperature' failed to satisfy constraint: Member must be a number",
    );
    const many = parse({ messages: Array.from({ length: 150 }, () => ({ role: "bot", content: [{ text: "x" }] })) })!;
    expect([many.split("; ").length, many.startsWith("150 validation errors detected: ")]).toEqual([100, true]);
    expect(parse({ system: [] })).toBe("1 validation error detected: Value at 'messages' failed to satisfy constraint: Member must not be null");
    expect(parse({ messages: [{ role: "user" }] })).toBe("1 validation error detected: Value at 'messages.1.member.content' failed to satisfy constraint: Member must not be null");
  });
});
