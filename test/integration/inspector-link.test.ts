/**
 * A link into the inspector (`/#scenario=…&session=…&key=…`) on both runtimes: the page's own script, as served, runs
 * over a minimal stand-in for the DOM and talks to this runtime's admin API. It keeps the key in sessionStorage, drops
 * it from the address bar, lands on the session with no token typed in — with the admin token, a namespace `admin`
 * key and a `read` key — and nothing it sends carries the key anywhere but the Authorization header.
 * (test/node/inspector-browser.test.ts does the same in Chromium.)
 */
import { describe, expect, it } from "vitest";
import { ADMIN_TOKEN, admin, call, chat, upload, userTurn } from "./helpers";
import { createNamespace, mintKey } from "../support/namespaces";

interface FakeElement {
  textContent: string;
  value: string;
  hidden: boolean;
  checked: boolean;
  className: string;
  children: FakeElement[];
  tBodies: FakeElement[];
  classList: { toggle(): void };
  append(...c: FakeElement[]): void;
  replaceChildren(...c: FakeElement[]): void;
  setAttribute(k: string, v: string): void;
  getAttribute(k: string): string | undefined;
  addEventListener(ev: string, f: () => unknown): void;
}

function element(): FakeElement {
  const attrs: Record<string, string> = {};
  const el: FakeElement = {
    textContent: "",
    value: "",
    hidden: false,
    checked: false,
    className: "",
    children: [],
    tBodies: [],
    classList: { toggle() {} },
    append: (...c) => void el.children.push(...c),
    replaceChildren: (...c) => void (el.children = c),
    setAttribute: (k, v) => void (attrs[k] = v),
    getAttribute: (k) => attrs[k],
    addEventListener() {},
  };
  return el;
}

function storage() {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), removeItem: (k: string) => void m.delete(k) };
}

/** Opens `hash` on `/` with the served app.js; answers once the session's verify summary is shown (or `settled`). */
async function openLink(hash: string, settled = (byId: (id: string) => FakeElement) => byId("verify-summary").textContent !== "", maxTicks = 2000) {
  const js = await (await call("/inspector/app.js")).text();
  const ids = new Map<string, FakeElement>();
  const byId = (id: string) => {
    let el = ids.get(id);
    if (!el) {
      ids.set(id, (el = element()));
      if (id === "steps" || id === "sessions") el.tBodies = [element()];
    }
    return el;
  };
  byId("auto").checked = false; // no refresh loop
  const location = { hash, pathname: "/", search: "" };
  const addressBar: string[] = [];
  const history = {
    replaceState(_s: unknown, _t: string, url: string) {
      addressBar.push(url);
      location.hash = url.includes("#") ? url.slice(url.indexOf("#")) : "";
    },
  };
  const sent: { path: string; authorization: string; status: number }[] = [];
  const fetchFromPage = async (path: string, init: RequestInit) => {
    const res = await call(path, init);
    sent.push({ path, authorization: new Headers(init.headers).get("authorization") ?? "", status: res.status });
    return res;
  };
  let ready: (() => void) | undefined;
  const document = {
    getElementById: byId,
    createElement: element,
    querySelectorAll: () => [],
    addEventListener: (ev: string, f: () => void) => void (ev === "DOMContentLoaded" && (ready = f)),
    hidden: false,
  };
  const session = storage();
  const local = storage();
  new Function("window", "document", "location", "history", "sessionStorage", "localStorage", "fetch", js)({ addEventListener() {} }, document, location, history, session, local, fetchFromPage);
  ready!();
  for (let i = 0; i < maxTicks && !settled(byId); i++) await new Promise((r) => setTimeout(r, 2));
  return { byId, addressBar, sent, session, local };
}

const DOC = { name: "link-demo", steps: [{ id: "hi", respond: { text: "Hello there." } }] };

async function namespaceKeys(ns: string): Promise<{ adminKey: string; readKey: string }> {
  await createNamespace(admin, ns);
  return { adminKey: (await mintKey(admin, ns, "admin")).key, readKey: (await mintKey(admin, ns, "read")).key };
}

