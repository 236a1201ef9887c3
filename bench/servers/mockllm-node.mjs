// mockllm's Node runtime from the built package (dist/node), as `mockllm serve` runs it. Prints its URL.
import { startServer } from "../../dist/node/index.js";
import { uploadScenarios } from "../workload.mjs";

const server = await startServer({ adminToken: "bench", vars: { DEFAULT_WORDS_PER_SECOND: "0" }, log: () => {} });
await uploadScenarios(server.url, "bench");
console.log(server.url);
