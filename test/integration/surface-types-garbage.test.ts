/**
 * Moderations and rerank bodies with fields of the wrong type (issue 34), on both runtimes: each a 400 in the
 * surface's own shape — OpenAI's error object, Cohere's `{ message }`.
 */
import { describe, expect, it } from "vitest";
import { answer } from "../support/garbage";
import { call } from "./helpers";

type Json = Record<string, any>;

describe("moderations and rerank: fields of the wrong type, each a 400 in the surface's shape", () => {
  const OPENAI = { authorization: "Bearer sk", "content-type": "application/json" };
  const MODERATIONS: unknown[] = [
    {},
    { input: null },
    { input: 7 },
    { input: { toString: 1 } },
    { input: [1, 2] },
    { input: [null] },
    { input: [{ type: "image_url" }] },
    { input: [{ type: "image_url", image_url: 7 }] },
    { input: [{ type: "text", text: { toString: 1 } }] },
    { input: [{ type: "video", text: "x" }] },
    { input: "hi", model: 7 },
    { input: "hi", model: ["omni-moderation-latest"] },
    { input: [[["hi"]]] },
  ];
  const RERANK: unknown[] = [
    {},
    { query: "q" },
    { documents: ["a"] },
    { query: 7, documents: ["a"] },
    { query: { toString: 1 }, documents: ["a"] },
    { query: "q", documents: "a" },
    { query: "q", documents: [7] },
    { query: "q", documents: [null] },
    { query: "q", documents: [["a"]] },
    { query: "q", documents: ["a"], top_n: "1" },
    { query: "q", documents: ["a"], top_n: -1 },
    { query: "q", documents: ["a"], top_n: 1.5 },
    { query: "q", documents: ["a"], model: 7 },
    { query: "q", documents: ["a"], return_documents: "yes" },
    { query: "q", documents: [{ text: 7 }] },
  ];
  /** v1 only: v2 has no `rank_fields` (and ignores it, as Cohere's v2 does an unknown field). */
  const V1_ONLY: unknown[] = [
    { query: "q", documents: ["a"], rank_fields: "text" },
    { query: "q", documents: ["a"], rank_fields: [7] },
  ];

  it("/v1/moderations: OpenAI's error object; /v2/rerank and /v1/rerank: Cohere's { message }", async () => {
    const bad: string[] = [];
    for (const body of MODERATIONS) {
      const a = await answer(await call("/v1/moderations", { method: "POST", headers: OPENAI, body: JSON.stringify({ model: "omni-moderation-latest", ...(body as Json) }) }));
      const e = (a.json as Json | undefined)?.error;
      if (a.status !== 400 || typeof e?.message !== "string" || e.type !== "invalid_request_error") bad.push(`moderations ${JSON.stringify(body)} → ${a.status} ${a.text.slice(0, 120)}`);
    }
    for (const path of ["/v2/rerank", "/v1/rerank"]) {
      for (const body of path === "/v1/rerank" ? [...RERANK, ...V1_ONLY] : RERANK) {
        const a = await answer(await call(path, { method: "POST", headers: OPENAI, body: JSON.stringify({ model: "rerank-v3.5", ...(body as Json) }) }));
        const j = a.json as Json | undefined;
        if (a.status !== 400 || typeof j?.message !== "string" || Object.keys(j).length !== 1) bad.push(`${path} ${JSON.stringify(body)} → ${a.status} ${a.text.slice(0, 120)}`);
      }
    }
    expect(bad).toEqual([]);
  });
});
