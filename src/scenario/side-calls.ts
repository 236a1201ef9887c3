/**
 * Side calls (contract section 10, `sideCalls`): the housekeeping requests agent CLIs send besides the loop a
 * scenario scripts — Gemini CLI's model router, opencode's and Qwen Code's session titles, Qwen Code's memory
 * extraction, Claude Code's quota probe and session title. Each preset names the requests by the prompt text the
 * CLI's own source sends, and answers in the shape that CLI parses. Pure and deterministic.
 */
import { firstUserMessage, lastUserMessage, type CanonicalRequest } from "../canonical/request";
import { matchMisses } from "./matchers";
import type { Scenario } from "./schema";

export interface SideCallAnswer {
  /** What the journal says, e.g. `side call: gemini router (preset "gemini")`. */
  reason: string;
  /** The answer's text (JSON text where the CLI asks for JSON). */
  text: string;
}

interface Preset {
  name: string;
  test(req: CanonicalRequest): boolean;
  answer(req: CanonicalRequest): string;
}

const SCRIPTED = "Answered by mockllm as a side call.";

/** Gemini CLI's next-speaker check (also in Qwen Code, its fork): the model hands the turn back to the user. */
const NEXT_SPEAKER: Preset = {
  name: "next speaker check",
  test: (req) => (lastUserMessage(req) ?? "").includes("determine who should logically speak next"),
  answer: () => JSON.stringify({ reasoning: SCRIPTED, next_speaker: "user" }),
};

const PRESETS: Record<"gemini" | "opencode" | "qwen" | "claude", Preset[]> = {
  gemini: [
    {
      // The "auto" model router: the numerical classifier asks for `complexity_score`, the older one for
      // `model_choice`. Either way the answer routes to the flash model, as a simple task would.
      name: "router",
      test: (req) => req.system.includes("Task Routing AI"),
      answer: (req) =>
        req.system.includes("complexity_score") ? JSON.stringify({ complexity_reasoning: SCRIPTED, complexity_score: 10 }) : JSON.stringify({ reasoning: SCRIPTED, model_choice: "flash" }),
    },
    NEXT_SPEAKER,
  ],
  opencode: [
    {
      name: "title",
      test: (req) => req.system.includes("You are a title generator") && req.tools.length === 0,
      answer: (req) => titleOf(lastUserMessage(req)),
    },
  ],
  qwen: [
    {
      name: "memory extraction",
      test: (req) => req.system.includes("managed memory extraction subagent") || req.system.includes("performing a managed memory dream"),
      answer: () => "Nothing durable to remember.",
    },
    {
      name: "session title",
      test: (req) => req.system.includes("Generate a concise, sentence-case title (3-7 words)"),
      answer: (req) => JSON.stringify({ title: titleOf(firstUserMessage(req)) }),
    },
    NEXT_SPEAKER,
  ],
  claude: [
    {
      // The quota probe: `max_tokens: 1`, one user message "quota", no tools.
      name: "quota probe",
      test: (req) => req.messages.length === 1 && lastUserMessage(req) === "quota" && req.tools.length === 0,
      answer: () => "ok",
    },
    {
      name: "session title",
      test: (req) => req.system.includes("You are naming a coding session"),
      answer: (req) => JSON.stringify({ title: titleOf(sessionText(lastUserMessage(req))) }),
    },
  ],
};

/**
 * The side call `req` is, if the scenario declares it; undefined otherwise (then steps decide, as without the option).
 * @example sideCall({ ...scenario, sideCalls: { preset: ["opencode"] } }, titleRequest)?.text
 */
export function sideCall(scenario: Scenario, req: CanonicalRequest): SideCallAnswer | undefined {
  const declared = scenario.sideCalls;
  if (declared === undefined) return undefined;
  for (const cli of declared.preset ?? []) {
    for (const preset of PRESETS[cli]) {
      if (preset.test(req)) return { reason: `side call: ${cli} ${preset.name} (preset "${cli}")`, text: preset.answer(req) };
    }
  }
  const matchers = declared.match ?? [];
  for (let i = 0; i < matchers.length; i++) {
    if (matchMisses(matchers[i], req).length === 0) return { reason: `side call: sideCalls.match[${i}]`, text: "ok" };
  }
  return undefined;
}

/** The text inside Claude Code's `<session>…</session>`, else all of it. */
function sessionText(text: string | undefined): string | undefined {
  const inner = text?.match(/<session>([\s\S]*?)<\/session>/)?.[1];
  return inner ?? text;
}

/** A short sentence-case title from the user's words: up to five words, no quotes or trailing punctuation. */
export function titleOf(text: string | undefined): string {
  const words = (text ?? "")
    .replace(/<[^>]*>/g, " ")
    .replace(/["'`*#>]/g, " ")
    .split(/\s+/)
    .filter((w) => w !== "")
    .slice(0, 5);
  const joined = words.join(" ").replace(/[.!?,;:]+$/, "");
  if (joined === "") return "Scripted session";
  return joined.charAt(0).toUpperCase() + joined.slice(1);
}
