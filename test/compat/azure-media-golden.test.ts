/**
 * Golden wire text of Azure OpenAI's images and transcriptions from the running server on both runtimes: a DALL·E 3
 * answer with Azure's per-image annotations (test/golden/azure/images.json, its `url` host normalised), the blocked
 * image prompt's 400 (test/golden/safety/prompt/azure-images.json), the filtered image
 * (test/golden/safety/completion/azure-images.json) and a transcription (test/golden/azure/transcription.json).
 * Each request runs in its own session. Regenerate after an intended change with UPDATE_GOLDEN=1 and review the diff.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectGolden, normalize } from "../support/golden";
import { startHarness, type Harness } from "./harness";

let h: Harness;
const VERSION = "2024-10-21";

beforeAll(async () => {
  h = await startHarness();
  await h.upload(
    { name: "azure-image", steps: [{ respond: { image: { color: "#336699", revisedPrompt: "A lighthouse on a cliff at dusk." } } }] },
    { name: "azure-image-blocked", steps: [{ failures: [{ kind: "content_filter", on: "prompt", categories: ["violence", "jailbreak"] }], respond: { image: {} } }] },
    { name: "azure-image-filtered", steps: [{ failures: [{ kind: "content_filter", on: "completion", categories: ["sexual"] }], respond: { image: {} } }] },
    { name: "azure-stt", steps: [{ respond: { transcript: { text: "Good morning. The meeting starts now.", language: "english", durationSeconds: 3 } } }] },
  );
}, 120_000);
afterAll(() => h?.stop());

let sessions = 0;
function images(scenario: string): Promise<Response> {
  return fetch(`${h.url}/s/${scenario}/g${++sessions}/openai/deployments/dalle3/images/generations?api-version=${VERSION}`, {
    method: "POST",
    headers: { "content-type": "application/json", "api-key": "azure-key" },
    body: JSON.stringify({ model: "dall-e-3", prompt: "a lighthouse", response_format: "url" }),
  });
}

describe("Azure images and audio: golden wire text", () => {
  it.each([
    ["azure/images.json", "azure-image", 200],
    ["safety/prompt/azure-images.json", "azure-image-blocked", 400],
    ["safety/completion/azure-images.json", "azure-image-filtered", 200],
  ] as const)("%s", async (name, scenario, status) => {
    const res = await images(scenario);
    expect(res.status).toBe(status);
    expectGolden(name, normalize(await res.text(), [[/http:\/\/[^/"]+\//g, "http://<host>/"]]));
  });

  it("azure/transcription.json", async () => {
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(64)], { type: "audio/wav" }), "meeting.wav");
    const res = await fetch(`${h.url}/s/azure-stt/g${++sessions}/openai/deployments/whisper-prod/audio/transcriptions?api-version=${VERSION}`, {
      method: "POST",
      headers: { "api-key": "azure-key" },
      body: form,
    });
    expect(res.status).toBe(200);
    expectGolden("azure/transcription.json", await res.text());
  });
});
