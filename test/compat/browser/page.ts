/**
 * The page of test/compat/browser-sdks.test.ts, bundled for the browser with esbuild: the official `openai` SDK
 * (`dangerouslyAllowBrowser`), `@anthropic-ai/sdk` (browser mode: it sends `anthropic-dangerous-direct-browser-access`)
 * and a Realtime socket opened with an ephemeral key, each writing what it streams into the page.
 */
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";

// The page's globals, typed here only (the project compiles without the DOM library).
declare const document: any;
declare const WebSocket: new (url: string, protocols: string[]) => any;

function append(id: string, text: string): string {
  let el = document.getElementById(id);
  if (el === null) {
    el = document.createElement("p");
    el.id = id;
    document.body.append(el);
  }
  el.textContent = (el.textContent ?? "") + text;
  return el.textContent;
}

const pageApi = {
  async openaiStream(baseURL: string): Promise<string> {
    const client = new OpenAI({ apiKey: "sk-browser", baseURL, dangerouslyAllowBrowser: true, maxRetries: 0 });
    const stream = await client.chat.completions.create({ model: "gpt-4.1", stream: true, messages: [{ role: "user", content: "Stream to the page." }] });
    for await (const chunk of stream) append("openai", chunk.choices[0]?.delta?.content ?? "");
    return document.getElementById("openai")?.textContent ?? "";
  },

  async anthropicStream(baseURL: string): Promise<string> {
    const client = new Anthropic({ apiKey: "sk-ant-browser", baseURL, dangerouslyAllowBrowser: true, maxRetries: 0 });
    const stream = client.messages.stream({ model: "claude-sonnet-4-5", max_tokens: 200, messages: [{ role: "user", content: "Stream to the page." }] });
    stream.on("text", (t) => append("anthropic", t));
    const message = await stream.finalMessage();
    return `${document.getElementById("anthropic")?.textContent ?? ""}|${message.stop_reason}|${stream.request_id ?? ""}`;
  },

  async rateLimited(baseURL: string): Promise<Record<string, unknown>> {
    const client = new OpenAI({ apiKey: "sk-browser", baseURL, dangerouslyAllowBrowser: true, maxRetries: 0 });
    try {
      await client.chat.completions.create({ model: "gpt-4.1", messages: [{ role: "user", content: "hi" }] });
      return { status: 200 };
    } catch (e) {
      const err = e as InstanceType<typeof OpenAI.APIError>;
      return {
        rateLimitError: e instanceof OpenAI.RateLimitError,
        status: err.status,
        retryAfter: err.headers?.get("retry-after"),
        retryAfterMs: err.headers?.get("retry-after-ms"),
        remaining: err.headers?.get("x-ratelimit-remaining-requests"),
        requestId: err.requestID?.startsWith("req_") === true,
        message: err.message,
      };
    }
  },

  realtime(url: string, key: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, ["realtime", `openai-insecure-api-key.${key}`]);
      ws.onerror = () => reject(new Error("socket error"));
      ws.onmessage = (m: { data: unknown }) => {
        const event = JSON.parse(String(m.data)) as { type: string; delta?: string };
        if (event.type === "session.created") {
          ws.send(JSON.stringify({ type: "conversation.item.create", item: { type: "message", role: "user", content: [{ type: "input_text", text: "hi" }] } }));
          ws.send(JSON.stringify({ type: "response.create" }));
        }
        if (event.type === "response.output_text.delta") append("realtime", event.delta ?? "");
        if (event.type === "response.done") {
          ws.close();
          resolve(`${ws.protocol}|${document.getElementById("realtime")?.textContent ?? ""}`);
        }
      };
    });
  },

  /** A raw fetch from a page: whether the answer could be read at all (a CORS failure is a TypeError). */
  async rawFetch(url: string, init: RequestInit): Promise<string> {
    try {
      const res = await fetch(url, init);
      return `${res.status} ${(await res.text()).slice(0, 200)}`;
    } catch (e) {
      return `${(e as Error).name}`;
    }
  },
};

(globalThis as unknown as { mock: typeof pageApi }).mock = pageApi;
