/**
 * `tool_use` ids that remember, without server state, whether the assistant message mockllm sent them in started
 * with a thinking block: the id's last 6 characters are a tag derived from the rest and that one bit. The thinking
 * check (thinking.ts) reads it back to tell a client that dropped a thinking block mockllm sent from a transcript
 * mockllm answered without thinking, echoed back unchanged.
 */
import { stableToken } from "../../util/hash";

const PREFIX = "toolu_01";
const BODY = 16;
const TAG = 6;

function tag(body: string, thought: boolean): string {
  return stableToken(`mockllm|tool_use|${thought ? "thinking" : "plain"}|${body}`, TAG);
}

/**
 * A `toolu_01…` id (22 base62 characters, like the real API's) for the tool call seeded by `seed`, in a message
 * that starts with a thinking block when `thought`.
 * @example toolUseId("seed#tool0", false) // "toolu_01" + 22 characters, always the same
 */
export function toolUseId(seed: string, thought: boolean): string {
  const body = stableToken(`${PREFIX}|${seed}`, BODY);
  return `${PREFIX}${body}${tag(body, thought)}`;
}

/**
 * For an id `toolUseId` minted: whether its message started with thinking. `undefined` for any other id
 * (scripted in a scenario, or written by the client).
 * @example mintedWithThinking(toolUseId("s", true)) // true
 */
export function mintedWithThinking(id: string): boolean | undefined {
  if (id.length !== PREFIX.length + BODY + TAG || !id.startsWith(PREFIX)) return undefined;
  const body = id.slice(PREFIX.length, PREFIX.length + BODY);
  const given = id.slice(PREFIX.length + BODY);
  if (given === tag(body, true)) return true;
  if (given === tag(body, false)) return false;
  return undefined;
}
