/**
 * The scripted answers the golden transcripts share (test/compat/*-golden.test.ts): each provider's suite renders the
 * same greeting, tool calls, thinking and broken stream, so a transcript differs from another provider's only where
 * the wire does. Changing one changes every golden file that uses it (regenerate with UPDATE_GOLDEN=1).
 */

/** The plain answer and its usage. */
export const GREETING = "Hello there, world.";
export const GREETING_USAGE = { inputTokens: 9, outputTokens: 4 } as const;

/** A call whose arguments are an object (the renderer serialises them). */
export const WEATHER_CALL = { name: "get_weather", arguments: { city: "Paris", unit: "celsius" } } as const;

/** A call with a scripted id in the provider's own format and arguments cut mid-string (sent as written). */
export function cutTimeCall(id: string): { id: string; name: string; arguments: string } {
  return { id, name: "get_time", arguments: '{"zone": "Europe/Par' };
}

/** The tool-call answer: a sentence, the weather call and a cut call scripted with `id`, two words a chunk. */
export function toolAnswer(id: string): Record<string, unknown> {
  return { text: "Checking the weather.", toolCalls: [WEATHER_CALL, cutTimeCall(id)], stream: { chunkWords: 2 } };
}

/** What the thinking answers think, before they answer "Hi!". */
export const THOUGHT = "The user greets me. I greet back.";

/** The text a broken stream starts to send. */
export const BROKEN_TEXT = "alpha beta gamma";
