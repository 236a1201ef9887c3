/**
 * What a turn's canonical request costs to cross the session RPC (issue 59 part 3): V8's structured clone — the
 * serializer workerd's RPC runs on the Worker and in the Durable Object — of the bench's turns (bench/workload.mjs:
 * the 121-message LONG_BODY, the JSON turn) as Node's `v8.serialize` + `v8.deserialize`, whole and in the slim forms
 * wave 18 measured and did not keep (workerd's CPU did not separate them; docs/performance.md "The Worker path"): only
 * the messages a session reads, with and without the assistant messages. Beside `JSON.parse` of the body's text as
 * the reference measured in the same rounds (interleaved, the order alternating; the machine is shared, so read the
 * ratios). The deterministic half: the messages and serialized bytes each form carries.
 *   npx tsx bench/rpc-payload.ts [--iterations 2000] [--rounds 15]
 */
import { deserialize, serialize } from "node:v8";
import { parseArgs } from "node:util";
import type { CanonicalMessage, CanonicalRequest } from "../src/canonical/request";
import { parseChatRequest } from "../src/providers/openai/chat/parse";
import { JSON_BODY, LONG_BODY } from "./workload.mjs";

const { values } = parseArgs({ options: { iterations: { type: "string", default: "2000" }, rounds: { type: "string", default: "15" } } });
const iterations = Number(values.iterations);
const rounds = Number(values.rounds);

function canonical(body: string): CanonicalRequest {
  const headers = new Headers({ "content-type": "application/json", authorization: "Bearer sk-bench", "user-agent": "autocannon", host: "127.0.0.1:8787", "content-length": String(body.length) });
  const parsed = parseChatRequest(JSON.parse(body), headers);
  if (!parsed.ok) throw new Error("the bench body did not parse");
  return parsed.request;
}

/**
 * The messages a session reads (canonical/request.ts's helpers): the first and the last user message, the tool
 * results after the last assistant message and, with `assistants`, every assistant message (without them, the
 * pending results named by their calls). The rest would travel as counts.
 */
function slim(req: CanonicalRequest, assistants: boolean): CanonicalRequest {
  const all = req.messages;
  const lastAssistant = all.findLastIndex((m) => m.role === "assistant");
  const firstUser = all.findIndex((m) => m.role === "user");
  const lastUser = all.findLastIndex((m) => m.role === "user");
  const names = new Map(all.flatMap((m) => (m.role === "assistant" ? m.toolCalls.map((c) => [c.id, c.name] as const) : [])));
  const kept: CanonicalMessage[] = [];
  all.forEach((m, i) => {
    if (m.role === "assistant") {
      if (assistants) kept.push(m);
    } else if (m.role === "tool" && i > lastAssistant) kept.push(assistants || m.name !== undefined ? m : { ...m, name: names.get(m.toolCallId) });
    else if (i === firstUser || i === lastUser) kept.push(m);
  });
  return { ...req, messages: kept };
}

/** µs per call of each function, median over interleaved rounds. */
function timed(fns: Record<string, () => unknown>): Record<string, number> {
  const names = Object.keys(fns);
  const runs: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (const n of names) for (let i = 0; i < iterations; i++) fns[n]!();
  for (let r = 0; r < rounds; r++) {
    for (const n of r % 2 === 0 ? names : [...names].reverse()) {
      const start = process.hrtime.bigint();
      for (let i = 0; i < iterations; i++) fns[n]!();
      runs[n]!.push(Number(process.hrtime.bigint() - start) / iterations / 1000);
    }
  }
  return Object.fromEntries(names.map((n) => [n, runs[n]!.sort((a, b) => a - b)[Math.floor(rounds / 2)]!]));
}

for (const [label, body] of [
  ["long", LONG_BODY],
  ["json", JSON_BODY],
] as const) {
  const whole = canonical(body);
  const kept = slim(whole, true);
  const bare = slim(whole, false);
  const t = timed({
    reference: () => JSON.parse(body),
    whole: () => deserialize(serialize(whole)),
    slim: () => deserialize(serialize(kept)),
    "no assistants": () => deserialize(serialize(bare)),
  });
  const sizes = [whole, kept, bare].map((r) => `${r.messages.length} messages ${serialize(r).length} bytes`);
  console.log(`${label}: whole ${sizes[0]}, slim ${sizes[1]}, without assistant messages ${sizes[2]}`);
  console.log(`  JSON.parse of the body (reference) ${t.reference!.toFixed(1)} µs`);
  for (const n of ["whole", "slim", "no assistants"]) console.log(`  ${n.padEnd(14)} ${t[n]!.toFixed(1)} µs (${(t[n]! / t.reference!).toFixed(2)}× the reference)`);
}
