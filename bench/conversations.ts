/**
 * The long agent conversations the benches grow (bench/scale.ts's conversation curve, bench/request-parse.ts): a user
 * turn, then rounds of an assistant tool call, its result (four lines of code) and a user follow-up, on Chat,
 * Responses (stateless), Anthropic's Messages, Gemini and Bedrock Converse — and how each is sent (CONVERSATIONS).
 */

const TOOLS_CHAT = [{ type: "function", function: { name: "read_file", description: "Read a file", parameters: { type: "object", properties: { path: { type: "string" } } } } }];
/** A tool's result: four lines of code. */
export const result = (i: number) => `export const value${i} = ${i};\n`.repeat(4);
/** The user's follow-up after a tool result. */
export const followUp = (i: number) => `Now look at file ${i + 1} and tell me what it exports, briefly.`;

/** Chat: a user turn, then rounds of [assistant tool call, tool result, user follow-up]; `n` messages. */
export function chatBody(n: number): unknown {
  const messages: unknown[] = [{ role: "user", content: "bench long" }];
  for (let i = 0; messages.length < n; i++) {
    messages.push(
      { role: "assistant", content: null, tool_calls: [{ id: `call_${i}`, type: "function", function: { name: "read_file", arguments: JSON.stringify({ path: `src/file${i}.ts` }) } }] },
      { role: "tool", tool_call_id: `call_${i}`, content: result(i) },
      { role: "user", content: followUp(i) },
    );
  }
  return { model: "gpt-4o", tools: TOOLS_CHAT, messages: messages.slice(0, n - 1).concat({ role: "user", content: "bench long: the last question" }) };
}

/** Responses (stateless, the whole history in `input`): the same rounds as items; `n` items. */
export function responsesBody(n: number): unknown {
  const input: unknown[] = [{ role: "user", content: "bench long" }];
  for (let i = 0; input.length < n; i++) {
    input.push(
      { type: "function_call", call_id: `call_${i}`, name: "read_file", arguments: JSON.stringify({ path: `src/file${i}.ts` }) },
      { type: "function_call_output", call_id: `call_${i}`, output: result(i) },
      { role: "user", content: followUp(i) },
    );
  }
  const tools = [{ type: "function", name: "read_file", description: "Read a file", parameters: { type: "object", properties: { path: { type: "string" } } } }];
  return { model: "gpt-4o", store: false, tools, input: input.slice(0, n - 1).concat({ role: "user", content: "bench long: the last question" }) };
}

/** Anthropic: rounds of [assistant tool_use, user tool_result + follow-up]; `n` messages. */
export function anthropicBody(n: number): unknown {
  const messages: unknown[] = [{ role: "user", content: "bench long" }];
  for (let i = 0; messages.length < n - 1; i++) {
    messages.push(
      { role: "assistant", content: [{ type: "tool_use", id: `toolu_${i}`, name: "read_file", input: { path: `src/file${i}.ts` } }] },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: `toolu_${i}`, content: result(i) },
          { type: "text", text: followUp(i) },
        ],
      },
    );
  }
  messages.length = Math.min(messages.length, n - 1);
  if ((messages.at(-1) as { role: string }).role === "user") messages.push({ role: "assistant", content: "Noted." });
  messages.push({ role: "user", content: "bench long: the last question" });
  const tools = [{ name: "read_file", description: "Read a file", input_schema: { type: "object", properties: { path: { type: "string" } } } }];
  return { model: "claude-sonnet-4-5", max_tokens: 1024, tools, messages };
}

/** Gemini generateContent: rounds of [model functionCall, user functionResponse + follow-up]; `n` contents. */
export function geminiBody(n: number): unknown {
  const contents: unknown[] = [{ role: "user", parts: [{ text: "bench long" }] }];
  for (let i = 0; contents.length < n - 1; i++) {
    contents.push(
      { role: "model", parts: [{ functionCall: { name: "read_file", args: { path: `src/file${i}.ts` } } }] },
      { role: "user", parts: [{ functionResponse: { name: "read_file", response: { content: result(i) } } }, { text: followUp(i) }] },
    );
  }
  contents.length = Math.min(contents.length, n - 1);
  if ((contents.at(-1) as { role: string }).role === "user") contents.push({ role: "model", parts: [{ text: "Noted." }] });
  contents.push({ role: "user", parts: [{ text: "bench long: the last question" }] });
  const tools = [{ functionDeclarations: [{ name: "read_file", description: "Read a file", parameters: { type: "object", properties: { path: { type: "string" } } } }] }];
  return { contents, tools };
}

/** Bedrock Converse: rounds of [assistant toolUse, user toolResult + follow-up]; `n` messages. */
export function converseBody(n: number): unknown {
  const messages: unknown[] = [{ role: "user", content: [{ text: "bench long" }] }];
  for (let i = 0; messages.length < n - 1; i++) {
    messages.push(
      { role: "assistant", content: [{ toolUse: { toolUseId: `tooluse_${i}`, name: "read_file", input: { path: `src/file${i}.ts` } } }] },
      { role: "user", content: [{ toolResult: { toolUseId: `tooluse_${i}`, content: [{ text: result(i) }] } }, { text: followUp(i) }] },
    );
  }
  messages.length = Math.min(messages.length, n - 1);
  if ((messages.at(-1) as { role: string }).role === "user") messages.push({ role: "assistant", content: [{ text: "Noted." }] });
  messages.push({ role: "user", content: [{ text: "bench long: the last question" }] });
  const toolConfig = { tools: [{ toolSpec: { name: "read_file", description: "Read a file", inputSchema: { json: { type: "object", properties: { path: { type: "string" } } } } } }] };
  return { messages, toolConfig };
}

/** How each surface's conversation is sent: its path, its headers (a client's, with a key) and its body of `n` messages. */
export interface ConversationRequest {
  path: string;
  headers: () => Headers;
  body: (n: number) => unknown;
}

const bearer = () => new Headers({ authorization: "Bearer sk", "content-type": "application/json" });

/** The conversations above as their surfaces are sent them. */
export const CONVERSATIONS = {
  Chat: { path: "/v1/chat/completions", headers: bearer, body: chatBody },
  Responses: { path: "/v1/responses", headers: bearer, body: responsesBody },
  Anthropic: { path: "/v1/messages", headers: () => new Headers({ "x-api-key": "sk", "anthropic-version": "2023-06-01", "content-type": "application/json" }), body: anthropicBody },
  Gemini: { path: "/v1beta/models/gemini-2.5-flash:generateContent", headers: () => new Headers({ "x-goog-api-key": "k", "content-type": "application/json" }), body: geminiBody },
  "Bedrock Converse": {
    path: "/model/anthropic.claude-sonnet-4-5/converse",
    headers: () => new Headers({ authorization: "AWS4-HMAC-SHA256 Credential=AKIA/20260101/us-east-1/bedrock/aws4_request", "content-type": "application/json" }),
    body: converseBody,
  },
} satisfies Record<string, ConversationRequest>;
