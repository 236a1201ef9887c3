/**
 * OpenAI compaction on the Responses surface (protocols.md 10.1): the opaque, deterministic `encrypted_content` of a
 * `compaction` item (mockllm reads its own blobs back; a foreign one is accepted with an unknown summary), the
 * `context_management` threshold, and which compaction a response carries.
 */
import { replyCompaction } from "../../../canonical/compaction";
import type { Reply } from "../../../canonical/outcome";
import type { CanonicalRequest } from "../../../canonical/request";
import { apiError, type ApiError } from "../../../http/errors";
import { base64url, fromBase64 } from "../../../util/base64";
import type { ResponsesBody } from "./wire";
import { unsupportedValue } from "../request-error";

/** Shaped like the real blobs (Fernet tokens start `gAAAAAB`); what follows is mockllm's own marker and the summary. */
const BLOB_PREFIX = "gAAAAAB";
const MARKER = "mockllm-compaction:v1\n";
/** Threshold when a `compaction` entry gives none (the guide's example value). */
export const DEFAULT_COMPACT_THRESHOLD = 200_000;

/**
 * The `encrypted_content` of a compaction carrying `summary`: the same summary always gives the same blob.
 * @example summaryOfBlob(compactionBlob("the user asked about Paris")) // "the user asked about Paris"
 */
export function compactionBlob(summary: string): string {
  return BLOB_PREFIX + base64url(new TextEncoder().encode(MARKER + summary));
}

/** The summary in a blob mockllm wrote; "" for any other blob (accepted, as a mock may accept any). */
export function summaryOfBlob(blob: string): string {
  if (!blob.startsWith(BLOB_PREFIX)) return "";
  const bytes = fromBase64(blob.slice(BLOB_PREFIX.length));
  if (bytes === undefined) return "";
  const text = new TextDecoder().decode(bytes);
  return text.startsWith(MARKER) ? text.slice(MARKER.length) : "";
}

/** The `compact_threshold` the request asks for, if it asks for server-side compaction. */
export function compactThreshold(body: ResponsesBody): number | undefined {
  const entry = body.context_management?.find((c) => c.type === "compaction");
  if (!entry) return undefined;
  return entry.compact_threshold ?? DEFAULT_COMPACT_THRESHOLD;
}

/** The real API's check of `context_management`: only `compaction` entries, with a positive threshold. */
export function contextManagementError(body: ResponsesBody): ApiError | undefined {
  for (const [i, entry] of (body.context_management ?? []).entries()) {
    const at = `context_management[${i}]`;
    if (entry.type !== "compaction") {
      return unsupportedValue(entry.type, ["compaction"], `${at}.type`);
    }
    const t = entry.compact_threshold;
    if (t !== undefined && t !== null && !(Number.isInteger(t) && t > 0)) {
      return apiError("invalid_request", `Invalid '${at}.compact_threshold': expected a positive integer, got ${t}.`, { param: `${at}.compact_threshold` });
    }
  }
  return undefined;
}

/** The compaction summary a response carries, if any (see `replyCompaction`). */
export function responseCompaction(reply: Reply, request: CanonicalRequest): string | undefined {
  return replyCompaction(reply, request)?.summary;
}
