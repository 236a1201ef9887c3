/**
 * Gemini's explicit context caches (`cachedContents`) as generateContent sees them: the caller's caches (below
 * `gemini-caches/` in its namespace's `ObjectStore`), and a request's `cachedContent` put in front of it — the cache's
 * contents before the request's, its `systemInstruction`, `tools` and `toolConfig` as the request's — so selection and
 * the engine see the whole conversation. The routes are module/caches/caches.ts.
 */
import { apiError, type ApiError } from "../../http/errors";
import { RecordStore } from "../../objects/records";
import { scopedObjects, type ObjectStore } from "../../objects/store";
import type { Runtime } from "../../runtime/types";
import type { CanonicalRequest } from "../../canonical/request";
import type { ParseResult, RequestTarget } from "../types";
import { parseGemini } from "./parse";
import { Headers } from "../../http/web";
import type { GeminiWire } from "./wire";

/** One cache as kept: what `create` was given and when it ends. */
export interface CacheRecord {
  id: string;
  /** Without `models/`. */
  model: string;
  displayName?: string;
  contents: unknown[];
  systemInstruction?: unknown;
  tools?: unknown[];
  toolConfig?: unknown;
  createMs: number;
  updateMs: number;
  expireMs: number;
  /** The estimated tokens of what it holds. */
  tokens: number;
}

export function geminiCaches(objects: ObjectStore): RecordStore<CacheRecord> {
  return new RecordStore<CacheRecord>(scopedObjects(objects, "gemini-caches/"), "caches/");
}

/** The API's answer for a cache it does not know (or another project's). */
export function cacheNotFound(): ApiError {
  return apiError("permission", "CachedContent not found (or permission denied)");
}

/** The caller's cache `id`, unless it is unknown or expired (an expired one is forgotten then). */
export async function loadCache(rt: Runtime, id: string, now = Date.now()): Promise<CacheRecord | undefined> {
  if (rt.objects === undefined) return undefined;
  const store = geminiCaches(rt.objects);
  const r = await store.get(id);
  if (r === null) return undefined;
  if (r.expireMs <= now) {
    await store.delete(id);
    return undefined;
  }
  return r;
}

/**
 * A generateContent naming `cachedContent`: refused when it also sets what the cache holds (the API's 400), when the
 * cache is unknown (403) or was made for another model (400); else the request with the cache in front of it.
 */
export async function applyCachedContent(wire: GeminiWire, request: CanonicalRequest, rt: Runtime): Promise<ParseResult<GeminiWire>> {
  const name = wire.body.cachedContent;
  if (name === undefined) return { ok: true, wire, request };
  const { systemInstruction, tools, toolConfig, cachedContent: _cached, ...rest } = wire.body;
  if (systemInstruction !== undefined || tools !== undefined || toolConfig !== undefined) {
    return { ok: false, error: apiError("invalid_request", "Tool config, tools and system instruction should not be set in the request when using cached content.") };
  }
  const cache = await loadCache(rt, name.replace(/^cachedContents\//, ""));
  if (!cache) return { ok: false, error: cacheNotFound() };
  if (cache.model !== wire.model) {
    return { ok: false, error: apiError("invalid_request", `Model used by GenerateContent request (models/${wire.model}) and CachedContent (models/${cache.model}) has to be the same.`) };
  }
  const body = {
    ...rest,
    contents: [...cache.contents, ...wire.body.contents],
    ...(cache.systemInstruction !== undefined ? { systemInstruction: cache.systemInstruction } : {}),
    ...(cache.tools !== undefined ? { tools: cache.tools } : {}),
    ...(cache.toolConfig !== undefined ? { toolConfig: cache.toolConfig } : {}),
  };
  // The request as if it had been sent whole, to the path it came to (the model and the method; `alt=sse` for a stream).
  const target: RequestTarget = { path: `/v1beta/models/${wire.model}:${wire.method}`, query: new URLSearchParams(wire.sse ? "alt=sse" : "") };
  const parsed = parseGemini(body, new Headers(request.headers), target, "google.ai.generativelanguage.v1beta");
  if (!parsed.ok) return parsed;
  return { ok: true, wire: { ...parsed.wire, body: { ...parsed.wire.body, cachedContent: name } }, request: { ...parsed.request, headers: request.headers } };
}
