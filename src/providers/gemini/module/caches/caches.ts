/**
 * Gemini's explicit context caches (`ai.caches` in `@google/genai`), in the caller's namespace: `POST
 * /v1beta/cachedContents` (`model`, `contents`, `systemInstruction`, `tools`, `toolConfig`, `ttl` or `expireTime`,
 * `displayName`), `GET /v1beta/cachedContents[/{id}]`, `PATCH …/{id}` (a new `ttl` or `expireTime`), `DELETE …/{id}`
 * (also under `v1` and `v1alpha`). What a cache holds is read by generateContent's parse when it is made (a body
 * generateContent refuses is refused here in the same words) and put in front of every generateContent that names it
 * (../../cached-contents.ts). The default life is an hour; an expired cache is gone (403, as an unknown one).
 */
import { apiError, type ApiError } from "../../../../http/errors";
import { readJsonBody } from "../../../../http/body";
import { isRecord, jsonResponse } from "../../../../http/json";
import { estimateInputTokens } from "../../../anthropic/count-tokens";
import type { SideRoute, SideRouteContext } from "../../../types";
import { cacheNotFound, geminiCaches, loadCache, type CacheRecord } from "../../cached-contents";
import { checkGeminiAuth } from "../../errors";
import { parseGemini } from "../../parse";
import { camelizeKeys } from "../../wire";
import { echoed } from "../../../../util/text";
import { randomLowerAlnum } from "../../../../objects/ids";

const PATH = /^\/(v1beta|v1alpha|v1)\/cachedContents(?:\/([^/:]+))?$/;
const DEFAULT_TTL_MS = 3600 * 1000;

/** A protobuf Duration (`"300s"`, `"1.5s"`) in ms, or undefined. */
function durationMs(value: unknown): number | undefined {
  const m = typeof value === "string" ? /^(\d+(?:\.\d{1,9})?)s$/.exec(value) : null;
  return m ? Math.round(Number(m[1]) * 1000) : undefined;
}

