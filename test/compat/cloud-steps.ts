/**
 * The steps both cloud compat suites (bedrock-sdk, vertex-sdk) script: a greeting with usage, a stream in chunks of
 * two words, a two-turn get_weather tool loop, a 429 before success, and a mid-stream error after two events.
 */
export function cloudSteps(greeting: { text: string; inputTokens: number; outputTokens: number }, midStreamError: Record<string, unknown>) {
  const { text, ...usage } = greeting;
  return [
    { id: "hello", match: { lastUserMessage: "hello" }, respond: { text, usage } },
    { id: "stream", match: { lastUserMessage: "stream please" }, respond: { text: "One two three four five.", stream: { chunkWords: 2 } } },
    { id: "call", match: { lastUserMessage: "weather in Paris", turn: 1 }, respond: { toolCalls: [{ name: "get_weather", arguments: { city: "Paris" } }] } },
    { id: "answer", match: { toolResult: { name: "get_weather", content: "18C" } }, respond: { text: "It is 18C in Paris." } },
    { id: "flaky", match: { lastUserMessage: "flaky" }, failures: [{ kind: "rate_limit" }], respond: { text: "after a retry" } },
    { id: "cut", match: { lastUserMessage: "cut" }, failures: [{ kind: "stream_error", afterChunks: 2, ...midStreamError }], respond: { text: "a b c d e f", stream: { chunkWords: 1 } } },
  ];
}
