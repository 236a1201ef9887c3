// The leading local peer, @copilotkit/aimock, serving the bench workload as fixtures. Prints its URL.
import { LLMock } from "@copilotkit/aimock";
import { BURST_PACING, JSON_TEXT, WORDS_100, WORDS_200 } from "../workload.mjs";

const mock = new LLMock({ port: 0, host: "127.0.0.1", logLevel: "silent" });
mock.onMessage("bench json", { content: JSON_TEXT });
mock.onMessage("bench stream", { content: WORDS_200 });
// The burst: 5 characters an event (one "w000 " word), the role chunk after `ttft`, then one chunk each 1000/tps ms.
mock.onMessage("bench burst", { content: WORDS_100 }, { chunkSize: 5, streamingProfile: { ttft: BURST_PACING.ttftMs, tps: BURST_PACING.wordsPerSecond } });
mock.onToolResult("call_1", { content: "It is sunny in Paris." });
mock.onMessage("weather", { toolCalls: [{ id: "call_1", name: "get_weather", arguments: JSON.stringify({ city: "Paris" }) }] });
await mock.start();
console.log(mock.url);
if (process.env.MOCKLLM_BENCH_MEMORY) (await import("./memory-sampler.mjs")).sampleMemory(process.env.MOCKLLM_BENCH_MEMORY);
if (process.env.MOCKLLM_BENCH_ALLOCATIONS) await (await import("./memory-sampler.mjs")).profileAllocations(process.env.MOCKLLM_BENCH_ALLOCATIONS, !!process.env.MOCKLLM_BENCH_YOUNG);
if (process.env.MOCKLLM_BENCH_SNAPSHOT) (await import("./memory-sampler.mjs")).snapshotOnSignal(process.env.MOCKLLM_BENCH_SNAPSHOT);
// A clean exit on SIGTERM, so `--cpu-prof` (bench/node-profile.mjs --target peer) gets to write its profile.
process.on("SIGTERM", () => process.exit(0));