/** When a cache made or updated `now` with `body` ends: `expireTime`, else `ttl`, else `fallback` (or an error). */
function expiry(body: Record<string, unknown>, now: number, fallback: number | undefined): number | ApiError {
  if (body.expireTime !== undefined) {
    const at = typeof body.expireTime === "string" ? Date.parse(body.expireTime) : Number.NaN;
    if (Number.isNaN(at)) return apiError("invalid_request", `Invalid value at 'cached_content.expire_time' (type.googleapis.com/google.protobuf.Timestamp), "${echoed(String(body.expireTime))}"`);
    return at;
  }
  if (body.ttl !== undefined) {
    const ms = durationMs(body.ttl);
    if (ms === undefined) return apiError("invalid_request", `Invalid value at 'cached_content.ttl' (type.googleapis.com/google.protobuf.Duration), "${echoed(String(body.ttl))}"`);
    return now + ms;
  }
  return fallback ?? apiError("invalid_request", "Either ttl or expire_time must be set.");
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The CachedContent resource (what it holds is input only: not shown). */
function resource(r: CacheRecord): Record<string, unknown> {
  return {
    name: `cachedContents/${r.id}`,
    ...(r.displayName !== undefined ? { displayName: r.displayName } : {}),
    model: `models/${r.model}`,
    createTime: iso(r.createMs),
    updateTime: iso(r.updateMs),
    expireTime: iso(r.expireMs),
    usageMetadata: { totalTokenCount: r.tokens },
  };
}

/** A new cache id: 16 lower-case letters and digits. */
const newCacheId = () => randomLowerAlnum(16);

async function create(request: Request, version: string, ctx: SideRouteContext): Promise<Response> {
  const read = await readJsonBody(request);
  if (!read.ok) return ctx.refuse(read.error);
  const body = camelizeKeys(read.value);
  if (!isRecord(body)) return ctx.refuse(apiError("invalid_request", "Invalid JSON payload received. Expected an object."));
  if (typeof body.model !== "string" || body.model === "") return ctx.refuse(apiError("invalid_request", "* CachedContent.model: model is required."));
  const model = body.model.replace(/^models\//, "");
  const now = Date.now();
  const ends = expiry(body, now, now + DEFAULT_TTL_MS);
  if (typeof ends !== "number") return ctx.refuse(ends);
  const contents = Array.isArray(body.contents) ? body.contents : [];
  const held = { contents, systemInstruction: body.systemInstruction, tools: body.tools, toolConfig: body.toolConfig };
  const parsed = parseGemini(held, request.headers, { path: `/${version}/models/${model}:generateContent`, query: new URLSearchParams() }, `google.ai.generativelanguage.${version}`);
  if (!parsed.ok) return ctx.refuse(parsed.error);
  if (parsed.wire.refused) return ctx.refuse(parsed.wire.refused);
  const record: CacheRecord = {
    id: newCacheId(),
    model,
    ...(typeof body.displayName === "string" ? { displayName: body.displayName } : {}),
    contents,
    ...(body.systemInstruction !== undefined ? { systemInstruction: body.systemInstruction } : {}),
    ...(Array.isArray(body.tools) ? { tools: body.tools } : {}),
    ...(body.toolConfig !== undefined ? { toolConfig: body.toolConfig } : {}),
    createMs: now,
    updateMs: now,
    expireMs: ends,
    tokens: estimateInputTokens(parsed.request, parsed.wire.body.tools ?? []),
  };
  await geminiCaches(ctx.rt.objects!).put(record.id, record);
  return jsonResponse(resource(record));
}

async function list(request: Request, ctx: SideRouteContext): Promise<Response> {
  const q = new URL(request.url).searchParams;
  const size = Number(q.get("pageSize") ?? q.get("page_size") ?? "0");
  const limit = Number.isInteger(size) && size > 0 ? Math.min(size, 1000) : 50;
  const now = Date.now();
  const page = await geminiCaches(ctx.rt.objects!).page({ limit, ...(q.get("pageToken") ? { after: q.get("pageToken")! } : {}) });
  const live = page.data.filter((r) => r.expireMs > now);
  const last = page.data.at(-1);
  return jsonResponse({ ...(live.length > 0 ? { cachedContents: live.map(resource) } : {}), ...(page.hasMore && last ? { nextPageToken: last.id } : {}) });
}

async function update(request: Request, id: string, ctx: SideRouteContext): Promise<Response> {
  const cache = await loadCache(ctx.rt, id);
  if (!cache) return ctx.refuse(cacheNotFound());
  const read = await readJsonBody(request);
  if (!read.ok) return ctx.refuse(read.error);
  const body = camelizeKeys(read.value);
  if (!isRecord(body)) return ctx.refuse(apiError("invalid_request", "Invalid JSON payload received. Expected an object."));
  const now = Date.now();
  const ends = expiry(body, now, undefined);
  if (typeof ends !== "number") return ctx.refuse(ends);
  const updated: CacheRecord = { ...cache, expireMs: ends, updateMs: now };
  await geminiCaches(ctx.rt.objects!).put(id, updated);
  return jsonResponse(resource(updated));
}

export const geminiCachesRoute: SideRoute = {
  knows: (path) => PATH.test(path),
  async serve(request, path, ctx) {
    const m = PATH.exec(path);
    if (!m) return undefined;
    const auth = checkGeminiAuth(request.headers, { query: new URL(request.url).searchParams });
    if (auth) return ctx.refuse(auth);
    if (ctx.rt.objects === undefined) return ctx.refuse(apiError("not_found", "mockllm: this runtime keeps no caches."));
    const [, version, rawId] = m;
    if (rawId === undefined) {
      if (request.method === "POST") return create(request, version!, ctx);
      if (request.method === "GET") return list(request, ctx);
      return ctx.refuse(apiError("method_not_allowed", `Use GET or POST for ${path}.`));
    }
    const id = rawId;
    if (request.method === "PATCH") return update(request, id, ctx);
    const cache = await loadCache(ctx.rt, id);
    if (!cache) return ctx.refuse(cacheNotFound());
    if (request.method === "GET") return jsonResponse(resource(cache));
    if (request.method === "DELETE") {
      await geminiCaches(ctx.rt.objects).delete(id);
      return jsonResponse({});
    }
    return ctx.refuse(apiError("method_not_allowed", `Use GET, PATCH or DELETE for ${path}.`));
  },
};
