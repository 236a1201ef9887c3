/**
 * Contract section 10 through the runtimes themselves (issue 51, point 1): the Worker under wrangler (project `node`,
 * `unstable_startWorker`, the path `wrangler dev` takes: the one file that starts it so) and the Node runtime (`node-runtime`).
 * A session no request reached answers 404 `session_not_run` on its state, journal and verify; a read creates nothing
 * (it stays unlisted and still 404s); a name used in another namespace reads exactly as one used nowhere.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { namespaceKey } from "../support/namespaces";
import { startHarness, type Harness } from "./harness";

let h: Harness;
const READS = ["", "/requests", "/verify"] as const;

beforeAll(async () => {
  h = await startHarness({}, { via: "wrangler" });
  await h.upload({ name: "rd", steps: [{ consume: false, respond: { text: "hello" } }] });
});
afterAll(() => h?.stop());

async function read(path: string, init: RequestInit = {}): Promise<{ status: number; body: any }> {
  const res = await h.admin(path, init);
  return { status: res.status, body: await res.json() };
}

const notRun = (session: string) => ({
  status: 404,
  body: { error: { message: `session "${session}" of scenario "rd" has not run: no request reached /s/rd/${session}`, code: "session_not_run" } },
});

describe("admin reads of a session that never ran", () => {
  it.each(READS)("GET /admin/sessions/rd/ghost1%s is 404 session_not_run, twice (the first read created nothing)", async (route) => {
    expect(await read(`/sessions/rd/ghost1${route}`)).toEqual(notRun("ghost1"));
    expect(await read(`/sessions/rd/ghost1${route}`)).toEqual(notRun("ghost1"));
    expect((await read("/sessions?scenario=rd")).body).toEqual([]);
  });

  it("after a request the session reads 200; a sibling that never ran still 404s", async () => {
    const res = await fetch(`${h.url}/s/rd/ran/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: "Bearer sk-test", "content-type": "application/json" },
      body: JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }] }),
    });
    expect(res.status).toBe(200);
    await res.text();
    const state = await read("/sessions/rd/ran");
    expect([state.status, state.body.requests, state.body.exists]).toEqual([200, 1, true]);
    expect((await read("/sessions/rd/ran/requests")).body).toHaveLength(1);
    expect((await read("/sessions/rd/ran/verify")).status).toBe(200);
    expect(await read("/sessions/rd/ghost2")).toEqual(notRun("ghost2"));
  });

  it("from another namespace: a name used nowhere, and one the default namespace ran, both 404 there", async () => {
    const key = await namespaceKey(h.admin, "team-rd", "admin");
    const upload = await fetch(`${h.url}/admin/scenarios`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify([{ name: "rd", steps: [{ respond: { text: "team" } }] }]),
    });
    expect(upload.status).toBe(200);
    for (const session of ["ghost3", "ran"]) {
      for (const route of READS) {
        const res = await fetch(`${h.url}/admin/sessions/rd/${session}${route}`, { headers: { authorization: `Bearer ${key}` } });
        expect([res.status, await res.json()]).toEqual([notRun(session).status, notRun(session).body]);
      }
    }
    const listed = await fetch(`${h.url}/admin/sessions?scenario=rd`, { headers: { authorization: `Bearer ${key}` } });
    expect(await listed.json()).toEqual([]);
  });
});
