/**
 * Codex compaction end to end (issue 31), imported by agent-clis-e2e.ts: the shell loop's first answer reports more
 * input tokens than Codex's `model_auto_compact_token_limit`, so before its next turn Codex compacts remotely, then
 * continues from the retained user messages and the compaction item. As measured:
 * - Codex 0.169 (HTTP and the Responses WebSocket): remote compaction v2, a streamed `response.create` whose last input
 *   item is `{"type":"compaction_trigger"}`; it never calls `/v1/responses/compact`.
 * - Codex 0.94 on the Responses wire (HTTP): `POST /v1/responses/compact` with `model`, `input`, `instructions`.
 * Both compact remotely only for a provider named "OpenAI" (its `is_openai()`); under another name Codex compacts
 * locally: an ordinary turn whose last user message asks for a "CONTEXT CHECKPOINT COMPACTION" summary.
 */
import { scenario, shellTool, type ScenarioBuilder, type ShellCli } from "../src/client/index";

export const COMPACTION_SUMMARY = "The user asked to run the echo command; it printed mock-e2e-ok.";

/** Codex's auto-compact limit for the run; the first answer reports more input tokens than this. */
const LIMIT = 100_000;

/** `codex exec` overrides that make it compact remotely against mockllm once usage passes LIMIT. */
export const COMPACTION_ARGS = ["-c", `model_auto_compact_token_limit=${LIMIT}`, "-c", 'model_providers.mockllm.name="OpenAI"'];

/** How the compaction reached mockllm: the compact endpoint, or a `compaction_trigger` item on `/v1/responses`. */
export type CompactionCall = "compact" | "trigger";

export interface JournalEntry {
  at: string;
  step: string | null;
  outcome: string;
  status: number;
  request: { method: string; path: string; body?: { input?: { type?: string; role?: string }[] } };
  canonical?: { lastUserMessage?: string | null; toolResults?: unknown[]; compaction?: { summary: string }; compactionRequested?: boolean };
}

/** run (a shell call, 300000 input tokens) → squash (the compaction) → final (only after compaction). */
export function compactionScenario(name: string, shell: ShellCli, marker: string, prompt: string): ScenarioBuilder {
  return scenario(name)
    .step("run", (s) =>
      s
        .match({ tools: [shellTool(shell)], compacted: false })
        .shell(`echo ${marker}`, { cli: shell })
        .usage({ inputTokens: 3 * LIMIT }),
    )
    .step("squash", (s) => s.compaction(COMPACTION_SUMMARY))
    .step("final", (s) => s.match({ compacted: true, lastUserMessage: prompt }).text(`After compaction: the command printed ${marker}.`));
}

/** Undefined when the journal shows run → compaction (by `call`) → final, and the final turn carries what it should. */
export function checkCompaction(journal: JournalEntry[], call: CompactionCall, method: "POST" | "WS", prompt: string): string | undefined {
  const rows = journal.map((j) => `${j.step ?? "-"}:${j.status}`).join(" ");
  if (rows !== "run:200 squash:200 final:200") return `journal ${rows}`;
  if (journal.some((j) => j.request.method !== method)) return `the requests came over ${journal.map((j) => j.request.method).join(", ")}`;
  const [, squash, final] = journal;
  if (squash === undefined || final === undefined) return "missing requests";
  if (squash.canonical?.compactionRequested !== true) return "the squash request is not a compaction request";
  const squashPath = squash.request.path;
  if (call === "compact" && squashPath !== "/v1/responses/compact") return `compaction went to ${squashPath}, not /v1/responses/compact`;
  if (call === "trigger") {
    const last = squash.request.body?.input?.at(-1)?.type;
    if (squashPath !== "/v1/responses" || last !== "compaction_trigger") return `compaction: ${squashPath}, last input item ${String(last)}`;
  }
  // After compaction: the retained user messages, then the one compaction item (carrying our summary), nothing else.
  const input = final.request.body?.input ?? [];
  const types = input.filter((i) => i.role !== "developer").map((i) => i.type ?? "message");
  if (types.filter((t) => t === "compaction").length !== 1 || types.at(-1) !== "compaction") return `final input items: ${types.join(", ")}`;
  if (types.some((t) => t !== "message" && t !== "compaction")) return `final input keeps ${types.join(", ")}`;
  if (final.canonical?.compaction?.summary !== COMPACTION_SUMMARY) return `final carries summary ${JSON.stringify(final.canonical?.compaction)}`;
  if (final.canonical.lastUserMessage !== prompt) return `final's last user message: ${String(final.canonical.lastUserMessage)}`;
  if ((final.canonical.toolResults ?? []).length !== 0) return "final still carries the tool result";
  return undefined;
}
