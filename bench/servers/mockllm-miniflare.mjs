// mockllm's Worker bundle (dist/worker) under Miniflare, as startMockLLM({ runtime: "workerd" }) runs it. Prints its URL.
import { startMockLLM } from "../../dist/client/index.js";
import { SCENARIOS } from "../workload.mjs";

const mock = await startMockLLM({ runtime: "workerd", adminToken: "bench", scenarios: SCENARIOS });
console.log(mock.url);
