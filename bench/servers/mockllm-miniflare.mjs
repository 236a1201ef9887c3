// mockllm's Worker bundle (dist/worker) under Miniflare, as startMockLLM({ runtime: "workerd" }) runs it. Prints its URL.
// MOCKLLM_BENCH_VARS: more vars, as JSON (bench/soak.mjs: SESSION_TTL). MOCKLLM_CLIENT_DIST: another checkout's built
// client (DIR/dist/client/index.js), whose dist/worker bundle it then runs (compare.mjs --baseline).
import { SCENARIOS } from "../workload.mjs";

const { startMockLLM } = await import(process.env.MOCKLLM_CLIENT_DIST ?? "../../dist/client/index.js");

const mock = await startMockLLM({ runtime: "workerd", adminToken: "bench", scenarios: SCENARIOS, env: JSON.parse(process.env.MOCKLLM_BENCH_VARS ?? "{}") });
console.log(mock.url);
