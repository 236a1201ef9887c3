// mockllm's Worker bundle (dist/worker) under Miniflare, as startMockLLM({ runtime: "workerd" }) runs it. Prints its URL.
// MOCKLLM_BENCH_VARS: more vars, as JSON (bench/soak.mjs: SESSION_TTL).
import { startMockLLM } from "../../dist/client/index.js";
import { SCENARIOS } from "../workload.mjs";

const mock = await startMockLLM({ runtime: "workerd", adminToken: "bench", scenarios: SCENARIOS, env: JSON.parse(process.env.MOCKLLM_BENCH_VARS ?? "{}") });
console.log(mock.url);
