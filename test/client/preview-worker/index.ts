/**
 * A preview deployment's Worker (test/client/service-binding.test.ts): the official `openai` SDK reaching the mock
 * through a service binding, as docs/guide/preview-environments.md shows. Bundled with esbuild by the test.
 */
import OpenAI from "openai";

interface Env {
  MOCKLLM: { fetch(request: Request): Promise<Response> };
  MOCKLLM_RUN_KEY: string;
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const session = new URL(request.url).searchParams.get("session") ?? "preview";
    const openai = new OpenAI({
      // The test mints the key after both Workers started, so it may pass one per request.
      apiKey: request.headers.get("x-test-run-key") ?? env.MOCKLLM_RUN_KEY,
      baseURL: `https://mockllm.internal/s/preview-app/${session}/v1`, // any host: the binding ignores it
      fetch: (input, init) => env.MOCKLLM.fetch(new Request(input as string, init as RequestInit)),
      maxRetries: 0,
    });
    try {
      const completion = await openai.chat.completions.create({ model: "gpt-4.1", messages: [{ role: "user", content: "What does the preview say?" }] });
      return Response.json({ text: completion.choices[0]?.message.content, id: completion.id });
    } catch (e) {
      return Response.json({ error: (e as Error).message, status: (e as { status?: number }).status ?? null }, { status: 502 });
    }
  },
};
