import { describe, expect, it } from "vitest";
import { call } from "./helpers";

/** Every route a client can reach, with the methods worth throwing at it. */
const ROUTES = [
  "/v1/chat/completions",
  "/s/weather-agent/v1/chat/completions",
  "/s/weather-agent/g1/v1/chat/completions",
  "/v1/messages",
  "/s/weather-agent/v1/messages",
  "/v1/messages/count_tokens",
  "/v1/responses",
  "/v1/embeddings",
  "/v1/models",
  "/v1/models/x",
  "/v1beta/models/gemini-2.5-flash:generateContent?key=k",
  "/s/weather-agent/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse&key=k",
  "/s/weather-agent/g1/v1beta/models/m:streamGenerateContent",
  "/v1/models/m:generateContent?key=k",
  "/v1beta/models?key=k",
  "/v1beta/models/m",
  "/api/chat",
  "/s/weather-agent/api/chat",
  "/s/weather-agent/g1/api/generate",
  "/api/generate",
  "/api/tags",
  "/api/show",
  "/api/version",
  "/api/nope",
  "/admin/scenarios",
  "/admin/scenarios/x",
  "/admin/sessions/x/y",
  "/admin/sessions/x/y/requests",
  "/admin/sessions/x/y/reset",
  "/admin/schema",
  "/healthz",
  "/",
  "/s/",
  "/s/%ZZ/v1/chat/completions",
  "/nope",
];

const BODIES: (string | undefined)[] = [
  undefined,
  "",
  "{",
  "null",
  "[]",
  "42",
  '"str"',
  "{}",
  '{"model":null,"messages":null}',
  '{"model":"m","messages":[null]}',
  '{"model":"m","messages":[{"role":"user","content":[1,2]}]}',
  '{"model":"m","messages":[{"role":"assistant","tool_calls":[{"id":1}]}]}',
  '{"model":"m","max_tokens":"x","messages":[{"role":"user","content":{"a":1}}]}',
  '{"model":"m","input":[{"type":"function_call_output"}]}',
  '{"name":"x","steps":[{"respond":{"toolCalls":[{"name":""}]}}]}',
  '{"contents":[null],"systemInstruction":7}',
  '{"contents":[{"role":"model","parts":[{"functionCall":{"name":1,"args":[]}},{"thought":"yes"}]}]}',
  '{"contents":[{"parts":[{"text":"x"}]}],"generationConfig":{"thinkingConfig":"x"},"tools":[{"functionDeclarations":[null]}]}',
  "\u0000\u0001binary",
];

const HEADER_SETS: Record<string, string>[] = [
  {},
  { authorization: "Bearer sk", "content-type": "application/json" },
  { "x-api-key": "k", "anthropic-version": "2023-06-01", "content-type": "application/json" },
  { authorization: "Bearer test-admin-token", "content-type": "application/json" },
  { authorization: "Bearer sk", "content-type": "text/plain", "x-mock-scenario": "../../etc" },
];

describe("garbage in, never a 5xx out", () => {
  it("throws malformed requests at every route", async () => {
    const failures: string[] = [];
    for (const path of ROUTES) {
      for (const method of ["GET", "POST", "PUT", "DELETE", "HEAD"]) {
        for (const headers of HEADER_SETS) {
          for (const body of method === "GET" || method === "HEAD" ? [undefined] : BODIES) {
            const res = await call(path, { method, headers, ...(body !== undefined ? { body } : {}) });
            await res.arrayBuffer();
            if (res.status >= 500) failures.push(`${method} ${path} ${JSON.stringify(headers)} ${body} → ${res.status}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
  });
});
