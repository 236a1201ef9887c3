/**
 * A typed client for the admin API (contract section 5), over `fetch`.
 */
import type { z } from "zod";
import type { Scenario } from "../../scenario/schema";
import type { ScenarioInput } from "../builder/types";
import { MockLLMAdminError, type AdminErrorCode } from "./errors";
import { inspectorLink } from "./inspector-link";
import {
  AdminErrorBodySchema,
  BulkUploadResultSchema,
  CoverageSchema,
  JournalSchema,
  ScenarioListSchema,
  SessionListSchema,
  WebhookReportSchema,
  CallSchema,
  RungCallSchema,
  SessionStateSchema,
  StoredDocumentSchema,
  UploadResultSchema,
  VerifyResultSchema,
  type Coverage,
  type JournalEntry,
  type JournalFilter,
  type SessionListing,
  type WebhookReport,
  type Call,
  type RungCall,
  type ScenarioSummary,
  type SessionState,
  type StoredDocument,
  type UploadResult,
  type VerifyResult,
} from "./types";
import {
  AuditSchema,
  CreatedKeySchema,
  KeyListSchema,
  NamespaceListSchema,
  NamespaceSchema,
  type AuditEntry,
  type CreatedKey,
  type KeyScope,
  type Namespace,
  type NamespaceKey,
  type NamespaceLimits,
  type Quotas,
} from "./namespace-types";

export interface AdminClientOptions {
  /** Base URL of the server, e.g. `http://127.0.0.1:8787`. */
  url: string;
  /** The server's `ADMIN_TOKEN`. */
  token: string;
  /** Per-request timeout in ms (default 30000). */
  timeoutMs?: number;
  /** A `fetch` to use instead of the global one. */
  fetch?: typeof fetch;
}

/** Anything with `build()`, such as a `ScenarioBuilder`: built (and validated) before upload. */
export type Uploadable = ScenarioInput | { build(): Scenario };

export class AdminClient {
  readonly url: string;
  readonly #token: string;
  readonly #timeoutMs: number;
  readonly #fetch: typeof fetch;

  constructor(options: AdminClientOptions) {
    this.url = options.url.replace(/\/+$/, "");
    this.#token = options.token;
    this.#timeoutMs = options.timeoutMs ?? 30_000;
    this.#fetch = options.fetch ?? globalThis.fetch;
  }

  /**
   * Validates on the server and stores one scenario.
   * @example await admin.upload(scenario("hello").step((s) => s.text("Hi")))
   */
  async upload(doc: Uploadable): Promise<UploadResult> {
    const body = toDocument(doc);
    const name = typeof body.name === "string" ? body.name : "";
    return this.#call("PUT", `/admin/scenarios/${encodeURIComponent(name)}`, UploadResultSchema, body);
  }

  /**
   * Stores several scenarios at once: all valid or none stored.
   * @example await admin.uploadMany([a, b])
   */
  async uploadMany(docs: readonly Uploadable[]): Promise<UploadResult[]> {
    return this.#call("POST", "/admin/scenarios", BulkUploadResultSchema, docs.map(toDocument));
  }

  /**
   * Every scenario the server knows, bundled and uploaded.
   * @example (await admin.list()).map((s) => s.name)
   */
  async list(): Promise<ScenarioSummary[]> {
    return this.#call("GET", "/admin/scenarios", ScenarioListSchema);
  }

  /**
   * One scenario document as stored.
   * @example const doc = await admin.get("weather")
   */
  async get(name: string): Promise<StoredDocument> {
    // The stored document passes through untouched (it may be in the seed format).
    return this.#call("GET", `/admin/scenarios/${encodeURIComponent(name)}`, StoredDocumentSchema);
  }

  /**
   * Removes an uploaded scenario (a bundled twin comes back as the default).
   * @example await admin.delete("weather")
   */
  async delete(name: string): Promise<void> {
    await this.#send("DELETE", `/admin/scenarios/${encodeURIComponent(name)}`);
  }

