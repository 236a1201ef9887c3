/**
 * Every admin route's refusals, byte for byte (status, body, content type): the answers the admin package
 * (src/admin/) gives are the ones the three admin modules before it gave (issue 30). Namespace and key routes with
 * every wrong method, unknown names and paths; scenario and session routes with bad names, bodies and filters; a
 * namespace key on root's routes. On both runtimes.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { admin, call, chat, upload, userTurn } from "./helpers";

const RULE = "[a-z0-9][a-z0-9._-]{0,63}";

/** The pretty-printed error body every admin refusal carries. */
const errorBody = (message: string, extra: Record<string, unknown> = {}) => JSON.stringify({ error: { message, ...extra } }, null, 2);

async function expectAnswer(res: Response, status: number, body: string): Promise<void> {
  expect({ status: res.status, body: await res.text(), type: res.headers.get("content-type") }).toEqual({ status, body, type: "application/json" });
}

let readKey = "";
let adminKey = "";

beforeAll(async () => {
  expect((await admin("/namespaces", { method: "POST", body: JSON.stringify({ name: "routes-a" }) })).status).toBe(201);
  expect((await admin("/namespaces", { method: "POST", body: JSON.stringify({ name: "routes-b" }) })).status).toBe(201);
  const mint = async (scope: string) => {
    const res = await admin("/namespaces/routes-a/keys", { method: "POST", body: JSON.stringify({ scope }) });
    return ((await res.json()) as { key: string }).key;
  };
  readKey = await mint("read");
  adminKey = await mint("admin");
  await upload({ name: "routes-s", steps: [{ id: "hi", respond: { text: "hi" } }] });
  expect((await chat(userTurn("hello"), "/s/routes-s/ran")).status).toBe(200);
});

describe("namespace and key routes (root)", () => {
  const cases: [string, string, number, string][] = [
    ["PUT", "/namespaces", 405, errorBody("use GET or POST for /admin/namespaces")],
    ["PATCH", "/namespaces/", 405, errorBody("use GET or POST for /admin/namespaces")],
    ["GET", "/namespaces/nope", 404, errorBody('namespace "nope" not found')],
    ["PUT", "/namespaces/nope", 404, errorBody('namespace "nope" not found')],
    ["GET", "/namespaces/Bad%20Name/keys", 404, errorBody('namespace "Bad Name" not found')],
    ["GET", "/namespaces/nope/anything/at/all", 404, errorBody('namespace "nope" not found')],
    ["PUT", "/namespaces/routes-b", 405, errorBody("use GET or DELETE for /admin/namespaces/{ns}")],
    ["GET", "/namespaces/routes-b/other", 404, errorBody("no such admin route")],
    ["POST", "/namespaces/routes-b/audit", 404, errorBody("no such admin route")],
    ["GET", "/namespaces/routes-b/audit/x", 404, errorBody("no such admin route")],
    ["PUT", "/namespaces/routes-b/keys", 405, errorBody("use GET or POST for /admin/namespaces/{ns}/keys")],
    ["GET", "/namespaces/routes-b/keys/abc", 405, errorBody("use DELETE for /admin/namespaces/{ns}/keys/{id}")],
    ["DELETE", "/namespaces/routes-b/keys/abc", 404, errorBody('key "abc" not found')],
  ];
  it.each(cases)("%s /admin%s", async (method, path, status, body) => {
    await expectAnswer(await admin(path, { method }), status, body);
  });

  it("a new namespace's name and body are checked like every other name and body", async () => {
    const bad = await admin("/namespaces", { method: "POST", body: JSON.stringify({ name: "Bad Name" }) });
    await expectAnswer(bad, 400, errorBody("invalid namespace", { issues: [{ path: "$.name", message: `names match ${RULE}` }] }));
    const notJson = await (await admin("/scenarios", { method: "POST", body: "{" })).text();
    expect(notJson).toContain('"message": "body is not valid JSON: ');
    await expectAnswer(await admin("/namespaces", { method: "POST", body: "{" }), 400, notJson);
    const taken = await admin("/namespaces", { method: "POST", body: JSON.stringify({ name: "routes-b" }) });
    await expectAnswer(taken, 409, errorBody('namespace "routes-b" already exists'));
    const implicit = await admin("/namespaces", { method: "POST", body: JSON.stringify({ name: "default" }) });
    await expectAnswer(implicit, 409, errorBody('namespace "default" is the implicit one; choose another name'));
  });
});

