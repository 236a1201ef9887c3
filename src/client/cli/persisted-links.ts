/**
 * What `serve --persist DIR` prints after its banner: the sessions it loaded from DIR, each with its
 * inspector link — a test's own link dies with the test's server; these open the kept run on this one.
 */
import { inspectorLink } from "../admin/inspector-link";

/** At most this many sessions are listed; the rest are counted. */
export const MAX_LISTED = 20;

/**
 * The lines for the sessions a persisted server holds, newest first, or [] when there are none.
 * @example await persistedSessionLines("http://127.0.0.1:8787", "tok", "runs/") // ["sessions kept in runs/ …", "  weather/t1  2 requests  http://…"]
 */
export async function persistedSessionLines(url: string, token: string, dir: string): Promise<string[]> {
  const { AdminClient } = await import("../admin/client"); // with zod: only `serve --persist` needs it
  const sessions = await new AdminClient({ url, token }).sessions();
  if (sessions.length === 0) return [];
  const shown = sessions.slice(0, MAX_LISTED);
  const names = shown.map((s) => `${s.scenario}/${s.session}`);
  const width = Math.max(...names.map((n) => n.length));
  const lines = [`sessions kept in ${dir} (newest first), in the inspector:`];
  shown.forEach((s, i) => {
    const requests = `${s.requests} request${s.requests === 1 ? "" : "s"}`;
    lines.push(`  ${names[i]!.padEnd(width)}  ${requests.padEnd(12)}  ${inspectorLink(url, { scenario: s.scenario, session: s.session, key: token })}`);
  });
  if (sessions.length > shown.length) lines.push(`  … and ${sessions.length - shown.length} more (GET /admin/sessions, or the inspector's list)`);
  return lines;
}