  /**
   * A session's state: version in use, steps used and attempts, request count.
   * @example (await admin.session("weather", "run-1")).steps
   */
  async session(scenario: string, session = "default"): Promise<SessionState> {
    return this.#call("GET", sessionPath(scenario, session), SessionStateSchema);
  }

  /**
   * A session's request journal, oldest first.
   * @example (await admin.journal("weather")).map((e) => e.outcome)
   */
  async journal(scenario: string, session = "default", filter: JournalFilter = {}): Promise<JournalEntry[]> {
    const q = new URLSearchParams();
    if (filter.step !== undefined) q.set("step", filter.step);
    if (filter.outcome !== undefined) q.set("outcome", filter.outcome);
    if (filter.since !== undefined) q.set("since", String(filter.since));
    const query = q.size > 0 ? `?${q}` : "";
    return this.#call("GET", `${sessionPath(scenario, session)}/requests${query}`, JournalSchema);
  }

  /**
   * Whether the session did what the script says: every step used (but `allowUnused`), no mismatch, no scripted
   * failure left unanswered. Answers the result whatever it is; `result.summary` says what went wrong.
   * @example const v = await admin.verify("weather", "run-1"); if (!v.ok) console.log(v.summary)
   */
  async verify(scenario: string, session = "default", options: { allowUnused?: readonly string[] } = {}): Promise<VerifyResult> {
    const allow = options.allowUnused ?? [];
    const query = allow.length > 0 ? `?allowUnused=${allow.map(encodeURIComponent).join(",")}` : "";
    return this.#call("GET", `${sessionPath(scenario, session)}/verify${query}`, VerifyResultSchema);
  }

  /**
   * The sessions that exist (of one scenario, or of all), most recent first.
   * @example (await admin.sessions("weather")).map((s) => s.session)
   */
  async sessions(scenario?: string): Promise<SessionListing[]> {
    const query = scenario === undefined ? "" : `?scenario=${encodeURIComponent(scenario)}`;
    return this.#call("GET", `/admin/sessions${query}`, SessionListSchema);
  }

  /**
   * The project's webhooks: its endpoints (no secrets), how many deliveries wait, and the last 100 attempts with what
   * each endpoint answered, newest first — why an app's handler did or did not hear an event.
   * @example (await admin.webhooks()).deliveries.filter((d) => d.status !== 200)
   */
  async webhooks(): Promise<WebhookReport> {
    return this.#call("GET", "/admin/webhooks", WebhookReportSchema);
  }

  /**
   * Rings an incoming SIP call in the project: `realtime.call.incoming` goes to its webhook endpoints, for the backend
   * under test to accept (`/v1/realtime/calls/{call_id}/accept`) and drive over `/v1/realtime?call_id=…`, where the
   * call plays `scenario` (and `session`).
   * @example const { call_id, endpoints } = await admin.ringCall({ scenario: "support-line" })
   */
  async ringCall(options: { scenario?: string; session?: string; sipHeaders?: { name: string; value: string }[] } = {}): Promise<RungCall> {
    const { sipHeaders, ...names } = options;
    return this.#call("POST", "/admin/realtime/calls", RungCallSchema, { ...names, ...(sipHeaders !== undefined ? { sip_headers: sipHeaders } : {}) });
  }

  /**
   * Where a rung call stands: `ringing`, `accepted` (with the session the backend configured), `rejected` (with its SIP
   * status), `referred` (with its target) or `ended`.
   * @example expect((await admin.call(call_id)).status).toBe("accepted")
   */
  async call(callId: string): Promise<Call> {
    return this.#call("GET", `/admin/realtime/calls/${encodeURIComponent(callId)}`, CallSchema);
  }

