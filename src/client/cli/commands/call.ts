/**
 * `mockllm call`: rings an incoming SIP call on the Realtime API (POST /admin/realtime/calls), or shows where one
 * stands (GET /admin/realtime/calls/{id}) — a phone backend tried by hand against `mockllm serve`.
 */
import type { Call, RungCall } from "../../admin/types";
import { adminFrom, SERVER_HELP, SERVER_OPTIONS, type Command } from "../command";
import { EXIT, UsageError } from "../io";

/** `--header "Name: value"` as a SIP header. */
function sipHeader(text: string): { name: string; value: string } {
  const at = text.indexOf(":");
  const name = at > 0 ? text.slice(0, at).trim() : "";
  if (name === "") throw new UsageError(`--header must be "Name: value", got "${text}"`);
  return { name, value: text.slice(at + 1).trim() };
}

function describeCall(c: Call): string {
  const lines = [`${c.call_id}  ${c.status}${c.scenario !== undefined ? `  plays ${c.scenario}/${c.session ?? "default"}` : ""}`];
  for (const h of c.sip_headers) lines.push(`  ${h.name}: ${h.value}`);
  if (c.accepted_session !== undefined) lines.push(`  accepted with ${JSON.stringify(c.accepted_session)}`);
  if (c.reject_status_code !== undefined) lines.push(`  rejected with SIP ${c.reject_status_code}`);
  if (c.refer_target_uri !== undefined) lines.push(`  referred to ${c.refer_target_uri}`);
  return lines.join("\n");
}

function describeRing(r: RungCall): string {
  const sent =
    r.endpoints === 0 ? "no webhook endpoint is subscribed to realtime.call.incoming: nothing was sent" : `realtime.call.incoming sent to ${r.endpoints} endpoint${r.endpoints === 1 ? "" : "s"}`;
  return `${describeCall(r)}\n${sent}`;
}

export const call: Command = {
  name: "call",
  summary: "ring an incoming SIP call (Realtime API), or show one",
  help: `Usage: mockllm call [<scenario> [<session>]] [--header "Name: value"]... [--json] [--url <url>] [--token <token>]
       mockllm call --show <call_id> [--json] [--url <url>] [--token <token>]

Rings an incoming SIP call in the project: realtime.call.incoming goes to its webhook endpoints
(made with POST /v1/webhook_endpoints), and once your backend accepts it
(POST /v1/realtime/calls/{call_id}/accept) its socket /v1/realtime?call_id=… plays <scenario>
(and <session>). Prints the call id and how many endpoints got the event. --show prints where a
call stands: ringing, accepted, rejected, referred or ended, with what your backend sent.

Options:
  --header <text>  a SIP INVITE header, "Name: value"; repeatable (default: From and To)
  --show <call_id> show a call instead of ringing one
  --json           print the answer as JSON
${SERVER_HELP}

Examples:
  mockllm call support-line --header "From: sip:+14155550100@trunk.example.com"
  mockllm call --show rtc_0123456789abcdef0123456789abcdef`,
  options: { ...SERVER_OPTIONS, header: { type: "string", multiple: true }, show: { type: "string" }, json: { type: "boolean" } },
  async run(values, positionals, io) {
    const show = typeof values.show === "string" ? values.show : undefined;
    if (show !== undefined) {
      if (positionals.length > 0 || values.header !== undefined) throw new UsageError("--show takes a call id only: no scenario, session or --header");
      const found = await (await adminFrom(values, io)).call(show);
      io.stdout(values.json === true ? JSON.stringify(found, null, 2) : describeCall(found));
      return EXIT.ok;
    }
    if (positionals.length > 2) throw new UsageError(`expected at most <scenario> and <session>, got ${positionals.length} arguments`);
    const [scenario, session] = positionals;
    const headers = (values.header as string[] | undefined)?.map(sipHeader);
    const rung = await (await adminFrom(values, io)).ringCall({
      ...(scenario !== undefined ? { scenario } : {}),
      ...(session !== undefined ? { session } : {}),
      ...(headers !== undefined ? { sipHeaders: headers } : {}),
    });
    io.stdout(values.json === true ? JSON.stringify(rung, null, 2) : describeRing(rung));
    return EXIT.ok;
  },
};
