import { describe, expect, it } from "vitest";
import { pendingToolResults, turnOf } from "../../src/canonical/request";
import { checkGeminiAuth } from "../../src/providers/gemini/errors";
import { geminiTarget, parseGenerateContent } from "../../src/providers/gemini/parse";
import { camelizeKeys } from "../../src/providers/gemini/wire";

const headers = new Headers({ "x-goog-api-key": "k" });
const target = (path = "/v1beta/models/gemini-2.5-flash:generateContent", query = "") => ({ path, query: new URLSearchParams(query) });

function parse(body: unknown, path?: string, query?: string) {
  const r = parseGenerateContent(body, headers, target(path, query));
  if (!r.ok) throw new Error(r.error.message);
  return r;
}

describe("gemini paths", () => {
  it.each([
    ["/v1beta/models/gemini-2.5-flash:generateContent", { model: "gemini-2.5-flash", method: "generateContent" }],
    ["/v1beta/models/gemini-2.5-flash:streamGenerateContent", { model: "gemini-2.5-flash", method: "streamGenerateContent" }],
    ["/v1/models/gemini-2.0-flash-001:generateContent", { model: "gemini-2.0-flash-001", method: "generateContent" }],
    ["/v1alpha/models/x%3AgenerateContent", { model: "x", method: "generateContent" }],
    ["/v1beta/tunedModels/my-tune:generateContent", { model: "tunedModels/my-tune", method: "generateContent" }],
  ])("%s", (path, expected) => {
    expect(geminiTarget(path)).toEqual(expected);
  });

  it.each(["/v1beta/models/:generateContent", "/v1beta/models/x:countTokens", "/v2/models/x:generateContent", "/v1beta/models/a/b:generateContent"])("not ours: %s", (path) =>
    expect(geminiTarget(path)).toBeUndefined(),
  );
});