  /**
   * Per step of a scenario, across its sessions: sessions that used it, attempts, failures served, mismatches.
   * @example (await admin.coverage("weather")).steps.filter((s) => s.sessions === 0)
   */
  async coverage(scenario: string): Promise<Coverage> {
    return this.#call("GET", `/admin/scenarios/${encodeURIComponent(scenario)}/coverage`, CoverageSchema);
  }

  /**
   * Forgets a session's usage, attempts and journal; it picks up the newest version.
   * @example await admin.reset("weather", "run-1")
   */
  async reset(scenario: string, session = "default"): Promise<void> {
    await this.#send("POST", `${sessionPath(scenario, session)}/reset`);
  }

  /**
   * A session's recording (the recording proxy's upstream answers) as a scenario document named `name`
   * (default: the scenario's name), ready to write to a file or upload.
   * @example await writeFile("scenarios/my-run.json", JSON.stringify(await admin.recording("my-run", "default"), null, 2))
   */
  async recording(scenario: string, session = "default", name?: string): Promise<StoredDocument> {
    const query = name !== undefined ? `?name=${encodeURIComponent(name)}` : "";
    return this.#call("GET", `${sessionPath(scenario, session)}/recording${query}`, StoredDocumentSchema);
  }

  /**
   * The scenario JSON Schema.
   * @example const schema = await admin.schema()
   */
  async schema(): Promise<unknown> {
    return this.#send("GET", "/admin/schema");
  }

  /**
   * Creates a namespace (root token only): its own scenarios, sessions and keys.
   * @example await admin.createNamespace("team-a", { requestsPerMinute: 600 })
   */
  async createNamespace(name: string, quotas?: Quotas, opts: { ttlSeconds?: number; limits?: NamespaceLimits } = {}): Promise<Namespace> {
    return this.#call("POST", "/admin/namespaces", NamespaceSchema, {
      name,
      ...(quotas ? { quotas } : {}),
      ...(opts.ttlSeconds !== undefined ? { ttlSeconds: opts.ttlSeconds } : {}),
      ...(opts.limits !== undefined ? { limits: opts.limits } : {}),
    });
  }

  /** The namespaces (root token only). */
  async namespaces(): Promise<Namespace[]> {
    return this.#call("GET", "/admin/namespaces", NamespaceListSchema);
  }

  /** Deletes a namespace: its keys are refused at once, its data removed. */
  async deleteNamespace(name: string): Promise<void> {
    await this.#send("DELETE", `/admin/namespaces/${encodeURIComponent(name)}`);
  }

  /**
   * Mints a key for a namespace; `key` is shown only here (only its hash is stored).
   * @example const { key } = await admin.createKey("team-a", "run", "preview env") // set as OPENAI_API_KEY
   */
  async createKey(namespace: string, scope: KeyScope, label?: string): Promise<CreatedKey> {
    return this.#call("POST", `/admin/namespaces/${encodeURIComponent(namespace)}/keys`, CreatedKeySchema, { scope, ...(label !== undefined ? { label } : {}) });
  }

  /** A namespace's keys, without their secrets. */
  async keys(namespace: string): Promise<NamespaceKey[]> {
    return this.#call("GET", `/admin/namespaces/${encodeURIComponent(namespace)}/keys`, KeyListSchema);
  }

  /** Revokes a key by id: refused everywhere within 5 seconds. */
  async revokeKey(namespace: string, id: string): Promise<void> {
    await this.#send("DELETE", `/admin/namespaces/${encodeURIComponent(namespace)}/keys/${encodeURIComponent(id)}`);
  }

  /** A namespace's audit log (who changed what), oldest first. */
  async audit(namespace: string): Promise<AuditEntry[]> {
    return this.#call("GET", `/admin/namespaces/${encodeURIComponent(namespace)}/audit`, AuditSchema);
  }

  /**
   * The inspector link that opens this server's page on a scenario/session, signed in with this client's token or key
   * (carried in the URL fragment, which the browser never sends). `{ key: false }` leaves the key out.
   * @example admin.inspectorURL("weather", "t1") // "http://127.0.0.1:8787/#scenario=weather&session=t1&key=…"
   */
  inspectorURL(scenario?: string, session?: string, options: { key?: boolean } = {}): string {
    return inspectorLink(this.url, { scenario, session, key: options.key === false ? undefined : this.#token });
  }

  /** Sends one request; answers the parsed JSON body (undefined when empty) or throws MockLLMAdminError. */
  async #send(method: string, path: string, body?: unknown): Promise<unknown> {
    const url = `${this.url}${path}`;
    const label = `${method} ${url}`;
    let res: Response;
    try {
      res = await this.#fetch(url, {
        method,
        headers: {
          authorization: `Bearer ${this.#token}`,
          accept: "application/json",
          ...(body !== undefined ? { "content-type": "application/json" } : {}),
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(this.#timeoutMs),
      });
    } catch (err) {
      throw new MockLLMAdminError("unreachable", 0, label, networkReason(err), [], { cause: err });
    }
    const text = await res.text();
    if (!res.ok) throw errorFromResponse(res.status, label, text);
    if (text.trim() === "") return undefined;
    try {
      return JSON.parse(text);
    } catch {
      throw new MockLLMAdminError("bad_response", res.status, label, `not JSON: ${text.slice(0, 200)}`);
    }
  }

  /** Sends one request and validates the answer against `schema`. */
  async #call<T>(method: string, path: string, schema: z.ZodType<T>, body?: unknown): Promise<T> {
    const json = await this.#send(method, path, body);
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      const detail = `unexpected shape: ${parsed.error.issues[0]?.message ?? "invalid"}`;
      throw new MockLLMAdminError("bad_response", 200, `${method} ${this.url}${path}`, detail);
    }
    return parsed.data;
  }
}

