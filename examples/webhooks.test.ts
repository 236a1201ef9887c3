// An app that starts research as an OpenAI background response and finishes it when OpenAI's webhook says it is
// done, tested against mockllm: the webhook arrives, signed, at the app's own handler.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import OpenAI from "openai";
import { scenario, startMockLLM, type MockLLM } from "mockllm";

const research = scenario("research")
  .processingMs(200) // the background run takes 200 ms
  .step((s) => s.text("Three sources agree: the answer is 42."));

/** The code under test: a webhook handler that verifies the event and stores the finished report. */
function webhookApp(openai: OpenAI, secret: () => string, reports: Map<string, string>): Server {
  return createServer(async (req, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    try {
      const headers = new Headers(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      const event = await openai.webhooks.unwrap(body, headers, secret());
      if (event.type === "response.completed") {
        const response = await openai.responses.retrieve(event.data.id);
        reports.set(response.id, response.output_text);
      }
      res.writeHead(200).end();
    } catch {
      res.writeHead(400).end(); // not signed by OpenAI
    }
  });
}

let mock: MockLLM;
let app: Server;
let secret = "";
const reports = new Map<string, string>();
let openai: OpenAI;

beforeAll(async () => {
  mock = await startMockLLM({ scenarios: [research] });
  openai = new OpenAI({ apiKey: "sk-test", baseURL: mock.openaiBaseURL("research", "run-1") });
  app = webhookApp(openai, () => secret, reports);
  await new Promise<void>((r) => app.listen(0, "127.0.0.1", r));
});
afterAll(async () => {
  await new Promise((r) => app.close(r));
  await mock.stop();
});

it("finishes the report when response.completed arrives", async () => {
  const port = (app.address() as AddressInfo).port;
  const endpoint = await openai.webhooks.create({ name: "app", url: `http://127.0.0.1:${port}/openai`, event_types: ["response.completed"] });
  secret = endpoint.signing_secret;

  const started = await openai.responses.create({ model: "gpt-5", input: "What is the answer?", background: true });
  expect(started.status).toBe("queued");

  // No polling in the app: the webhook brings the result.
  for (let i = 0; i < 200 && !reports.has(started.id); i++) await new Promise((r) => setTimeout(r, 25));
  expect(reports.get(started.id)).toBe("Three sources agree: the answer is 42.");

  // What mockllm sent and what the handler answered (the place to look when a handler hears nothing).
  const { deliveries } = await mock.admin.webhooks();
  expect(deliveries.map((d) => [d.type, d.endpoint, d.status])).toEqual([["response.completed", endpoint.id, 200]]);
});