describe("inspector link", () => {
  it("with the admin token: lands on the session, key kept in sessionStorage and gone from the address bar", async () => {
    await upload(DOC);
    expect((await chat(userTurn("hi"), "/s/link-demo/run-1")).status).toBe(200);
    const page = await openLink(`#scenario=link-demo&session=run-1&key=${encodeURIComponent(ADMIN_TOKEN)}`);
    expect(page.addressBar).toEqual(["/#/s/link-demo/run-1"]);
    expect(page.session.getItem("mockllm-admin-token")).toBe(ADMIN_TOKEN);
    expect(page.local.getItem("mockllm-admin-token")).toBeNull();
    expect(page.byId("token").value).toBe(ADMIN_TOKEN);
    expect(page.byId("session-title").textContent).toBe("link-demo / run-1");
    expect(page.byId("journal").children.length).toBe(1);
    expect(page.byId("journal-count").textContent).toBe("1 request");
    expect(page.byId("verify-summary").textContent).toMatch(/^mockllm verify: ok: scenario "link-demo" session "run-1"/);
    expect(page.sent.map((s) => s.path)).toEqual(expect.arrayContaining(["/admin/scenarios", "/admin/sessions/link-demo/run-1/requests"]));
    for (const s of page.sent) expect(s).toMatchObject({ authorization: `Bearer ${ADMIN_TOKEN}`, status: 200 });
    expect(page.sent.some((s) => s.path.includes(ADMIN_TOKEN))).toBe(false);
  });

  it("with a namespace admin key and a read key: that namespace's session, in place of the token", async () => {
    const { adminKey, readKey } = await namespaceKeys("link-team");
    const asKey = { authorization: `Bearer ${adminKey}`, "content-type": "application/json" };
    const other = { ...DOC, steps: [{ id: "hi", respond: { text: "From the team." } }] };
    expect((await call("/admin/scenarios/link-demo", { method: "PUT", headers: asKey, body: JSON.stringify(other) })).status).toBe(200);
    expect((await chat(userTurn("hi"), "/s/link-demo/team-run", { authorization: `Bearer ${adminKey}` })).status).toBe(200);
    for (const key of [adminKey, readKey]) {
      const page = await openLink(`#scenario=link-demo&session=team-run&key=${encodeURIComponent(key)}`);
      expect(page.addressBar).toEqual(["/#/s/link-demo/team-run"]);
      expect(page.session.getItem("mockllm-admin-token")).toBe(key);
      expect(page.byId("session-title").textContent).toBe("link-demo / team-run");
      expect(page.byId("journal").children.length).toBe(1);
      expect(page.byId("verify-summary").textContent).toMatch(/^mockllm verify: ok: scenario "link-demo" session "team-run"/);
      expect(JSON.parse(page.byId("scenario-source").textContent)).toMatchObject({ steps: [{ respond: { text: "From the team." } }] });
      for (const s of page.sent) expect(s).toMatchObject({ authorization: `Bearer ${key}`, status: 200 });
    }
  });

  it("without a key: the route is kept and nothing is asked of the admin API until a token is given", async () => {
    const page = await openLink("#scenario=link-demo&session=run-1", () => false, 10);
    expect(page.addressBar).toEqual(["/#/s/link-demo/run-1"]);
    expect(page.sent).toEqual([]);
    expect(page.session.getItem("mockllm-admin-token")).toBeNull();
  });

  it("the root link (the ready banner's) signs in and shows the scenario list, leaving a clean address", async () => {
    const page = await openLink(`#key=${encodeURIComponent(ADMIN_TOKEN)}`, (byId) => byId("scenarios").children.length > 0);
    expect(page.addressBar).toEqual(["/"]);
    expect(page.byId("scenarios").children.map((li) => li.getAttribute("data-name"))).toContain("link-demo");
    expect(page.sent.map((s) => [s.path, s.status])).toEqual([["/admin/scenarios", 200]]);
  });
});
