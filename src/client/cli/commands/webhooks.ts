import type { WebhookReport } from "../../admin/types";
import { adminFrom, SERVER_HELP, SERVER_OPTIONS, type Command } from "../command";
import { EXIT, table } from "../io";

export const webhooks: Command = {
  name: "webhooks",
  summary: "show the project's webhook endpoints and the last deliveries",
  help: `Usage: mockllm webhooks [--json] [--url <url>] [--token <token>]

Shows the project's webhook endpoints (made with POST /v1/webhook_endpoints) and the last
deliveries mockllm made to them, newest first: the event, the endpoint, which attempt, what the
endpoint answered (or why nothing did) and whether it will be tried again. A namespace key shows
its namespace's; the admin token the default namespace's.

Options:
  --json           print the report as JSON
${SERVER_HELP}

Example:
  mockllm webhooks`,
  options: { ...SERVER_OPTIONS, json: { type: "boolean" } },
  async run(values, _positionals, io) {
    const report = await (await adminFrom(values, io)).webhooks();
    io.stdout(values.json === true ? JSON.stringify(report, null, 2) : render(report));
    return EXIT.ok;
  },
};

function render(r: WebhookReport): string {
  if (r.endpoints.length === 0 && r.deliveries.length === 0) return "no webhook endpoints";
  const out: string[] = [];
  if (r.endpoints.length > 0) out.push(table([["ENDPOINT", "NAME", "URL", "EVENTS"], ...r.endpoints.map((e) => [e.id, e.name, e.url, e.event_types.join(",")])]));
  else out.push("no webhook endpoints");
  out.push(`${r.waiting} ${r.waiting === 1 ? "delivery waits" : "deliveries wait"}`);
  if (r.deliveries.length > 0) {
    const rows = r.deliveries.map((d) => [d.at, d.type, d.endpoint, String(d.attempt), d.status !== undefined ? String(d.status) : (d.error ?? "-"), d.retry ? "yes" : "no"]);
    out.push(table([["AT", "EVENT", "ENDPOINT", "ATTEMPT", "ANSWER", "RETRY"], ...rows]));
  }
  return out.join("\n\n");
}
