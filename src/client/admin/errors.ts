/** Errors from the admin API, with the server's message and every issue's JSON path. */
import type { DocumentIssue } from "../../scenario/document";

export type AdminErrorCode =
  /** No HTTP answer: connection refused, DNS, timeout. `status` is 0. */
  | "unreachable"
  /** 401: wrong or missing admin token. */
  | "unauthorized"
  /** 503 "admin disabled": the server has no ADMIN_TOKEN. */
  | "admin_disabled"
  /** 400 on an upload: the document is invalid; `issues` lists the JSON paths. */
  | "invalid"
  | "not_found"
  /** 404 on a session read (`session`, `journal`, `verify`, `recording`): no request ever reached that session. */
  | "session_not_run"
  /** 2xx with a body the client does not understand. */
  | "bad_response"
  | "http";

export class MockLLMAdminError extends Error {
  override readonly name = "MockLLMAdminError";

  constructor(
    readonly code: AdminErrorCode,
    /** HTTP status, 0 when the server could not be reached. */
    readonly status: number,
    /** `METHOD url` of the request. */
    readonly request: string,
    /** The server's own message, when it sent one. */
    readonly serverMessage: string | undefined,
    readonly issues: readonly DocumentIssue[] = [],
    options?: { cause?: unknown },
  ) {
    super(describe(code, status, request, serverMessage, issues), options);
  }
}

function describe(code: AdminErrorCode, status: number, request: string, serverMessage: string | undefined, issues: readonly DocumentIssue[]): string {
  const head =
    code === "unreachable"
      ? `cannot reach mockllm: ${request} failed${serverMessage ? ` (${serverMessage})` : ""}; is the server running at that URL?`
      : code === "unauthorized"
        ? `${request} → 401 unauthorized: the admin token is wrong or missing (set --token or MOCKLLM_ADMIN_TOKEN)`
        : code === "admin_disabled"
          ? `${request} → 503 admin disabled: the server has no ADMIN_TOKEN configured`
          : code === "session_not_run"
            ? `${request} → 404: ${serverMessage ?? "this session has not run"} (is the client pointed at this scenario and session?)`
            : `${request} → ${status}${serverMessage ? `: ${serverMessage}` : ""}`;
  return [head, ...issues.map((i) => `  ${i.path}: ${i.message}`)].join("\n");
}
