/** Canonical requests for pure tests. */
import type { CanonicalMessage, CanonicalRequest } from "../../src/canonical/request";

export function req(over: Partial<CanonicalRequest> = {}, messages?: CanonicalMessage[]): CanonicalRequest {
  return {
    provider: "openai",
    endpoint: "chat.completions",
    model: "gpt-4o-mini",
    stream: false,
    system: "",
    messages: messages ?? [{ role: "user", text: "hello" }],
    tools: [],
    reasoning: "disabled",
    headers: {},
    ...over,
  };
}

export const toolTurn: CanonicalMessage[] = [
  { role: "user", text: "weather in Paris?" },
  { role: "assistant", text: "", toolCalls: [{ id: "call_1", name: "get_weather", arguments: "{}" }], reasoning: [] },
  { role: "tool", toolCallId: "call_1", content: "sunny, 22C", isError: false },
];