function sessionPath(scenario: string, session: string): string {
  return `/admin/sessions/${encodeURIComponent(scenario)}/${encodeURIComponent(session)}`;
}

/**
 * The document to send: builders are built (and so validated) first, documents pass as they are.
 * @example toDocument(scenario("x").step((s) => s.text("hi")))
 */
export function toDocument(doc: Uploadable): ScenarioInput {
  return isBuildable(doc) ? doc.build() : doc;
}

function isBuildable(doc: Uploadable): doc is { build(): Scenario } {
  return "build" in doc && typeof doc.build === "function";
}

function errorFromResponse(status: number, label: string, text: string): MockLLMAdminError {
  let message: string | undefined;
  let serverCode: string | undefined;
  let issues: { path: string; message: string }[] = [];
  try {
    const parsed = AdminErrorBodySchema.safeParse(JSON.parse(text));
    if (parsed.success) {
      const e = parsed.data.error;
      if (typeof e === "string") message = e;
      else {
        message = e.message;
        serverCode = e.code;
        issues = (e.issues ?? []).map((i) => ({ path: i.path, message: i.message }));
      }
    }
  } catch {
    message = text.trim().slice(0, 500) || undefined;
  }
  const code: AdminErrorCode =
    status === 401
      ? "unauthorized"
      : status === 503 && /admin disabled/i.test(message ?? text)
        ? "admin_disabled"
        : status === 404
          ? serverCode === "session_not_run"
            ? "session_not_run"
            : "not_found"
          : status === 400 && issues.length > 0
            ? "invalid"
            : "http";
  return new MockLLMAdminError(code, status, label, message, issues);
}

function networkReason(err: unknown): string {
  if (err instanceof Error) {
    if (err.name === "TimeoutError") return "timed out";
    const cause: unknown = err.cause;
    if (cause instanceof Error) {
      const code = (cause as { code?: unknown }).code;
      return typeof code === "string" ? `${code}: ${cause.message}` : cause.message;
    }
    return err.message;
  }
  return String(err);
}
