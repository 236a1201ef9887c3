/**
 * What a long conversation's request costs to read: each provider surface's `parse` (the body's zod validation and the
 * canonical request made from it) against the conversation's length, as Node runs it and as Workers do — both through
 * src/util/fast-parse.ts's closures, which hand zod the parts they do not model: zod compiles those on Node and
 * interprets them on Workers (no code generation there; emulated in a child process whose zod cannot compile) —
 * beside `JSON.parse` of the same text; and what the surface's `validate` (the real APIs' refusals of a body that parses:
 * tool pairing, text, turn order, schemas) costs on it after.
 * In process, no HTTP; each figure is the least of its rounds' means (µs a request), steady on a shared machine
 * where a single mean is not. Run it in two checkouts for a before and after.
 *   npx tsx bench/request-parse.ts [--sizes 100,500,2000] [--rounds 15]
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { CONVERSATIONS } from "./conversations";
import type { ProviderSurface } from "../src/providers/types";

const { values } = parseArgs({
  options: {
    sizes: { type: "string", default: "100,500,2000" },
    rounds: { type: "string", default: "15" },
    // Internal: the child process measuring one runtime's way ("node" or "workers"), printing its figures as JSON.
    as: { type: "string" },
  },
});
const SIZES = values.sizes.split(",").map(Number);
const ROUNDS = Number(values.rounds);

type Figures = Record<string, Record<number, number>>;

/** µs a call: the least of ROUNDS means, each over enough calls for ~20 ms, after a warm-up. */
function least(fn: () => void): number {
  const t0 = performance.now();
  let n = 0;
  while (performance.now() - t0 < 20 || n < 3) {
    fn();
    n++;
  }
  let best = Number.POSITIVE_INFINITY;
  for (let r = 0; r < ROUNDS; r++) {
    const t = performance.now();
    for (let i = 0; i < n; i++) fn();
    best = Math.min(best, ((performance.now() - t) * 1000) / n);
  }
  return best;
}

async function measure(as: string): Promise<Figures> {
  if (as === "workers") {
    // Before any schema is built: zod decides at construction whether an object parser is compiled.
    const { globalConfig, util } = await import("zod/v4/core");
    Object.defineProperty(util.allowsEval, "value", { value: false });
    globalConfig.jitless = true;
  }
  const { openaiChat } = await import("../src/providers/openai/chat");
  const { openaiResponses } = await import("../src/providers/openai/responses/index");
  const { anthropicMessages } = await import("../src/providers/anthropic/index");
  const { geminiGenerateContent } = await import("../src/providers/gemini/index");
  const { bedrockConverse } = await import("../src/providers/bedrock/index");
  const { resolveSurface } = await import("../src/providers/surface");
  const surfaces = [
    { name: "Chat", surface: openaiChat },
    { name: "Responses", surface: openaiResponses },
    { name: "Anthropic", surface: anthropicMessages },
    { name: "Gemini", surface: geminiGenerateContent },
    { name: "Bedrock Converse", surface: bedrockConverse },
  ] as const;
  const out: Figures = {};
  for (const s of surfaces) {
    const sent = CONVERSATIONS[s.name];
    const headers = sent.headers();
    const target = { path: sent.path, query: new URLSearchParams() };
    for (const n of SIZES) {
      const text = JSON.stringify(sent.body(n));
      const body = JSON.parse(text);
      const parse = () => {
        if (!s.surface.parse(body, headers, target).ok) throw new Error(`${s.name}: refused`);
      };
      (out[s.name] ??= {})[n] = least(parse);
      // The real APIs' refusals the surface checks once a body parses (no scenario: all of them).
      const parsed = s.surface.parse(body, headers, target);
      if (!parsed.ok) throw new Error(`${s.name}: refused`);
      const validate = resolveSurface(s.surface as ProviderSurface<unknown>).validate;
      const refused = validate(parsed.wire, parsed.request, undefined);
      if (refused) throw new Error(`${s.name}: ${refused.message}`);
      (out[`${s.name} validate`] ??= {})[n] = least(() => validate(parsed.wire, parsed.request, undefined));
      (out[`${s.name} JSON.parse`] ??= {})[n] = least(() => JSON.parse(text));
    }
  }
  return out;
}

if (values.as !== undefined) {
  console.log(JSON.stringify(await measure(values.as)));
} else {
  const here = fileURLToPath(import.meta.url);
  const figures = Object.fromEntries(
    ["node", "workers"].map((as) => {
      const run = spawnSync(process.execPath, ["--import", "tsx", here, "--as", as, "--sizes", values.sizes, "--rounds", values.rounds], { encoding: "utf8" });
      if (run.status !== 0) throw new Error(`${as}: ${run.stderr}`);
      return [as, JSON.parse(run.stdout) as Figures];
    }),
  );
  const f = (x: number) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));
  console.log(`| surface | messages | parse, Node (µs) | parse, as on Workers (µs) | the refusals' checks, Node (µs) | JSON.parse of the body (µs) |`);
  console.log(`| --- | ---: | ---: | ---: | ---: | ---: |`);
  for (const name of ["Chat", "Responses", "Anthropic", "Gemini", "Bedrock Converse"]) {
    for (const n of SIZES) {
      const row = [figures.node![name]![n]!, figures.workers![name]![n]!, figures.node![`${name} validate`]![n]!, figures.node![`${name} JSON.parse`]![n]!];
      console.log(`| ${name} | ${n} | ${row.map(f).join(" | ")} |`);
    }
  }
}