describe("a namespace key on root's routes", () => {
  const as = (key: string, path: string, method = "GET") => call(`/admin${path}`, { method, headers: { authorization: `Bearer ${key}`, "content-type": "application/json" } });

  it("reads its own audit log, and nothing else under /admin/namespaces", async () => {
    const own = await as(readKey, "/namespaces/routes-a/audit");
    expect(own.status).toBe(200);
    expect(((await own.json()) as { action: string }[]).map((e) => e.action)).toEqual(["namespace.create", "key.create", "key.create"]);
    await expectAnswer(await as(readKey, "/namespaces/routes-b/audit"), 404, errorBody("no such admin route"));
    await expectAnswer(await as(readKey, "/namespaces/routes-a/keys"), 404, errorBody("no such admin route"));
    await expectAnswer(await as(readKey, "/namespaces"), 404, errorBody("no such admin route"));
    await expectAnswer(await as(adminKey, "/namespaces/routes-a/keys", "POST"), 404, errorBody("no such admin route"));
  });

  it("a read key may not write; an unknown key is unauthorized", async () => {
    await expectAnswer(await as(readKey, "/sessions/routes-s/ran/reset", "POST"), 403, errorBody("a read key may only read (GET)"));
    await expectAnswer(await as(`mk_000000000000_${"0".repeat(48)}`, "/scenarios"), 401, errorBody("unauthorized"));
    await expectAnswer(await as("not-the-token", "/scenarios"), 401, errorBody("unauthorized"));
  });
});

describe("scenario and session routes", () => {
  const cases: [string, string, string | undefined, number, string][] = [
    ["PUT", "/scenarios/Bad%20Name", "{}", 400, errorBody(`invalid name "Bad Name": names match ${RULE}`)],
    ["DELETE", "/scenarios/Bad%20Name", undefined, 400, errorBody(`invalid name "Bad Name": names match ${RULE}`)],
    ["GET", "/scenarios/nope", undefined, 404, errorBody('scenario "nope" not found')],
    ["DELETE", "/scenarios/nope", undefined, 404, errorBody('scenario "nope" not found')],
    ["POST", "/scenarios", "{}", 400, errorBody("bulk upload takes a JSON array of scenarios")],
    ["GET", "/sessions/Bad%20Name/s1", undefined, 400, errorBody(`invalid name "Bad Name": names match ${RULE}`)],
    ["POST", "/sessions/routes-s/Bad%20Name/reset", undefined, 400, errorBody(`invalid name "Bad Name": names match ${RULE}`)],
    ["GET", "/sessions?scenario=Bad%20Name", undefined, 400, errorBody('invalid scenario name "Bad Name"')],
    ["GET", "/sessions/routes-s/ran/requests?outcome=odd", undefined, 400, errorBody('outcome must be one of response, failure, mismatch, side_call, chaos, got "odd"')],
    ["GET", "/sessions/routes-s/ran/requests?since=-1", undefined, 400, errorBody('since must be a journal seq (0 or more), got "-1"')],
    ["GET", "/sessions/routes-s/ran/recording?name=Bad%20Name", undefined, 400, errorBody(`invalid name "Bad Name": names match ${RULE}`)],
    [
      "GET",
      "/sessions/routes-s/rab/verify",
      undefined,
      404,
      errorBody('session "rab" of scenario "routes-s" has not run: no request reached /s/routes-s/rab; did you mean "ran"?', { code: "session_not_run" }),
    ],
    ["GET", "/scenarios/nope/coverage", undefined, 404, errorBody('scenario "nope" not found')],
    ["GET", "/nowhere", undefined, 404, errorBody("no such admin route")],
    ["PATCH", "/scenarios/routes-s", undefined, 404, errorBody("no such admin route")],
  ];
  it.each(cases)("%s /admin%s", async (method, path, body, status, answer) => {
    await expectAnswer(await admin(path, { method, ...(body !== undefined ? { body } : {}) }), status, answer);
  });
});