describe("gemini request → canonical", () => {
  it("maps contents, system, tools, generation config; the model and streaming come from the target", () => {
    const r = parse(
      {
        systemInstruction: { parts: [{ text: "Be brief." }, { text: "Be kind." }] },
        contents: [{ role: "user", parts: [{ text: "Hi" }, { inlineData: { mimeType: "image/png", data: "AAAA" } }, { text: "there" }] }],
        tools: [{ functionDeclarations: [{ name: "get_weather" }, { name: "get_time" }] }, { googleSearch: {} }],
        toolConfig: { functionCallingConfig: { mode: "AUTO" } },
        safetySettings: [{ category: "HARM_CATEGORY_HARASSMENT", threshold: "BLOCK_NONE" }],
        generationConfig: { temperature: 0.2, topP: 0.9, maxOutputTokens: 256, thinkingConfig: { thinkingBudget: -1 } },
      },
      "/v1beta/models/gemini-2.5-pro:streamGenerateContent",
      "alt=sse",
    );
    expect(r.request).toMatchObject({
      provider: "gemini",
      endpoint: "generateContent",
      model: "gemini-2.5-pro",
      stream: true,
      system: "Be brief.\nBe kind.",
      messages: [{ role: "user", text: "Hi\nthere" }],
      tools: ["get_weather", "get_time"],
      temperature: 0.2,
      topP: 0.9,
      maxTokens: 256,
      reasoning: "enabled",
    });
    expect(r.wire).toMatchObject({ model: "gemini-2.5-pro", method: "streamGenerateContent", sse: true });
  });

  it("streamGenerateContent without alt=sse is not an SSE stream", () => {
    expect(parse({ contents: [{ parts: [{ text: "x" }] }] }, "/v1beta/models/m:streamGenerateContent").request.stream).toBe(false);
  });

  it.each([
    [undefined, "disabled"],
    [{ thinkingBudget: 0 }, "disabled"],
    [{ thinkingBudget: 0, includeThoughts: true }, "enabled"],
    [{ thinkingBudget: 512 }, "enabled"],
    [{ includeThoughts: true }, "enabled"],
    [{ thinkingLevel: "low" }, "enabled"],
  ])("thinkingConfig %j → reasoning %s", (thinkingConfig, reasoning) => {
    const generationConfig = thinkingConfig ? { thinkingConfig } : {};
    expect(parse({ contents: [{ parts: [{ text: "x" }] }], generationConfig }).request.reasoning).toBe(reasoning);
  });

  it("a function-call round trip: calls keyed by name (or id), responses become tool messages; turn = model contents + 1", () => {
    const r = parse({
      contents: [
        { role: "user", parts: [{ text: "Weather and time?" }] },
        {
          role: "model",
          parts: [
            { text: "thinking it over", thought: true, thoughtSignature: "sig" },
            { text: "Checking." },
            { functionCall: { name: "get_weather", args: { city: "Paris" } } },
            { functionCall: { id: "call-7", name: "get_time", args: {} } },
          ],
        },
        {
          role: "user",
          parts: [{ functionResponse: { name: "get_weather", response: { output: "sunny" } } }, { functionResponse: { id: "call-7", name: "get_time", response: { error: "no clock" } } }],
        },
      ],
    });
    expect(r.request.messages).toEqual([
      { role: "user", text: "Weather and time?" },
      {
        role: "assistant",
        text: "Checking.",
        toolCalls: [
          { id: "get_weather", name: "get_weather", arguments: '{"city":"Paris"}' },
          { id: "call-7", name: "get_time", arguments: "{}" },
        ],
        reasoning: [{ text: "thinking it over", signature: "sig" }],
      },
      { role: "tool", toolCallId: "get_weather", name: "get_weather", content: "sunny", isError: false },
      { role: "tool", toolCallId: "call-7", name: "get_time", content: "no clock", isError: true },
    ]);
    expect(turnOf(r.request)).toBe(2);
    expect(pendingToolResults(r.request).map((t) => t.name)).toEqual(["get_weather", "get_time"]);
  });

  it("a structured function response is kept as JSON text", () => {
    const r = parse({ contents: [{ role: "user", parts: [{ functionResponse: { name: "f", response: { temp: 21, unit: "C" } } }] }] });
    expect(r.request.messages).toEqual([{ role: "tool", toolCallId: "f", name: "f", content: '{"temp":21,"unit":"C"}', isError: false }]);
  });

  it("accepts snake_case fields, a bare-string systemInstruction, a role-less content and nulls", () => {
    const r = parse({
      system_instruction: "sys",
      contents: [{ parts: [{ text: "hi", inline_data: { mime_type: "text/plain", data: "aGk=" } }] }],
      generation_config: { max_output_tokens: 5, thinking_config: { include_thoughts: true }, top_p: null },
    });
    expect(r.request).toMatchObject({ system: "sys", maxTokens: 5, reasoning: "enabled", messages: [{ role: "user", text: "hi" }] });
    expect(r.request.topP).toBeUndefined();
  });

  it("camelizeKeys leaves free-form values alone", () => {
    expect(camelizeKeys({ function_call: { name: "f", args: { snake_key: 1 } }, function_response: { response: { a_b: 2 } } })).toEqual({
      functionCall: { name: "f", args: { snake_key: 1 } },
      functionResponse: { response: { a_b: 2 } },
    });
  });

  it("camelizeKeys copies only what changes: a camelCase body is itself, a change deep inside copies its path", () => {
    const contents = [
      { role: "user", parts: [{ text: "a" }] },
      { role: "model", parts: [{ functionCall: { name: "f", args: { snake_key: 1 } } }] },
    ];
    const camelBody = { contents, generationConfig: { maxOutputTokens: 5 } };
    expect(camelizeKeys(camelBody)).toBe(camelBody);
    const mixed = { contents, generation_config: { max_output_tokens: 5 } };
    const out = camelizeKeys(mixed) as typeof camelBody;
    expect(out).toEqual({ contents, generationConfig: { maxOutputTokens: 5 } });
    expect(out.contents).toBe(contents);
    const deep = { contents: [contents[0], { role: "model", parts: [{ function_call: { name: "f", args: {} } }] }], x: 1 };
    const deepOut = camelizeKeys(deep) as { contents: unknown[]; x: number };
    expect(deepOut).toEqual({ contents: [contents[0], { role: "model", parts: [{ functionCall: { name: "f", args: {} } }] }], x: 1 });
    expect(deepOut.contents[0]).toBe(contents[0]);
  });

  it("camelizeKeys answers as a plain copying walk does, on 2,000 seeded random bodies", () => {
    // The walk camelizeKeys was before it copied on write: every object and array copied.
    const OPAQUE = new Set(["args", "response"]);
    const camel = (k: string) => k.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
    const copying = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(copying);
      if (typeof value !== "object" || value === null) return value;
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) {
        const key = camel(k);
        if (v === null) continue;
        if (key !== k && key in value) continue;
        out[key] = OPAQUE.has(key) ? v : copying(v);
      }
      return out;
    };
    let seed = 7;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const KEYS = ["text", "top_p", "topP", "max_output_tokens", "maxOutputTokens", "args", "function_call", "response", "a_1", "to_string"];
    const make = (depth: number): unknown => {
      const r = rand();
      if (depth > 3 || r < 0.3) return [null, 1, "x", true][Math.floor(rand() * 4)];
      if (r < 0.5) return Array.from({ length: Math.floor(rand() * 3) }, () => make(depth + 1));
      const entries = Array.from({ length: Math.floor(rand() * 4) }, () => [KEYS[Math.floor(rand() * KEYS.length)]!, make(depth + 1)]);
      return JSON.parse(JSON.stringify(Object.fromEntries(entries)));
    };
    for (let n = 0; n < 2000; n++) {
      const body = make(0);
      const show = (v: unknown) => JSON.stringify(v, (_k, x) => (x !== null && typeof x === "object" && !Array.isArray(x) ? Object.fromEntries(Object.entries(x)) : x));
      expect(show(camelizeKeys(body))).toBe(show(copying(body)));
    }
  });

  it("camelizeKeys drops nulls, lets the camelCase spelling win, and keeps the key order of the copy", () => {
    expect(Object.keys(camelizeKeys({ a: 1, top_p: 0.5, topK: null, b: 2 }) as object)).toEqual(["a", "topP", "b"]);
    expect(camelizeKeys({ max_output_tokens: 1, maxOutputTokens: 2 })).toEqual({ maxOutputTokens: 2 });
    expect(camelizeKeys({ maxOutputTokens: 2, max_output_tokens: 1 })).toEqual({ maxOutputTokens: 2 });
    expect(camelizeKeys([{ a: null }, 1])).toEqual([{}, 1]);
  });

  it.each([
    [{}, "* GenerateContentRequest.contents: contents is not specified\n"],
    [{ contents: "hi" }, "Invalid value at 'contents' (TYPE_LIST), \"hi\""],
    [{ contents: [{ role: "assistant", parts: [{ text: "x" }] }] }, "Please use a valid role: user, model."],
    [{ contents: [{ role: "user" }] }, "* GenerateContentRequest.contents[0].parts: contents.parts must not be empty.\n"],
    // CLIProxyAPI#1292: a part with no data (here `text: null`, unset in proto JSON); every fault a line.
    [{ contents: [{ parts: [{ text: null }] }] }, "* GenerateContentRequest.contents[0].parts[0].data: required oneof field 'data' must have one initialized field\n"],
    [
      { contents: [{ role: "user" }, { role: "model", parts: [{ text: "", thoughtSignature: "c2ln" }, { thought: true }] }] },
      "* GenerateContentRequest.contents[0].parts: contents.parts must not be empty.\n* GenerateContentRequest.contents[1].parts[1].data: required oneof field 'data' must have one initialized field\n",
    ],
    [{ contents: [{ parts: [{ functionCall: { args: {} } }] }] }, "* GenerateContentRequest.contents[0].parts[0].function_call.name: name is not specified\n"],
    [{ contents: [{ parts: [{ text: "x" }] }], generationConfig: { temperature: "hot" } }, "Invalid value at 'generation_config.temperature' (TYPE_FLOAT), \"hot\""],
  ])("rejects %j with the real API's wording", (body, message) => {
    const r = parseGenerateContent(body, headers, target());
    expect(r.ok).toBe(false);
    if (!r.ok) expect([r.error.code, r.error.message]).toEqual(["invalid_request", message]);
  });

  it("values of the wrong type: every one, by its proto field and type, each a field violation", () => {
    const body = {
      contents: [{ parts: [{ text: 42 }, { text: "x", thought: "yes" }, { inlineData: { data: 5 } }] }],
      system_instruction: 5,
      generation_config: { temperature: "hot", max_output_tokens: 1.5, stop_sequences: ["a", 5] },
    };
    const r = parseGenerateContent(body, headers, target("/v1alpha/models/g:generateContent"));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.violations).toEqual([
      { field: "contents[0].parts[0].text", description: "Invalid value at 'contents[0].parts[0].text' (TYPE_STRING), 42" },
      { field: "contents[0].parts[1].thought", description: `Invalid value at 'contents[0].parts[1].thought' (TYPE_BOOL), "yes"` },
      { field: "contents[0].parts[2].inline_data.data", description: "Invalid value at 'contents[0].parts[2].inline_data.data' (TYPE_BYTES), 5" },
      { field: "system_instruction", description: "Invalid value at 'system_instruction' (type.googleapis.com/google.ai.generativelanguage.v1alpha.Content), 5" },
      { field: "generation_config.temperature", description: `Invalid value at 'generation_config.temperature' (TYPE_FLOAT), "hot"` },
      { field: "generation_config.max_output_tokens", description: "Invalid value at 'generation_config.max_output_tokens' (TYPE_INT32), 1.5" },
      { field: "generation_config.stop_sequences[1]", description: "Invalid value at 'generation_config.stop_sequences[1]' (TYPE_STRING), 5" },
    ]);
    expect(r.error.message).toBe(r.error.violations!.map((v) => v.description).join("\n"));
  });

  it("numbers sent as their text are read as proto JSON reads them; other text is still refused", () => {
    const r = parse({
      contents: [{ parts: [{ text: "x" }] }],
      generation_config: { temperature: "0.5", top_p: "1e-1", max_output_tokens: "64", top_k: "-3", seed: "7", thinking_config: { thinking_budget: "128" } },
    });
    expect(r.request).toMatchObject({ temperature: 0.5, topP: 0.1, maxTokens: 64, reasoning: "enabled" });
    expect(r.wire.body.generationConfig).toMatchObject({ temperature: 0.5, topP: 0.1, topK: -3, maxOutputTokens: 64, seed: 7, thinkingConfig: { thinkingBudget: 128 } });
    const refused = parseGenerateContent(
      { contents: [{ parts: [{ text: "x" }] }], generationConfig: { temperature: "0.5 ", topK: "1.5", maxOutputTokens: "2147483648", candidateCount: "0x10" } },
      headers,
      target(),
    );
    expect(refused.ok ? undefined : refused.error.message.split("\n")).toEqual([
      `Invalid value at 'generation_config.temperature' (TYPE_FLOAT), "0.5 "`,
      `Invalid value at 'generation_config.top_k' (TYPE_INT32), "1.5"`,
      `Invalid value at 'generation_config.max_output_tokens' (TYPE_INT32), "2147483648"`,
      `Invalid value at 'generation_config.candidate_count' (TYPE_INT32), "0x10"`,
    ]);
  });

  it("a body of many wrong values: the first 100 listed, then a line saying there were more", () => {
    const parts = Array.from({ length: 150 }, (_, i) => ({ text: i }));
    const r = parseGenerateContent({ contents: [{ parts }] }, headers, target());
    if (r.ok) throw new Error("taken");
    expect(r.error.violations).toHaveLength(100);
    expect(r.error.message.split("\n").slice(-2)).toEqual(["Invalid value at 'contents[0].parts[99].text' (TYPE_STRING), 99", "(mockllm: only the first 100 violations are listed)"]);
  });

  it("required fields missing: a `*` line each, no detail", () => {
    const r = parseGenerateContent({ contents: [{ parts: [{ functionCall: {} }, { functionResponse: {} }] }] }, headers, target());
    expect(r.ok ? undefined : [r.error.message, r.error.violations]).toEqual([
      "* GenerateContentRequest.contents[0].parts[0].function_call.name: name is not specified\n* GenerateContentRequest.contents[0].parts[1].function_response.name: name is not specified\n",
      undefined,
    ]);
  });
});

describe("gemini auth", () => {
  const q = (s = "") => ({ query: new URLSearchParams(s) });
  it.each([
    [{ "x-goog-api-key": "k" }, ""],
    [{}, "key=k"],
    [{ authorization: "Bearer ya29.token" }, ""],
  ])("accepts %j %s", (h, query) => {
    expect(checkGeminiAuth(new Headers(h), q(query))).toBeUndefined();
  });

  it("no key: PERMISSION_DENIED", () => {
    expect(checkGeminiAuth(new Headers({ "x-goog-api-key": " " }), q("key="))).toMatchObject({ code: "permission" });
  });
});
