import { adminFrom, SERVER_HELP, SERVER_OPTIONS, sessionArgs, stringOption, type Command } from "../command";
import { MockLLMAdminError } from "../../admin/errors";
import { EXIT } from "../io";
import { failureLink } from "../../admin/verify";
import type { VerifyResult } from "../../admin/types";

export const verify: Command = {
  name: "verify",
  summary: "check a session did what its scenario says (exit 1 with what went wrong)",
  help: `Usage: mockllm verify <scenario> [session] [--allow-unused <ids>] [--budget] [--json] [--url <url>] [--token <token>]

Checks that the session used every step of its scenario, had no mismatch and left no
scripted failure unanswered. Prints "mockllm verify: ok: …" and exits 0, or prints a
summary of what went wrong (unused steps and what they match on, each mismatch with its
reasons, the request's last user message and tool results, pending failures) and exits 1,
with the inspector link to the session on stderr (carrying the token only for a server on
this machine: 127.0.0.1, ::1, localhost). A session no request ever reached fails too
(exit 1): it never ran. A scenario's "expect": { "budget": … } fails it too when the session
spent more tokens, dollars or requests than allowed (budget_exceeded, with the figures).
The session defaults to "default".

Options:
  --allow-unused <ids>  comma-separated step ids that may stay unused (optional steps)
  --budget              also print the session's tokens, cost and requests, and each budget limit
  --json                print the whole verify result as JSON (exit code as above)
${SERVER_HELP}

Example:
  mockllm verify weather-agent run-42 --allow-unused small-talk`,
  options: { ...SERVER_OPTIONS, "allow-unused": { type: "string" }, budget: { type: "boolean" }, json: { type: "boolean" } },
  async run(values, positionals, io) {
    const { scenario, session } = sessionArgs(positionals);
    const allowUnused = (stringOption(values["allow-unused"]) ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter((s) => s !== "");
    const admin = await adminFrom(values, io);
    const result = await admin.verify(scenario, session, { allowUnused }).catch((err: unknown) => {
      if (!(err instanceof MockLLMAdminError) || err.code !== "session_not_run") throw err;
      return undefined;
    });
    if (result === undefined) {
      io.stderr(`mockllm verify: FAILED: session "${session}" of scenario "${scenario}" never ran: no request reached /s/${scenario}/${session}; is the client pointed at this scenario and session?`);
      return EXIT.failed;
    }
    io.stdout(values.json === true ? JSON.stringify(result, null, 2) : result.summary);
    if (values.budget === true && values.json !== true) io.stdout(budgetLines(result));
    if (!result.ok) io.stderr(`inspector: ${failureLink(admin, scenario, session)}`);
    return result.ok ? EXIT.ok : EXIT.failed;
  },
};

/** `$0.00042`: dollars with the digits a budget is read with. */
function usd(n: number): string {
  return `$${n.toFixed(6).replace(/(\.\d\d\d*?)0+$/, "$1")}`;
}

/** `--budget`: the session's figures, then each limit of the scenario's budget against them. */
function budgetLines(result: VerifyResult): string {
  const u = result.usage;
  if (u === undefined) return "Budget: this server reports no usage figures";
  const unpriced = u.unpriced.length > 0 ? `; no price for ${u.unpriced.join(", ")}` : "";
  const lines = [`Budget: ${u.requests} requests, ${u.totalTokens} tokens (${u.inputTokens} in, ${u.cachedTokens} of them cached, ${u.outputTokens} out), ${usd(u.costUsd)}${unpriced}`];
  const limits = result.budget?.limits;
  if (limits === undefined) lines.push("  (the scenario sets no expect.budget)");
  const figures = [
    ["maxTotalTokens", limits?.maxTotalTokens, u.totalTokens, String],
    ["maxCostUsd", limits?.maxCostUsd, u.costUsd, usd],
    ["maxRequests", limits?.maxRequests, u.requests, String],
  ] as const;
  for (const [name, max, used, show] of figures) {
    if (max !== undefined) lines.push(`  ${name} ${show(max)}: ${show(used)} used${used > max ? " — budget_exceeded" : ""}`);
  }
  return lines.join("\n");
}
